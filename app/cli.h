// The `retort` command line: which front end to start, with which seed and start-up file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace retort {

struct CliOptions {
  bool plain = false;
  bool usage = false;                      // --help
  bool version = false;                    // --version
  bool restore = false;                    // --restore: restore an unfinished session
  bool quiet = false;                      // --quiet: no progress lines
  std::optional<uint64_t> seed;            // --seed N
  std::optional<std::string> commands;     // -c "cmd; cmd"
  std::optional<std::string> script;       // --script FILE
  std::optional<std::string> file;         // a graph to load at start
  std::vector<std::string> command_words;  // `retort COMMAND ARGS...`: one command, then exit
};

// Parses argv (without the program name); throws Error on a bad command line. A first
// positional argument that names a command starts a one-shot command taking all the rest.
CliOptions parse_cli(const std::vector<std::string>& argv);

std::string cli_usage();

// The journal of the interactive front ends: $RETORT_STATE_DIR/journal.jsonl, else
// $XDG_STATE_HOME/retort/journal.jsonl, else ~/.local/state/retort/journal.jsonl; empty when
// none of these is set.
std::string journal_path();

// The whole program: returns the exit status.
int run_cli(int argc, char** argv);

}  // namespace retort
