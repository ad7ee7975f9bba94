#include "app/console.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <readline/history.h>
#include <readline/readline.h>

#include "app/completion.h"

namespace retort {

namespace {

constexpr int kHistoryLines = 2000;

// readline's callbacks are plain C functions; they reach the shell through this pointer, set
// for the duration of run_console.
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

int run_console(Shell& shell) {
  g_shell = &shell;
  rl_readline_name = "retort";
  rl_attempted_completion_function = complete;
  std::string history = history_path();
  if (!history.empty()) {
    read_history(history.c_str());
    // append_history needs the file to exist; write_history creates it.
    if (!std::filesystem::exists(history)) write_history(history.c_str());
  }
  while (true) {
    char* raw = readline("retort> ");
    if (!raw) {
      std::fputc('\n', stdout);  // end of input: leave the terminal on a fresh line
      break;
    }
    std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    add_history(line.c_str());
    // Saved line by line so that history survives a session that is killed.
    if (!history.empty()) append_history(1, history.c_str());
    if (shell.run(line) == LineStatus::Quit) break;
  }
  if (!history.empty()) history_truncate_file(history.c_str(), kHistoryLines);
  g_shell = nullptr;
  return 0;
}

}  // namespace retort
