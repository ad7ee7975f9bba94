// The curses workbench: five panes (graph, e-graph, variants, results, log), a status line and
// a command line, drawn from one canvas per frame. It owns the terminal between construction and
// destruction; the line editing (readline) and command execution live in app/tui.cpp.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>

#include "core/session/session.h"
#include "views/canvas.h"
#include "views/log_buffer.h"
#include "views/panes/graph_pane.h"
#include "views/panes/pane.h"

namespace retort {

enum class PaneId { Graph, EGraph, Variants, Results, Log };
inline constexpr size_t kPaneCount = 5;

struct Rect {
  int row = 0, col = 0, rows = 0, cols = 0;
};

// Where everything goes on a rows x cols screen: row 0 is the title bar, the last two rows the
// status and command lines. The graph takes the left part, e-graph, variants and results are
// stacked on the right, the log spans the bottom. A zoomed pane takes the whole pane area.
struct ScreenLayout {
  std::array<Rect, kPaneCount> panes;  // with borders; an empty rect is not shown
  int status_row = 0, command_row = 0;
};
ScreenLayout layout_screen(int rows, int cols, std::optional<PaneId> zoomed);

// Which graph the graph pane should show after a command.
enum class GraphPick { Keep, Current, Rewrite, NewestVariant };

class Workbench {
 public:
  Workbench();   // takes the terminal (initscr)
  ~Workbench();  // gives it back (endwin)
  Workbench(const Workbench&) = delete;
  Workbench& operator=(const Workbench&) = delete;

  // Rebuilds the panes from the session; call only while no command runs. Steps of the trace
  // from `rewrite_from` on are the last command's rewrites.
  void update(const Session& s, size_t rewrite_from, GraphPick pick, const std::string& variant);
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
  Pane& pane(PaneId id) { return *panes_[static_cast<size_t>(id)]; }
  void draw_frame(Canvas& screen, const Rect& r, PaneId id);
  void draw_help(Canvas& screen);
  void blit(const Canvas& screen, int cursor_row, int cursor_col);
  void init_colors();

  LogBuffer log_;
  uint64_t log_version_ = UINT64_MAX;
  std::array<std::unique_ptr<Pane>, kPaneCount> panes_;
  GraphPane* graph_ = nullptr;
  TextPane* log_pane_ = nullptr;
  std::optional<PaneId> focus_;  // none: the command line
  PaneId last_pane_ = PaneId::Graph;
  std::optional<PaneId> zoomed_;
  bool help_ = false;
  std::string prompt_, line_;
  size_t cursor_ = 0;
  std::string status_;
  bool busy_ = false;
  bool colors_ = false;
  bool unicode_ = true;
  std::array<Rect, kPaneCount> drawn_{};  // where each pane was last drawn (for page sizes)
};

}  // namespace retort
