// The line console: GNU readline with persistent history and tab completion (app/line_editor.h),
// for `--plain` on a terminal. It only reads lines and hands them to the Shell; the curses
// workbench (app/tui.h) is the other interactive front end.
#pragma once

#include "app/shell.h"

namespace retort {

// Reads commands with readline until `quit` or end of input. Returns the exit status (0).
int run_console(Shell& shell);

}  // namespace retort
