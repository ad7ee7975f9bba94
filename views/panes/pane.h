// A pane of the workbench: a titled area that draws into a canvas and takes keys while it has
// the focus. Panes draw only what they cached when the session was idle, so they stay
// responsive while a command runs on another thread.
#pragma once

#include <string>
#include <vector>

#include "views/canvas.h"

namespace retort {

// A key as the panes see it (the workbench translates the terminal's key codes).
struct PaneKey {
  enum Kind { Up, Down, Left, Right, PageUp, PageDown, Home, End, Char } kind = Char;
  char ch = 0;
};

class Pane {
 public:
  virtual ~Pane() = default;
  virtual std::string title() const = 0;
  // Draws the content area (inside the border).
  virtual void draw(Canvas& canvas) = 0;
  // Returns false when the pane does not use the key.
  virtual bool key(PaneKey key, int page_rows) = 0;
  // Lines for the `?` help overlay: "n/p  select the next/previous node".
  virtual std::vector<std::string> key_help() const = 0;
};

// Lines of text that scroll up, down, left and right.
class TextPane : public Pane {
 public:
  explicit TextPane(std::string title) : title_(std::move(title)) {}
  std::string title() const override { return title_; }
  void draw(Canvas& canvas) override;
  bool key(PaneKey key, int page_rows) override;
  std::vector<std::string> key_help() const override;

  void set_lines(std::vector<StyledLine> lines);
  const std::vector<StyledLine>& lines() const { return lines_; }
  // Keep the last line in view when new lines arrive (the log), until the user scrolls up.
  void set_follow_tail(bool follow) { follow_tail_ = follow; }

 private:
  int max_top(int rows) const;  // the top line that shows the last line at the bottom of `rows`

  std::string title_;
  std::vector<StyledLine> lines_;
  int top_ = 0, left_ = 0;
  int last_rows_ = 1;
  bool follow_tail_ = false;
  // The user has not scrolled up from the last line; a state of its own, since where the view
  // stands changes with the pane's height (zoom, resize) without the user scrolling.
  bool at_tail_ = true;
};

}  // namespace retort
