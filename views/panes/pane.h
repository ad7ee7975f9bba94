// A pane of the workbench: a titled area that draws into a canvas and takes keys while it has
// the focus. A pane declares what it is (PaneSpec) and takes its content from the session when
// a topic it draws from changed (refresh); it draws only what it took, so it stays responsive
// while a command runs on another thread. The panes and their order: views/panes/panes.cpp.
#pragma once

#include <string>
#include <vector>

#include "core/session/session.h"
#include "core/session/topics.h"
#include "views/canvas.h"

namespace retort {

// A key as the panes see it (the workbench translates the terminal's key codes).
struct PaneKey {
  enum Kind { Up, Down, Left, Right, PageUp, PageDown, Home, End, Char } kind = Char;
  char ch = 0;
};

// Where a pane sits: the left column (the graph), stacked on the right, or across the bottom.
enum class Dock { Left, Right, Bottom };

struct PaneSpec {
  std::string name;  // "e-graph": the key list, the status line, the title unless title() says more
  Dock dock = Dock::Right;
  int weight = 1;     // its share of the dock's rows among the visible panes there
  TopicSet topics{};  // the session topics it draws from
  // Its topics are published thread-safely (the campaign), so it refreshes while a command
  // runs; other panes refresh between commands.
  bool live = false;
  // PgUp/PgDn on the command line scroll it (the log).
  bool pages_from_command_line = false;
  // A text pane's first lines (a table's header) stay on top while the rest scrolls under them.
  int header_lines = 0;
};

class Pane {
 public:
  virtual ~Pane() = default;
  virtual const PaneSpec& spec() const = 0;
  virtual std::string title() const { return spec().name; }
  // Takes what the pane shows from the session; `changed` holds the topics that changed since
  // its last refresh (every topic the first time).
  virtual void refresh(const Session& s, TopicSet changed) = 0;
  // False while there is nothing to show: the layout leaves the pane out.
  virtual bool visible() const { return true; }
  // Messages for the log pane that came up while drawing (Graphviz's warnings), once each.
  virtual std::string take_messages() { return {}; }
  // Draws the content area (inside the border).
  virtual void draw(Canvas& canvas) = 0;
  // Returns false when the pane does not use the key.
  virtual bool key(PaneKey key, int page_rows) = 0;
  // Lines for the `?` help overlay: "n/p  select the next/previous node".
  virtual std::vector<std::string> key_help() const = 0;
};

// Lines of text that scroll up, down, left and right; or, wrapped at the pane's width (the log),
// up and down, with `w` switching between the two.
class TextPane : public Pane {
 public:
  void draw(Canvas& canvas) override;
  bool key(PaneKey key, int page_rows) override;
  std::vector<std::string> key_help() const override;

  void set_lines(std::vector<StyledLine> lines);
  const std::vector<StyledLine>& lines() const { return lines_; }
  // Keep the last line in view when new lines arrive (the log), until the user scrolls up.
  void set_follow_tail(bool follow) { follow_tail_ = follow; }
  // Wrap long lines at the pane's width; `w` then switches to sideways scrolling and back.
  void set_wrap(bool wrap) { wrappable_ = wrap_ = wrap; }

 private:
  // A row on screen: the part of a line that starts at character `from`.
  struct Row {
    size_t line;
    size_t from;
  };
  std::vector<Row> rows(int cols) const;  // every line's rows at this width
  int max_top(int rows) const;  // the top row that shows the last row at the bottom of `rows`

  std::vector<StyledLine> lines_;
  int top_ = 0, left_ = 0;  // the first row shown; the first column (not wrapped)
  int last_rows_ = 1, last_cols_ = 80;
  bool follow_tail_ = false;
  bool wrappable_ = false, wrap_ = false;
  // The user has not scrolled up from the last line; a state of its own, since where the view
  // stands changes with the pane's height (zoom, resize) without the user scrolling.
  bool at_tail_ = true;
};

// A text pane whose lines are a function of the session (e-graph, variants, results).
class SessionTextPane : public TextPane {
 public:
  using Source = std::vector<StyledLine> (*)(const Session&);
  SessionTextPane(PaneSpec spec, Source source) : spec_(std::move(spec)), source_(source) {}
  const PaneSpec& spec() const override { return spec_; }
  void refresh(const Session& s, TopicSet) override { set_lines(source_(s)); }

 private:
  PaneSpec spec_;
  Source source_;
};

}  // namespace retort
