// Session files and command lists: save, open, history, replay.
#include <fstream>

#include <fmt/format.h>

#include "app/command_line.h"
#include "app/commands.h"
#include "app/consent.h"
#include "app/shell.h"
#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/io/graph_files.h"
#include "core/session/session_file.h"

namespace retort {

namespace {

// Replays nest (a command list may replay another); this stops a list that replays itself.
constexpr int kMaxReplayDepth = 8;
int g_replay_depth = 0;

void run_save(Session& s, const Args& args, Output& out) {
  const std::string& path = *args.arg(0);
  save_session_file(s, path, args.has("--force"));
  out.print("saved the session to {}", path);
}

void run_open(Session& s, const Args& args, Output& out) {
  const std::string& path = *args.arg(0);
  // Loaded into a fresh session and swapped in only when everything loaded and replayed.
  Session fresh;
  std::vector<std::string> warnings = load_session_file(fresh, path);
  // Its attached backends come untrusted (core/session/session_file.h): say what they would run.
  std::vector<BackendSpec> commands = fresh.backends().untrusted();
  bool trusted =
      !commands.empty() && consent_to_commands(commands, "session file " + terminal_name(path),
                                               args.has("--trust"), out);
  if (trusted)
    for (const BackendSpec& b : commands) fresh.backends().trust(b.name);
  else if (!commands.empty())
    out.print("they run only once trusted: `open {} --trust`", shell_word(path));
  s.adopt(std::move(fresh));
  for (const auto& w : warnings) out.print("warning: {}", terminal_name(w));  // the file's names
  std::string egraph = s.has_egraph()
                           ? fmt::format("e-graph {} e-classes, {} e-nodes, {} rewrites",
                                         s.egraph().eg.class_count(), s.egraph().eg.node_count(),
                                         s.egraph().trace.steps.size())
                           : "no e-graph";
  out.print("opened {}: {}, {}, {} variants, seed {}", terminal_name(path),
            s.has_graph() ? "graph " + s.graph().name : "no graph", egraph, s.variants().size(),
            s.seed());
}

// The commands a saved list replays: those that succeeded, without the ones that only read the
// journal or run other commands (whose commands are in the list themselves).
std::vector<std::string> replayable(const Session& s) {
  std::vector<std::string> lines;
  for (const JournalEntry& e : s.journal()) {
    std::string head = split_head(e.command).head;
    if (e.ok && head != "history" && head != "replay" && head != "quit") lines.push_back(e.command);
  }
  return lines;
}

void list_history(Session& s, const Args&, Output& out) {
  size_t k = 0;
  for (const JournalEntry& e : s.journal())
    out.print("{:>4}  {}{}", ++k, e.command, e.ok ? "" : "   (failed)");
}

void save_history(Session& s, const Args& args, Output& out) {
  const std::string* path = args.arg(1);
  std::string text = "# retort command list (`replay FILE` runs it)\n";
  std::vector<std::string> lines = replayable(s);
  for (const auto& line : lines) text += line + "\n";
  write_file(*path, text, args.has("--force"));
  out.print("wrote {} commands to {}", lines.size(), *path);
}

// The workbench's log, which only it keeps.
OutputLog& workbench_log(Output& out) {
  OutputLog* log = out.log();
  if (!log)
    fail(
        "`log` works in the workbench, whose log pane keeps the commands' output; here the "
        "terminal keeps it");
  return *log;
}

void clear_log(Session&, const Args&, Output& out) {
  workbench_log(out).clear();
}

void save_log(Session&, const Args& args, Output& out) {
  const std::string* path = args.arg(1);
  std::vector<std::string> lines = workbench_log(out).output_lines();
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  write_file(*path, text, args.has("--force"));
  out.print("saved {} log lines to {}", lines.size(), *path);
}

void run_replay(Session& s, const Args& args, Output& out) {
  const std::string& path = *args.arg(0);
  bool keep_going = args.has("--keep-going");
  if (g_replay_depth >= kMaxReplayDepth)
    fail("replay {}: command lists nest more than {} deep", path, kMaxReplayDepth);
  std::ifstream file(path);
  if (!file) fail("cannot read command list {}", path);
  ++g_replay_depth;
  struct Leave {
    ~Leave() { --g_replay_depth; }
  } leave;
  StringOutput errors;
  Shell shell(s, app_commands(), out, errors);
  size_t run = 0, failed = 0;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    std::string where = fmt::format("{}:{}", path, number);
    errors.clear();
    LineStatus status = shell.run(line, where);
    if (!trim_blanks(line).empty() && trim_blanks(line).front() != '#') ++run;
    if (status == LineStatus::Quit) break;
    if (status != LineStatus::Failed) continue;
    ++failed;
    std::string message = errors.text();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    if (!keep_going) {
      // "FILE:LINE: error: ..." as the shell printed it, without its own "error: ".
      size_t cut = message.find(": error: ");
      if (cut != std::string::npos) message.erase(cut + 2, 7);
      throw Error(message);
    }
    out.line(message);
  }
  if (failed) fail("replay {}: {} of {} commands failed", path, failed, run);
  out.print("replayed {} commands from {}", run, path);
}

}  // namespace

