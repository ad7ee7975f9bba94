#include "app/tui.h"

#include <readline/readline.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

#define NCURSES_NOMACROS 1
#include <curses.h>
#include <fmt/format.h>

#include "app/commands.h"
#include "app/line_editor.h"
#include "app/progress_line.h"
#include "app/shell.h"
#include "views/workbench.h"

namespace retort {

namespace {

constexpr const char* kPrompt = kTuiPrompt;
constexpr int kCtrlC = 3;

// The log pane's buffer as `log save` and `log clear` see it.
class KeptLog : public OutputLog {
 public:
  explicit KeptLog(LogBuffer& log) : log_(log) {}
  std::vector<std::string> output_lines() const override {
    std::vector<std::string> lines;
    for (const auto& l : log_.lines())
      if (l.style == Style::Plain || l.style == Style::Error) lines.push_back(l.text);
    return lines;
  }
  void clear() override { log_.clear(); }

 private:
  LogBuffer& log_;
};

// Command output into the log pane (written from the command thread).
class LogOutput : public Output {
 public:
  LogOutput(KeptLog& kept, LogBuffer& log, Style style) : kept_(kept), log_(log), style_(style) {}
  void write(std::string_view text) override { log_.append(text, style_); }
  OutputLog* log() override { return &kept_; }

 private:
  KeptLog& kept_;
  LogBuffer& log_;
  Style style_;
};

// The running command's progress for the status bar (set from the command thread, read by the
// screen thread); live lines go to the log at once.
class StatusProgress : public ProgressView {
 public:
  explicit StatusProgress(LogBuffer& log) : log_(log) {}
  void begin(std::string_view command) override {
    std::lock_guard lock(mutex_);
    command_ = command;
    text_.clear();
    started_ = std::chrono::steady_clock::now();
  }
  void end() override {
    std::lock_guard lock(mutex_);
    text_.clear();
  }
  void write(std::string_view text) override { log_.append(text, Style::Plain); }
  void progress(std::string_view status, uint64_t done, uint64_t total) override {
    std::lock_guard lock(mutex_);
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    text_ = progress_text(command_, status, done, total, elapsed);
  }
  std::string text() const {
    std::lock_guard lock(mutex_);
    return text_;
  }

 private:
  LogBuffer& log_;
  mutable std::mutex mutex_;
  std::string command_, text_;
  std::chrono::steady_clock::time_point started_;
};

// The bytes readline expects for a terminal key (readline binds the ANSI sequences).
std::string key_bytes(int key) {
  switch (key) {
    case KEY_UP:
      return "\033[A";
    case KEY_DOWN:
      return "\033[B";
    case KEY_RIGHT:
      return "\033[C";
    case KEY_LEFT:
      return "\033[D";
    case KEY_HOME:
      return "\033[H";
    case KEY_END:
      return "\033[F";
    case KEY_DC:
      return "\033[3~";
    case KEY_BACKSPACE:
      return "\x7f";
    case KEY_ENTER:
      return "\r";
    default:
      break;
  }
  if (key >= 0 && key < 256) return std::string(1, static_cast<char>(key));
  return "";
}

class Tui;
Tui* g_tui = nullptr;  // for readline's C callbacks

// readline reads the terminal description (tgetent) when it initialises; done before curses
// starts, it cannot replace the terminal curses set up. It never touches the terminal itself:
// the workbench feeds it keys and draws its line.
bool init_readline() {
  rl_catch_signals = 0;
  rl_catch_sigwinch = 0;
  rl_change_environment = 0;
  rl_prep_term_function = [](int) {};
  rl_deprep_term_function = [] {};
  rl_initialize();
  return true;
}

class Tui {
 public:
  Tui(Session& session, const std::string& log_before)
      : readline_ready_(init_readline()),
        session_(session),
        kept_(bench_.log()),
        out_(kept_, bench_.log(), Style::Plain),
        err_(kept_, bench_.log(), Style::Error),
        progress_(bench_.log()),
        shell_(session, app_commands(), out_, err_, &progress_),
        editor_(shell_) {
    g_tui = this;
    for (std::string_view rest = log_before; !rest.empty();) {
      size_t end = std::min(rest.find('\n'), rest.size() - 1);
      std::string_view line = rest.substr(0, end + 1);
      bench_.log().append(line, line.starts_with(kPrompt) ? Style::Title : Style::Plain);
      rest.remove_prefix(end + 1);
    }
    devnull_ = std::fopen("/dev/null", "w");
    rl_getc_function = [](FILE*) { return g_tui->next_byte(); };
    rl_input_available_hook = [] { return g_tui->input_.empty() ? 0 : 1; };
    rl_redisplay_function = [] {
      g_tui->bench_.set_command_line(rl_display_prompt ? rl_display_prompt : "",
                                     rl_line_buffer ? rl_line_buffer : "",
                                     static_cast<size_t>(std::max(0, rl_point)));
    };
    rl_completion_display_matches_hook = [](char** matches, int count, int) {
      std::string list;
      for (int i = 1; i <= count; ++i) list += fmt::format("{}{}", i > 1 ? "  " : "", matches[i]);
      g_tui->bench_.log().append("completions: " + list + "\n", Style::Dim);
    };
    if (devnull_) rl_outstream = devnull_;
    rl_callback_handler_install(kPrompt, [](char* line) { g_tui->on_line(line); });
  }

