#include "app/tui.h"

#include <readline/readline.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <thread>

#define NCURSES_NOMACROS 1
#include <curses.h>
#include <fmt/format.h>

#include "app/command_line.h"
#include "app/commands.h"
#include "app/line_editor.h"
#include "app/shell.h"
#include "core/base/error.h"
#include "core/io/file_io.h"
#include "views/workbench.h"

namespace retort {

namespace {

constexpr const char* kPrompt = "retort> ";
constexpr int kCtrlC = 3;

// Command output into the log pane (written from the command thread).
class LogOutput : public Output {
 public:
  LogOutput(LogBuffer& log, Style style) : log_(log), style_(style) {}
  void write(std::string_view text) override { log_.append(text, style_); }

 private:
  LogBuffer& log_;
  Style style_;
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
  explicit Tui(Session& session)
      : readline_ready_(init_readline()),
        session_(session),
        out_(bench_.log(), Style::Plain),
        err_(bench_.log(), Style::Error),
        shell_(session, app_commands(), out_, err_),
        editor_(shell_) {
    g_tui = this;
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
    refresh_panes();
    if (first_line) start(*first_line);
    while (!quit_) {
      if (running_ && done_) finish();
      while (!running_ && !quit_ && !input_.empty()) rl_callback_read_char();
      if (quit_) break;
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

  // The workbench's own commands: the log is the workbench's, so they are not in the registry.
  bool workbench_command(const std::string& line) {
    std::vector<std::string> words = split_words(line);
    if (words.empty() || words[0] != "log") return false;
    bool force = words.size() == 4 && words[3] == "--force";
    if ((words.size() == 3 || force) && words[1] == "save") {
      std::string text;
      size_t n = 0;
      for (const auto& l : bench_.log().lines()) {
        if (l.style != Style::Plain && l.style != Style::Error) continue;
        text += l.text + '\n';
        ++n;
      }
      try {
        write_file(words[2], text, force);
      } catch (const Error& e) {
        bench_.log().append(fmt::format("error: {}\n", e.what()), Style::Error);
        return true;
      }
      bench_.log().append(fmt::format("saved {} log lines to {}\n", n, words[2]), Style::Dim);
    } else if (words.size() == 2 && words[1] == "clear") {
      bench_.log().clear();
    } else {
      bench_.log().append("error: usage: log save FILE [--force] | log clear\n", Style::Error);
    }
    return true;
  }

  void start(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    bench_.log().append(fmt::format("{}{}\n", kPrompt, line), Style::Title);
    if (workbench_command(line)) return;
    steps_before_ = session_.has_egraph() ? session_.egraph().trace.steps.size() : 0;
    had_egraph_ = session_.has_egraph();
    variants_before_ = session_.variant_names();
    graph_before_ = fingerprint();
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
    refresh_panes();
  }

  // Picks what the graph pane shows after a command: the rewrites it made, the variant it
  // extracted, or the current graph when that changed.
  void refresh_panes() {
    GraphPick pick = GraphPick::Keep;
    std::string variant;
    size_t steps = session_.has_egraph() ? session_.egraph().trace.steps.size() : 0;
    if (!session_.has_egraph() || steps < steps_before_ || (!had_egraph_ && session_.has_egraph()))
      rewrite_from_ = SIZE_MAX;
    if (session_.has_egraph() && had_egraph_ && steps > steps_before_) {
      rewrite_from_ = steps_before_;
      pick = GraphPick::Rewrite;
    }
    std::vector<std::string> names = session_.variant_names();
    for (const auto& name : names)
      if (std::find(variants_before_.begin(), variants_before_.end(), name) ==
          variants_before_.end()) {
        pick = GraphPick::NewestVariant;
        variant = name;
      }
    if (fingerprint() != graph_before_) pick = GraphPick::Current;
    graph_before_ = fingerprint();
    variants_before_ = names;
    steps_before_ = steps;
    had_egraph_ = session_.has_egraph();
    try {
      bench_.update(session_, rewrite_from_, pick, variant);
    } catch (const std::exception& e) {
      bench_.log().append(fmt::format("error: cannot draw the session: {}\n", e.what()),
                          Style::Error);
    }
  }

  // Enough to notice that load, def or gen replaced the current graph.
  std::string fingerprint() const {
    if (!session_.has_graph()) return "";
    const Graph& g = session_.graph();
    std::string f = fmt::format("{}/{}/{}", g.name, g.nodes.size(), g.inputs.size());
    for (const auto& n : g.nodes) f += "/" + n.name + ":" + n.op;
    return f;
  }

  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  std::string status_text() const {
    if (running_) {
      static const char* const spin = "|/-\\";
      auto tick = static_cast<size_t>(seconds_since_start() * 10) % 4;
      size_t nodes = session_.progress_nodes().load(std::memory_order_relaxed);
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
  LogOutput out_, err_;
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
  size_t steps_before_ = 0, rewrite_from_ = SIZE_MAX;
  size_t progress_before_ = 0;  // the progress counter when the command started
  bool had_egraph_ = false;
  std::vector<std::string> variants_before_;
  std::string graph_before_;
};

}  // namespace

int run_tui(Session& session, const std::optional<std::string>& first_line) {
  Tui tui(session);
  return tui.run(first_line);
}

}  // namespace retort