void register_session_commands(CommandRegistry& r) {
  r.add({.name = "save",
         .args = {{"FILE", Completion::FilePath}},
         .options = {{"--force", "", "replace FILE if it exists"}},
         .summary = "Save the session (graph, rules, e-graph trace, variants) to a file.",
         .help = "The session file is JSON (docs/formats.md): the graph, the rule sets with their\n"
                 "text and which rules are disabled, the seed, the e-graph's start graph and\n"
                 "rewrite trace, and each variant with how it was extracted. `open FILE` replays\n"
                 "it. An existing file is never replaced unless --force is given.",
         .run = run_save,
         .restorable = false});
  r.add({.name = "open",
         .args = {{"FILE", Completion::FilePath}},
         .options = {{"--trust", "", "run the worker commands of the file's attached backends"}},
         .summary = "Open a saved session, replacing the current one.",
         .help = "Replays the rewrite trace to the same e-graph and extracts the variants again;\n"
                 "a variant that comes out different from the saved graph is reported (the new\n"
                 "one is kept). A bad file leaves the current session untouched.\n"
                 "A session file is data: the commands of the backends it attaches are shown,\n"
                 "and run only when the console's question is answered yes or with --trust;\n"
                 "until then using such a backend is an error that shows its command.",
         .run = run_open});
  r.add(
      {.name = "history",
       .options = {{"--force", "", "replace FILE if it exists"}},
       .summary = "List the commands of this session, or save them as a command list.",
       .actions = {{"list", {}, "Every command run so far, marking the failed ones.", list_history},
                   {"save",
                    {{"FILE", Completion::FilePath}},
                    "Writes the commands that succeeded (without history and replay\n"
                    "themselves), one per line, for `replay FILE`.",
                    save_history}},
       .default_action = "list",
       .restorable = false});
  r.add({.name = "log",
         .options = {{"--force", "", "replace FILE if it exists"}},
         .summary = "Save the workbench's log (the commands' output) to a file, or clear it.",
         .help = "Only the workbench keeps a log: in a terminal the scrollback has it.",
         .actions = {{"save",
                      {{"FILE", Completion::FilePath}},
                      "Writes what the commands printed, output and errors, without the command\n"
                      "lines.",
                      save_log},
                     {"clear", {}, "Empties the log pane.", clear_log}},
         .restorable = false});
  r.add({.name = "replay",
         .args = {{"FILE", Completion::FilePath}},
         .options = {{"--keep-going", "", "run the remaining commands after a failure"}},
         .summary = "Run a saved command list (one command per line, '#' comments).",
         .help = "Stops at the first failing command and reports it as FILE:LINE, unless\n"
                 "--keep-going is given; then every failure is reported and the replay fails at\n"
                 "the end if any command did.",
         .run = run_replay,
         .restorable = false});
}

}  // namespace retort