  ~Tui() {
    rl_callback_handler_remove();
    rl_outstream = stdout;
    if (devnull_) std::fclose(devnull_);
    g_tui = nullptr;
  }
  Tui(const Tui&) = delete;
  Tui& operator=(const Tui&) = delete;

  int run(const std::optional<std::string>& first_line) {
    if (first_line) start(*first_line);
    while (!quit_) {
      if (running_ && done_) finish();
      while (!running_ && !quit_ && !input_.empty()) rl_callback_read_char();
      if (quit_) break;
      bench_.update(session_, !running_);
      bench_.set_status(status_text(), running_);
      bench_.draw();
      int key = bench_.read_key(running_ ? 50 : 1000);
      // Take every key that is waiting, so that readline gets a multi-byte character whole.
      for (; key != ERR; key = bench_.read_key(0)) handle_key(key);
    }
    if (running_) {
      session_.cancel_flag().store(true);
      worker_.join();
    }
    return 0;
  }

 private:
  int next_byte() {
    if (input_.empty()) return 0;  // not reached: readline is fed only while bytes wait
    unsigned char c = static_cast<unsigned char>(input_.front());
    input_.pop_front();
    return c;
  }

  void on_line(char* raw) {
    if (!raw) {  // Ctrl-D on an empty line
      quit_ = true;
      return;
    }
    std::string line(raw);
    std::free(raw);
    editor_.remember(line);
    start(line);
  }

  void handle_key(int key) {
    if (key == kCtrlC) {
      if (running_) {
        session_.cancel_flag().store(true);
        cancel_requested_ = true;
      } else {
        input_.clear();
        rl_replace_line("", 0);
        rl_point = 0;
        rl_forced_update_display();
      }
      return;
    }
    if (bench_.handle_key(key)) return;
    for (char c : key_bytes(key)) input_.push_back(c);
  }

  void start(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    bench_.log().append(fmt::format("{}{}\n", kPrompt, line), Style::Title);
    running_line_ = line;
    cancel_requested_ = false;
    progress_before_ = session_.progress_nodes().load();
    started_ = std::chrono::steady_clock::now();
    done_ = false;
    running_ = true;
    worker_ = std::thread([this, line] {
      status_ = shell_.run(line);
      last_seconds_ = seconds_since_start();
      done_ = true;  // publishes status_ and last_seconds_ to the screen thread
    });
  }

  void finish() {
    worker_.join();
    running_ = false;
    last_status_ = status_;
    if (status_ == LineStatus::Quit) quit_ = true;
  }

  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  std::string status_text() const {
    if (running_) {
      static const char* const spin = "|/-\\";
      auto tick = static_cast<size_t>(seconds_since_start() * 10) % 4;
      size_t nodes = session_.progress_nodes().load(std::memory_order_relaxed);
      std::string reported = progress_.text();
      if (!reported.empty())
        return fmt::format("{} {}  {}", spin[tick], reported,
                           cancel_requested_ ? "cancelling..." : "Ctrl-C cancels");
      return fmt::format("{} {:.1f}s  {}{}  running `{}`", spin[tick], seconds_since_start(),
                         nodes > progress_before_ ? fmt::format("{} e-nodes  ", nodes) : "",
                         cancel_requested_ ? "cancelling..." : "Ctrl-C cancels", running_line_);
    }
    if (!last_status_) return "ready";
    return fmt::format("{} `{}` in {:.2f}s",
                       *last_status_ == LineStatus::Failed ? "failed:" : "done:", running_line_,
                       last_seconds_);
  }

  bool readline_ready_;  // first: readline initialises before curses takes the terminal
  Workbench bench_;      // gives the terminal back last
  Session& session_;
  KeptLog kept_;
  LogOutput out_, err_;
  StatusProgress progress_;
  Shell shell_;
  LineEditor editor_;
  FILE* devnull_ = nullptr;
  std::deque<char> input_;  // keys for readline; kept while a command runs (type-ahead)
  std::thread worker_;
  std::atomic<bool> done_{false};
  LineStatus status_ = LineStatus::Ok;
  bool running_ = false, quit_ = false, cancel_requested_ = false;
  std::optional<LineStatus> last_status_;
  double last_seconds_ = 0;
  std::string running_line_;
  std::chrono::steady_clock::time_point started_;
  size_t progress_before_ = 0;  // the progress counter when the command started
};

}  // namespace

int run_tui(Session& session, const std::optional<std::string>& first_line,
            const std::string& log_before) {
  Tui tui(session, log_before);
  return tui.run(first_line);
}

}  // namespace retort
