// The command registry: every user action is a command with a name, arguments, help text and a
// completion kind per argument. The console, the plain REPL, `-c`, `--script`, the generated
// docs/commands.md and tab completion all read this one table.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/output.h"
#include "core/base/option_number.h"
#include "core/session/session.h"

namespace retort {

// What tab completion offers for an argument.
enum class Completion {
  None,
  Command,
  FilePath,
  NodeName,
  OpName,
  VariantName,
  RuleName,
  BackendName,  // attached backends, `all`, families, FAMILY@VERSION releases
  FamilyName,
  Release  // FAMILY@ then its installed releases and those the registry offers (cached)
};

struct ArgSpec {
  std::string name;  // shown in the synopsis: FILE, NAME
  Completion completion = Completion::None;
  bool optional = false;
  bool repeated = false;             // the last argument only: takes every remaining word
  std::vector<std::string> words{};  // fixed words offered too (modes, keywords)
};

struct OptionSpec {
  std::string name;        // "--seed"
  std::string value_name;  // "S"; empty for a flag that takes no value
  std::string doc;
  Completion completion = Completion::None;  // for the value
};

// A command's arguments after parsing against its spec.
struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // "--seed" -> "3"; a flag maps to ""
  std::string raw;                             // the text after the name, for raw_text commands

  bool has(const std::string& option) const { return options.count(option) > 0; }
  std::optional<std::string> option(const std::string& option) const;
  // The i-th positional argument, or null when it was not given.
  const std::string* arg(size_t i) const {
    return i < positional.size() ? &positional[i] : nullptr;
  }
};

using CommandFn = std::function<void(Session&, const Args&, Output&)>;

// One action of a command with subcommands (`findings show N`). The command's first argument
// names it; dispatch, the errors for a wrong or missing word, help, completion, the man page and
// docs/commands.md all come from this declaration.
struct ActionSpec {
  std::string name{};
  std::vector<ArgSpec> args{};  // after the action's name
  std::string summary{};        // what it does, for help (may run over lines)
  CommandFn run{};              // called with the action's name still at positional[0]
};

struct CommandSpec {
  std::string name{};
  std::vector<ArgSpec> args{};
  std::vector<OptionSpec> options{};
  std::string summary{};  // one line, for `help`
  std::string help{};     // the rest of the description (may be empty), for `help NAME`
  CommandFn run{};        // for a command without actions
  // Subcommands, in the order help lists them; `args` is then empty.
  std::vector<ActionSpec> actions{};
  // The action run when none is named (`findings` lists); empty: an action must be named.
  std::string default_action{};
  // The argument is source text taken verbatim after the name (`def`), not split into words.
  bool raw_text = false;
  // Ends the session after it runs (`quit`).
  bool ends_session = false;
  // Restoring a killed session re-runs it (see Session::record); false for commands that only
  // write files (render, save, export, history) or run other commands (replay: the commands it
  // ran are journaled themselves).
  bool restorable = true;

  std::string synopsis() const;   // "eval [NAME] [--seed S]"
  std::string help_text() const;  // synopsis, summary, help and options, for `help NAME`
  // One action's synopsis, summary and the command's options, for `help NAME ACTION` and
  // `NAME ACTION --help`.
  std::string action_help_text(const ActionSpec& action) const;
  // The help that the words after the name ask for: the action's when they start with one,
  // else the command's.
  std::string help_for(std::string_view rest) const;
  std::string markdown() const;  // the section of docs/commands.md
  // Parses the text after the name (split into words unless raw_text); throws Error with the
  // usage on bad arguments.
  Args parse(std::string_view rest) const;
  // Whether the words after the name ask for this command's help (`fuzz --help`, `findings show
  // -h`): --help or -h before any `--`, unless the command takes raw text or declares the option.
  bool asks_for_help(std::string_view rest) const;
  const OptionSpec* find_option(std::string_view option) const;
  const ActionSpec* find_action(std::string_view action) const;
  // Runs the command: its action's function when it has actions (parse checked the name).
  void invoke(Session& session, const Args& args, Output& out) const;
  std::string action_synopsis(const ActionSpec& action) const;  // "findings show N"
};

class CommandRegistry {
 public:
  void add(CommandSpec spec);  // a duplicate name is a programming error and throws
  const CommandSpec* find(std::string_view name) const;
  // Throws Error("unknown command ...") with close-match suggestions.
  const CommandSpec& get(std::string_view name) const;
  std::vector<std::string> names() const;  // in registration order
  const std::vector<CommandSpec>& all() const { return commands_; }

  std::string overview() const;  // `help` without arguments
  std::string markdown() const;  // docs/commands.md
  // The man page retort(1) in roff: `usage` (the command line's options), then every command
  // as the registry describes it. `cmake --install` installs it.
  std::string man(const std::string& usage) const;

 private:
  std::vector<CommandSpec> commands_;
};

}  // namespace retort
