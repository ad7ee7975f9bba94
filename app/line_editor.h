// The readline set-up the console and the workbench share: tab completion from the command
// registry and the persistent history file, so that editing behaves the same in both.
#pragma once

#include <string>

#include "app/shell.h"

namespace retort {

// $RETORT_HISTORY, else the state folder's `history` (core/base/user_dirs.h; empty when neither
// can be determined). An old ~/.retort_history is moved there when the editor starts.
std::string history_path();

// Installs completion for `shell` and loads the history; the destructor trims the history file.
// One at a time (readline's state is global).
class LineEditor {
 public:
  explicit LineEditor(Shell& shell);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // Adds a line to the history (not blank lines) and appends it to the file at once, so that
  // history survives a session that is killed.
  void remember(const std::string& line);

 private:
  std::string history_;
};

}  // namespace retort
