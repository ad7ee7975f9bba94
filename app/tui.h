// The curses workbench as a front end: readline's callback interface edits the command line
// (same completion and history as the console), commands run on a worker thread while the
// screen keeps drawing, and Ctrl-C cancels a running saturation.
#pragma once

#include <optional>
#include <string>

#include "core/session/session.h"

namespace retort {

// Runs the workbench until `quit` or Ctrl-D; `first_line` (e.g. the `load` of the file named on
// the command line) runs first. Returns the exit status (0).
int run_tui(Session& session, const std::optional<std::string>& first_line);

}  // namespace retort
