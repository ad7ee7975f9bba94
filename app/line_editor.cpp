#include "app/line_editor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include <readline/history.h>
#include <readline/readline.h>

#include "app/completion.h"

namespace retort {

namespace {

constexpr int kHistoryLines = 2000;

// readline's callbacks are plain C functions; they reach the shell through this pointer, set
// while a LineEditor exists.
Shell* g_shell = nullptr;
std::vector<std::string> g_candidates;

char* next_candidate(const char*, int state) {
  static size_t next = 0;
  if (state == 0) next = 0;
  if (next >= g_candidates.size()) return nullptr;
  return strdup(g_candidates[next++].c_str());
}

char** complete(const char* text, int start, int) {
  std::string_view before(rl_line_buffer, static_cast<size_t>(start));
  CompletionResult result = complete_word(g_shell->commands(), g_shell->session(), before, text);
  if (result.file_path) {
    rl_attempted_completion_over = 0;  // readline's own file name completion
    return nullptr;
  }
  rl_attempted_completion_over = 1;
  g_candidates = std::move(result.candidates);
  return rl_completion_matches(text, next_candidate);
}

}  // namespace

std::string history_path() {
  if (const char* path = std::getenv("RETORT_HISTORY"); path && *path) return path;
  if (const char* home = std::getenv("HOME"); home && *home)
    return (std::filesystem::path(home) / ".retort_history").string();
  return "";
}

LineEditor::LineEditor(Shell& shell) : history_(history_path()) {
  g_shell = &shell;
  rl_readline_name = "retort";
  rl_attempted_completion_function = complete;
  if (!history_.empty()) {
    read_history(history_.c_str());
    // append_history needs the file to exist; write_history creates it.
    if (!std::filesystem::exists(history_)) write_history(history_.c_str());
  }
}

LineEditor::~LineEditor() {
  if (!history_.empty()) history_truncate_file(history_.c_str(), kHistoryLines);
  g_shell = nullptr;
}

void LineEditor::remember(const std::string& line) {
  if (line.find_first_not_of(" \t") == std::string::npos) return;
  add_history(line.c_str());
  if (!history_.empty()) append_history(1, history_.c_str());
}

}  // namespace retort
