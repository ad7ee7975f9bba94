#include "app/cli.h"

#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/batch.h"
#include "app/commands.h"
#include "app/console.h"
#include "app/shell.h"
#include "app/tui.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/user_dirs.h"
#include "core/base/version.h"
#include "core/session/journal.h"

namespace retort {

namespace {

// Quotes a word so that split_words gives it back unchanged.
std::string quote_word(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\r\n'\"\\;#") == std::string::npos) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command line of a one-shot command; a raw-text command (def) gets its words as typed.
std::string one_shot_line(const std::vector<std::string>& words) {
  const CommandSpec* command = app_commands().find(words.front());
  std::vector<std::string> parts{words.front()};
  for (size_t i = 1; i < words.size(); ++i)
    parts.push_back(command && command->raw_text ? words[i] : quote_word(words[i]));
  return fmt::format("{}", fmt::join(parts, " "));
}

bool is_batch(const CliOptions& o) {
  return o.commands || o.script || !o.command_words.empty();
}

// A workbench killed with SIGKILL leaves the terminal as curses set it: no echo, no line editing,
// Enter sending \r, the cursor hidden. The question needs an ordinary terminal back.
void sane_terminal() {
  termios t{};
  if (tcgetattr(STDIN_FILENO, &t) != 0) return;
  t.c_iflag |= ICRNL;
  t.c_iflag &= ~static_cast<tcflag_t>(INLCR | IGNCR);
  t.c_oflag |= OPOST | ONLCR;
  t.c_lflag |= ICANON | ECHO | ECHOE | ISIG | IEXTEN;
  tcsetattr(STDIN_FILENO, TCSANOW, &t);
  std::fputs("\x1b[?25h", stdout);  // show the cursor
}

// Asks on the terminal; anything but y or yes is no.
bool ask_restore(size_t commands) {
  sane_terminal();
  std::fprintf(stdout, "restore the previous session (%zu commands)? [y/N] ", commands);
  std::fflush(stdout);
  char answer[16] = {};
  if (!std::fgets(answer, sizeof answer, stdin)) return false;
  std::string a(answer);
  while (!a.empty() && (a.back() == '\n' || a.back() == '\r' || a.back() == ' ')) a.pop_back();
  return a == "y" || a == "Y" || a == "yes";
}

// What a restored session holds, so that a person sees at once that the work came back.
std::string restored_state(const Session& s) {
  if (!s.has_graph()) return "no graph";
  std::string out = fmt::format("graph: {} nodes, {} inputs, {} outputs", s.graph().nodes.size(),
                                s.graph().inputs.size(), s.graph().outputs.size());
  if (s.has_egraph())
    out +=
        fmt::format("; e-graph: {} e-classes, {} e-nodes, {} rewrites", s.egraph().eg.class_count(),
                    s.egraph().eg.node_count(), s.egraph().trace.steps.size());
  std::vector<std::string> names = s.variant_names();
  if (!names.empty()) out += fmt::format("; variants: {}", fmt::join(names, ", "));
  return out;
}

// The interactive front ends journal every command (core/session/journal.h). An unfinished
// journal from a killed session is restored when asked (--restore, or yes at the console's
// prompt) by running its commands again; otherwise it is kept as journal.previous.jsonl, and a
// new journal starts.
// `replay_log`, when set, gets every restored command and what it printed (the workbench's log).
void start_journal(Session& session, Shell& shell, const CliOptions& options, bool console,
                   Output& out, Output& err, ProgressView* progress, Output* replay_log) {
  std::string path = journal_path();
  if (path.empty()) return;
  std::optional<UnfinishedJournal> pending;
  try {
    pending = read_unfinished_journal(path);
  } catch (const Error& e) {
    err.print("warning: the previous session's journal is unreadable ({}); not restoring it",
              e.what());
  }
  std::vector<std::string> lines;
  if (pending) lines = pending->restorable();
  bool restore = pending && (options.restore || (console && ask_restore(lines.size())));
  if (pending && !restore) {
    std::error_code ec;
    std::string previous =
        (std::filesystem::path(path).parent_path() / "journal.previous.jsonl").string();
    std::filesystem::rename(path, previous, ec);
    if (!ec)
      err.print("note: the previous session did not end cleanly; its journal is kept as {}",
                previous);
  } else if (options.restore && !pending) {
    out.line("nothing to restore: the previous session ended cleanly");
  }
  if (restore) session.set_seed(pending->seed);
  try {
    session.attach_journal(JournalFile::create(path, session.seed()));
  } catch (const Error& e) {
    err.print("warning: {}; this session is not journaled", e.what());
  }
  if (!restore) return;
  StringOutput replayed;
  Shell replaying(session, shell.commands(), replayed, replayed);
  size_t failed = 0;
  // A long journal (a saturation, a campaign) takes seconds to replay: say where it is.
  if (progress) progress->begin("restore");
  for (size_t i = 0; i < lines.size(); ++i) {
    if (progress) progress->progress(fmt::format("commands: {:.50}", lines[i]), i, lines.size());
    replayed.clear();
    failed += replaying.run(lines[i]) == LineStatus::Failed;
    if (replay_log)
      replay_log->write(fmt::format("{}{}\n{}", kTuiPrompt, lines[i], replayed.text()));
  }
  if (progress) progress->end();
  out.print("restored {} commands from {}{}", lines.size(), path,
            failed ? fmt::format(" ({} failed)", failed) : "");
  out.line(restored_state(session));
}

}  // namespace

std::string journal_path() {
  namespace fs = std::filesystem;
  if (const char* dir = std::getenv("RETORT_STATE_DIR"); dir && *dir)
    return (fs::path(dir) / "journal.jsonl").string();
  fs::path state = user_dir(UserDir::State);
  return state.empty() ? "" : (state / "journal.jsonl").string();
}

std::string cli_usage() {
  return "usage: retort [FILE] [--seed N] [--restore] [--quiet]\n"
         "              [--plain | -c \"CMD; CMD\" | --script FILE]\n"
         "       retort COMMAND [ARGS...]\n"
         "\n"
         "Starts the workbench (panes, see docs/tui.md), loading FILE (.rtg, .json, .onnx) first\n"
         "when given.\n"
         "  --plain          a line-by-line console instead of the workbench (also chosen\n"
         "                   when standard input or output is not a terminal)\n"
         "  -c \"CMD; CMD\"    run the commands and exit; stops at the first failure\n"
         "  --script FILE    run FILE, one command per line ('#' comments); stops at the first "
         "failure\n"
         "  --seed N         the session seed (default 1)\n"
         "  --quiet, -q      no progress lines (a long command otherwise redraws one in place on\n"
         "                   a terminal, or prints one to standard error every 10 s)\n"
         "  --version        print Retort's version and exit (`backend list`: the compilers')\n"
         "  --restore        restore the previous session if it did not end cleanly (the\n"
         "                   console offers this itself; see docs/formats.md, journal)\n"
         "  COMMAND ARGS     run one command and exit, e.g. `retort help --markdown`\n"
         "Commands are described by `help` inside the workbench and in docs/commands.md.\n";
}

CliOptions parse_cli(const std::vector<std::string>& argv) {
  CliOptions o;
  auto value_of = [&](size_t& i) -> const std::string& {
    if (i + 1 >= argv.size()) fail("{} needs a value", argv[i]);
    return argv[++i];
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--help" || a == "-h") {
      o.usage = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--plain") {
      o.plain = true;
    } else if (a == "--restore") {
      o.restore = true;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "-c") {
      o.commands = value_of(i);
    } else if (a == "--script") {
      o.script = value_of(i);
    } else if (a == "--seed") {
      o.seed = parse_u64(value_of(i), "--seed");
    } else if (a.starts_with("-") && a.size() > 1) {
      fail("unknown option {}{}", a,
           did_you_mean(a, {"--help", "--version", "--plain", "--restore", "--quiet", "--seed",
                            "--script"}));
    } else if (!o.file && app_commands().find(a)) {
      o.command_words.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
      break;
    } else if (!o.file) {
      o.file = a;
    } else {
      fail("more than one file to load: {} and {}", *o.file, a);
    }
  }
  int batch_modes = (o.commands ? 1 : 0) + (o.script ? 1 : 0) + (o.command_words.empty() ? 0 : 1);
  if (batch_modes > 1) fail("use only one of -c, --script and a command");
  if (o.plain && batch_modes > 0)
    fail("--plain reads standard input; it does not combine with -c, --script or a command");
  if (o.restore && batch_modes > 0)
    fail("--restore goes with the console or --plain, not with -c, --script or a command");
  return o;
}

int run_cli(int argc, char** argv) {
  StreamOutput out(stdout), err(stderr);
  CliOptions options;
  try {
    options = parse_cli(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const Error& e) {
    err.print("retort: {}", e.what());
    err.write(cli_usage());
    return kExitUsage;
  }
  if (options.usage) {
    out.write(cli_usage());
    return kExitOk;
  }
  if (options.version) {
    out.print("retort {}", kRetortVersion);
    return kExitOk;
  }

  Session session(options.seed.value_or(kDefaultSeed));
  ProgressLine progress_line(stderr, isatty(STDERR_FILENO));
  ProgressView* progress = options.quiet ? nullptr : &progress_line;
  Shell shell(session, app_commands(), out, err, progress);
  bool batch = is_batch(options);
  bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  bool workbench = !batch && terminal && !options.plain;
  // What the workbench's start prints (a restore: its commands and their output) is kept for its
  // log; printed before curses takes the screen, it would be lost.
  StringOutput before_workbench;
  if (workbench)
    start_journal(session, shell, options, true, before_workbench, before_workbench, progress,
                  &before_workbench);
  else if (!batch)
    start_journal(session, shell, options, false, out, err, progress, nullptr);
  if (workbench) {
    // The workbench loads the file itself, so that what `load` prints lands in its log.
    int status = run_tui(
        session, options.file ? std::optional("load " + quote_word(*options.file)) : std::nullopt,
        before_workbench.text());
    if (JournalFile* journal = session.journal_file()) journal->finish();
    return status;
  }

  if (options.file) {
    LineStatus loaded = shell.run("load " + quote_word(*options.file));
    if (loaded == LineStatus::Failed && (batch || !terminal)) return kExitCommandFailed;
  }
  if (options.commands) return run_command_string(shell, *options.commands);
  if (options.script) return run_script(shell, *options.script, err);
  if (!options.command_words.empty())
    return shell.run(one_shot_line(options.command_words)) == LineStatus::Failed
               ? kExitCommandFailed
               : kExitOk;
  int status = terminal ? run_console(shell) : run_plain(shell, stdin, out, !isatty(STDIN_FILENO));
  // Reaching here is a clean end (quit or end of input): no restore will be offered.
  if (JournalFile* journal = session.journal_file()) journal->finish();
  return status;
}

}  // namespace retort
