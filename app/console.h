// The interactive console: GNU readline with persistent history and tab completion. It only
// reads lines and hands them to the Shell, so another front end (curses panes) can replace the
// loop without touching command execution.
#pragma once

#include <string>

#include "app/shell.h"

namespace retort {

// $RETORT_HISTORY, else ~/.retort_history (empty when neither can be determined).
std::string history_path();

// Reads commands with readline until `quit` or end of input. Returns the exit status (0).
int run_console(Shell& shell);

}  // namespace retort
