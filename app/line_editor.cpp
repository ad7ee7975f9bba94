#include "app/line_editor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include <readline/history.h>
#include <readline/readline.h>

#include "app/completion.h"
#include "core/base/user_dirs.h"

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
  std::filesystem::path state = user_dir(UserDir::State);
  return state.empty() ? "" : (state / "history").string();
}

namespace {

// Earlier versions kept the history in ~/.retort_history: it moves to the state folder once,
// so that no one's history is left behind.
void move_old_history(const std::string& path) {
  namespace fs = std::filesystem;
  const char* home = std::getenv("HOME");
  if (!home || !*home || std::getenv("RETORT_HISTORY")) return;
  fs::path old = fs::path(home) / ".retort_history";
  std::error_code ec;
  if (!fs::exists(old, ec) || fs::exists(path, ec)) return;
  fs::create_directories(fs::path(path).parent_path(), ec);
  fs::rename(old, path, ec);
}

}  // namespace

LineEditor::LineEditor(Shell& shell) : history_(history_path()) {
  g_shell = &shell;
  rl_readline_name = "retort";
  rl_attempted_completion_function = complete;
  if (!history_.empty()) {
    move_old_history(history_);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(history_).parent_path(), ec);
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
