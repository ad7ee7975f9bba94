// The curses workbench: the panes of views/panes/panes.cpp (graph, e-graph, variants, results,
// campaign, log), a status line and a command line, drawn from one canvas per frame. It owns the
// terminal between construction and destruction; the line editing (readline) and command execution
// live in app/tui.cpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/session/session.h"
#include "views/canvas.h"
#include "views/log_buffer.h"
#include "views/panes/pane.h"

namespace retort {

struct Rect {
  int row = 0, col = 0, rows = 0, cols = 0;
};

// Where everything goes on a rows x cols screen: row 0 is the title bar, the last two rows the
// status and command lines. Left-docked panes take the left part, right-docked ones are stacked
// on the right by weight, bottom-docked ones span the bottom. A null spec is a hidden pane (an
// empty rect); a zoomed pane takes the whole pane area.
struct ScreenLayout {
  std::vector<Rect> panes;  // with borders, by pane index
  int status_row = 0, command_row = 0;
};
ScreenLayout layout_screen(int rows, int cols, const std::vector<const PaneSpec*>& panes,
                           std::optional<size_t> zoomed);

class Workbench {
 public:
  Workbench();   // takes the terminal (initscr)
  ~Workbench();  // gives it back (endwin)
  Workbench(const Workbench&) = delete;
  Workbench& operator=(const Workbench&) = delete;

  // Refreshes the panes whose topics the session changed since they last drew. While a command
  // runs (`idle` false) only live panes refresh: the others would read what the command changes.
  void update(const Session& s, bool idle);
  LogBuffer& log() { return log_; }

  // A key from the terminal, or ERR after timeout_ms.
  int read_key(int timeout_ms);
  // Keys for the panes, focus, zoom and help; returns false for keys meant for the command
  // line (the caller hands them to readline).
  bool handle_key(int key);

  void set_command_line(const std::string& prompt, const std::string& text, size_t cursor_byte);
  void set_status(std::string text, bool busy);
  void draw();

 private:
  void draw_frame(Canvas& screen, const Rect& r, size_t pane);
  // Focuses a visible pane (a hidden one is skipped by Tab and ignored by its F key).
  void focus(size_t pane);
  ScreenLayout layout(int rows, int cols) const;
  void draw_help(Canvas& screen);
  void blit(const Canvas& screen, int cursor_row, int cursor_col);
  void init_colors();

  LogBuffer log_;
  std::vector<std::unique_ptr<Pane>> panes_;
  std::vector<std::optional<TopicVersions>> seen_;  // per pane: the versions it last drew
  std::optional<size_t> focus_;                     // none: the command line
  size_t last_pane_ = 0;
  std::optional<size_t> zoomed_;
  bool help_ = false;
  std::string prompt_, line_;
  size_t cursor_ = 0;
  std::string status_;
  bool busy_ = false;
  bool colors_ = false;
  bool unicode_ = true;
  std::vector<Rect> drawn_;  // where each pane was last drawn (for page sizes)
};

}  // namespace retort
