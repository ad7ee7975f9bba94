#include "app/command.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/command_line.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/version.h"

namespace retort {

std::optional<std::string> Args::option(const std::string& name) const {
  auto it = options.find(name);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

const OptionSpec* CommandSpec::find_option(std::string_view option) const {
  for (const auto& o : options)
    if (o.name == option) return &o;
  return nullptr;
}

const ActionSpec* CommandSpec::find_action(std::string_view action) const {
  for (const auto& a : actions)
    if (a.name == action) return &a;
  return nullptr;
}

void CommandSpec::invoke(Session& session, const Args& args, Output& out) const {
  if (actions.empty()) return run(session, args, out);
  find_action(args.positional.at(0))->run(session, args, out);
}

namespace {

// Help fits 80 columns, so that the log pane of a workbench on an ordinary terminal shows it.
constexpr size_t kHelpWidth = 80;

std::string args_synopsis(const std::vector<ArgSpec>& args) {
  std::string out;
  for (const auto& a : args) out += a.optional ? fmt::format(" [{}]", a.name) : " " + a.name;
  return out;
}

std::vector<std::string> action_names(const std::vector<ActionSpec>& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) out.push_back(a.name);
  return out;
}

std::string option_synopsis(const OptionSpec& o) {
  return o.value_name.empty() ? o.name : fmt::format("{} {}", o.name, o.value_name);
}

// An action's summary as help shows it: its prose wrapped to `width`, a line that starts with
// a blank (a table) kept as written.
std::string reflow(const std::string& text, size_t width) {
  std::string out, prose;
  auto flush = [&] {
    if (prose.empty()) return;
    for (const auto& line : wrap_words(prose, width)) out += line + "\n";
    prose.clear();
  };
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(' ')) {
      flush();
      out += line + "\n";
    } else {
      prose += " " + line;
    }
  }
  flush();
  return out;
}

// Indents every non-empty line of text.
std::string indent(std::string_view text, std::string_view pad) {
  std::string out;
  bool at_line_start = true;
  for (char c : text) {
    if (at_line_start && c != '\n') out += pad;
    out += c;
    at_line_start = c == '\n';
  }
  return out;
}

// The words after the name, without options: "ACTION" for a command with actions ("[ACTION]"
// when one runs by default).
std::string positional_synopsis(const CommandSpec& c) {
  if (c.actions.empty()) return args_synopsis(c.args);
  return c.default_action.empty() ? " ACTION" : " [ACTION]";
}

}  // namespace

std::string CommandSpec::action_synopsis(const ActionSpec& action) const {
  return name + " " + action.name + args_synopsis(action.args);
}

std::string CommandSpec::synopsis() const {
  std::string out = name + positional_synopsis(*this);
  for (const auto& o : options) out += fmt::format(" [{}]", option_synopsis(o));
  return out;
}

std::string CommandSpec::help_text() const {
  std::string out = synopsis() + "\n" + indent(summary, "  ") + "\n";
  if (!actions.empty()) {
    out += "actions:\n";
    for (const auto& a : actions) {
      bool is_default = a.name == default_action;
      out += fmt::format("  {}{}\n{}", action_synopsis(a), is_default ? "  (the default)" : "",
                         indent(reflow(a.summary, kHelpWidth - 6), "      "));
    }
  }
  if (!help.empty()) out += indent(help, "  ") + "\n";
  if (!options.empty()) {
    out += "options:\n";
    for (const auto& o : options) out += fmt::format("  {}  {}\n", option_synopsis(o), o.doc);
  }
  return out;
}

std::string CommandSpec::action_help_text(const ActionSpec& action) const {
  std::string out = action_synopsis(action);
  for (const auto& o : options) out += fmt::format(" [{}]", option_synopsis(o));
  out += "\n" + indent(reflow(action.summary, kHelpWidth - 2), "  ");
  if (!options.empty()) {
    out += "options:\n";
    for (const auto& o : options) out += fmt::format("  {}  {}\n", option_synopsis(o), o.doc);
  }
  return out + fmt::format("(`help {}` describes its other actions)\n", name);
}

std::string CommandSpec::help_for(std::string_view rest) const {
  for (const std::string& w : split_words(rest)) {
    if (w.starts_with("-")) continue;  // --db FILE may come before the action
    const ActionSpec* action = find_action(w);
    return action ? action_help_text(*action) : help_text();
  }
  return help_text();
}

