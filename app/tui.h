// The curses workbench as a front end: readline's callback interface edits the command line
// (same completion and history as the console), commands run on a worker thread while the
// screen keeps drawing, and Ctrl-C cancels a running saturation.
#pragma once

#include <optional>
#include <string>

#include "core/session/session.h"

namespace retort {

// The workbench's prompt; the log shows it before every command line.
inline constexpr const char* kTuiPrompt = "retort> ";

// Runs the workbench until `quit` or Ctrl-D; `first_line` (e.g. the `load` of the file named on
// the command line) runs first. `log_before` starts the log: what was printed before the
// workbench started (a restored session's commands, each after the prompt, and their output).
// Returns the exit status (0).
int run_tui(Session& session, const std::optional<std::string>& first_line,
            const std::string& log_before = "");

}  // namespace retort