std::string CommandSpec::markdown() const {
  std::string out = fmt::format("## {}\n\n```\n{}\n```\n\n{}\n", name, synopsis(), summary);
  if (!actions.empty()) {
    out += "\nActions:\n\n";
    for (const auto& a : actions) {
      std::string text = a.summary;
      std::replace(text.begin(), text.end(), '\n', ' ');
      out += fmt::format("- `{}`{}: {}\n", action_synopsis(a),
                         a.name == default_action ? " (the default)" : "", text);
    }
  }
  if (!help.empty()) out += "\n" + help + "\n";
  if (!options.empty()) {
    out += "\nOptions:\n\n";
    for (const auto& o : options) out += fmt::format("- `{}`: {}\n", option_synopsis(o), o.doc);
  }
  return out;
}

namespace {

// Throws a usage error when `positional`, past its first `skip` words, does not fill `args`.
template <typename UsageError>
void check_count(const std::vector<ArgSpec>& args, const std::vector<std::string>& positional,
                 size_t skip, UsageError usage_error) {
  size_t given = positional.size() - skip;
  size_t required =
      std::count_if(args.begin(), args.end(), [](const ArgSpec& a) { return !a.optional; });
  if (given < required) throw usage_error(fmt::format("missing {}", args[given].name));
  bool repeats = !args.empty() && args.back().repeated;
  if (given > args.size() && !repeats)
    throw usage_error(fmt::format("unexpected argument '{}'", positional[skip + args.size()]));
}

}  // namespace

bool CommandSpec::asks_for_help(std::string_view rest) const {
  if (raw_text) return false;
  for (const std::string& w : split_words(rest)) {
    if (w == "--") return false;
    if ((w == "--help" || w == "-h") && !find_option(w)) return true;
  }
  return false;
}

Args CommandSpec::parse(std::string_view rest) const {
  auto usage_error = [&](const std::string& message) -> Error {
    return Error(fmt::format("{}; usage: {}", message, synopsis()));
  };
  Args out;
  if (raw_text) {
    out.raw = trim_blanks(rest);
    bool required = !args.empty() && !args.front().optional;
    if (required && out.raw.empty())
      throw usage_error(fmt::format("missing {}", args.front().name));
    return out;
  }
  std::vector<std::string> words = split_words(rest);
  bool options_done = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (!options_done && w == "--") {
      options_done = true;
      continue;
    }
    // A one-letter option (-o) is an option only where the command declares it; elsewhere a
    // word like -1 is an argument.
    bool short_option = w.size() == 2 && w[0] == '-' && find_option(w);
    if (options_done || !(w.starts_with("--") || short_option)) {
      out.positional.push_back(w);
      continue;
    }
    size_t eq = w.find('=');
    std::string name_part = w.substr(0, eq);
    const OptionSpec* spec = find_option(name_part);
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& o : options) names.push_back(o.name);
      throw usage_error(
          fmt::format("unknown option {}{}", name_part, did_you_mean(name_part, names)));
    }
    if (spec->value_name.empty()) {
      if (eq != std::string::npos) throw usage_error(fmt::format("{} takes no value", name_part));
      out.options[spec->name] = "";
    } else if (eq != std::string::npos) {
      out.options[spec->name] = w.substr(eq + 1);
    } else {
      if (i + 1 >= words.size())
        throw usage_error(fmt::format("{} needs a value {}", name_part, spec->value_name));
      out.options[spec->name] = words[++i];
    }
  }
  if (actions.empty()) {
    check_count(args, out.positional, 0, usage_error);
    return out;
  }
  if (out.positional.empty()) {
    if (default_action.empty())
      throw usage_error(
          fmt::format("missing ACTION (one of {})", fmt::join(action_names(actions), ", ")));
    out.positional.push_back(default_action);
  }
  const std::string& word = out.positional.front();
  const ActionSpec* action = find_action(word);
  if (!action) fail_unknown(name + " action", word, action_names(actions));
  check_count(action->args, out.positional, 1, [&](const std::string& message) {
    return Error(fmt::format("{}; usage: {}", message, action_synopsis(*action)));
  });
  return out;
}

void CommandRegistry::add(CommandSpec spec) {
  if (find(spec.name)) fail("command '{}' registered twice", spec.name);
  if (!spec.actions.empty() && (!spec.args.empty() || spec.run))
    fail("command '{}' has actions: its arguments and function belong to them", spec.name);
  if (!spec.default_action.empty() && !spec.find_action(spec.default_action))
    fail("command '{}' has no action '{}' to run by default", spec.name, spec.default_action);
  commands_.push_back(std::move(spec));
}

const CommandSpec* CommandRegistry::find(std::string_view name) const {
  for (const auto& c : commands_)
    if (c.name == name) return &c;
  return nullptr;
}

const CommandSpec& CommandRegistry::get(std::string_view name) const {
  if (const CommandSpec* c = find(name)) return *c;
  std::string hint = did_you_mean(name, names());
  fail("unknown command '{}'{}", name, hint.empty() ? " (try `help`)" : hint);
}

std::vector<std::string> CommandRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& c : commands_) out.push_back(c.name);
  return out;
}

// The overview shows each command's arguments, and "[options]" for the rest; `help NAME` gives
// the options. A long synopsis takes a line of its own and summaries wrap.
std::string CommandRegistry::overview() const {
  constexpr size_t kUsageWidth = 22;
  constexpr size_t kSummaryAt = 2 + kUsageWidth + 2;
  auto usage = [](const CommandSpec& c) {
    std::string out = c.name + positional_synopsis(c);
    return c.options.empty() ? out : out + " [options]";
  };
  std::string out = "commands:\n";
  for (const auto& c : commands_) {
    std::string u = usage(c);
    std::vector<std::string> summary = wrap_words(c.summary, kHelpWidth - kSummaryAt);
    if (u.size() > kUsageWidth)
      out += fmt::format("  {}\n{:{}}{}\n", u, "", kSummaryAt, summary[0]);
    else
      out += fmt::format("  {:<{}}  {}\n", u, kUsageWidth, summary[0]);
    for (size_t i = 1; i < summary.size(); ++i)
      out += fmt::format("{:{}}{}\n", "", kSummaryAt, summary[i]);
  }
  for (const auto& line :
       wrap_words("`help COMMAND` describes a command, `help ops` lists the ops, "
                  "`help op NAME` describes one.",
                  kHelpWidth))
    out += line + "\n";
  return out;
}

std::string CommandRegistry::markdown() const {
  std::string out =
      "# Retort commands\n\n"
      "<!-- Generated by `retort help --markdown` from the command registry (app/). Do not edit:\n"
      "     a test checks that this file matches the registry. -->\n\n"
      "Every command works the same way in the console, the plain REPL (`retort --plain`),\n"
      "`retort -c \"cmd; cmd\"` and `retort --script FILE` (one command per line, `#` starts a\n"
      "comment line). Arguments are split like a shell does (quotes group words); options are\n"
      "written `--name VALUE` or `--name=VALUE`.\n\n";
  for (const auto& c : commands_)
    out += fmt::format("- [`{}`](#{}): {}\n", c.name, c.name, c.summary);
  for (const auto& c : commands_) out += "\n" + c.markdown();
  return out;
}

namespace {

// Text made safe for roff: backslashes escaped, and a line that starts with a control character
// ('.' or ''') protected by a zero-width \&.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

}  // namespace

std::string CommandRegistry::man(const std::string& usage) const {
  std::string out =
      ".TH RETORT 1 \"\" \"retort " + std::string(kRetortVersion) +
      "\" \"User Commands\"\n"
      ".SH NAME\nretort \\- a workbench for finding miscompilations in tensor compilers with "
      "equality saturation\n"
      ".SH SYNOPSIS\n.nf\n" +
      roff(usage) +
      ".fi\n"
      ".SH DESCRIPTION\n"
      "Retort loads or generates a computation graph, steps rewrite rules on its e-graph,\n"
      "extracts equivalent variants and compares them on attached compilers; campaigns\n"
      "(\\fBfuzz\\fR) hunt unattended and keep distinct, reduced findings. Every command below\n"
      "works the same way in the workbench, \\fB--plain\\fR, \\fB-c\\fR and \\fB--script\\fR.\n"
      ".SH COMMANDS\n";
  for (const auto& c : commands_) {
    out += ".TP\n.B " + roff(c.synopsis()) + "\n" + roff(c.summary) + "\n";
    for (const auto& a : c.actions)
      out += ".br\n\\fB" + roff(c.action_synopsis(a)) + "\\fR  " + roff(a.summary) + "\n";
    if (!c.help.empty()) out += ".br\n" + roff(c.help) + "\n";
    for (const auto& o : c.options)
      out += ".br\n\\fB" + roff(option_synopsis(o)) + "\\fR  " + roff(o.doc) + "\n";
  }
  out +=
      ".SH ENVIRONMENT\n"
      ".TP\n.B RETORT_SESSION_DIR\nwhere sessions and pictures go when no path is given\n"
      ".TP\n.B RETORT_STATE_DIR\nwhere the crash-safe journal is kept (default "
      "$XDG_STATE_HOME/retort)\n"
      ".TP\n.B RETORT_SCRIPTS_DIR\nthe worker scripts (default: installed beside the binary, "
      "else the source tree)\n"
      ".TP\n.B RETORT_VIEWER\na program that opens rendered pictures\n"
      ".SH SEE ALSO\n"
      "docs/commands.md, docs/tutorial.md and HACKING.md in the source tree.\n";
  return out;
}

}  // namespace retort
