#include <algorithm>

#include "views/panes/pane.h"

namespace retort {

int TextPane::max_top(int rows) const {
  return std::max(0, static_cast<int>(lines_.size()) - rows);
}

void TextPane::set_lines(std::vector<StyledLine> lines) {
  lines_ = std::move(lines);
  if (follow_tail_ && at_tail_) top_ = max_top(last_rows_);
  top_ = std::clamp(top_, 0, max_top(last_rows_));
}

void TextPane::draw(Canvas& canvas) {
  last_rows_ = std::max(1, canvas.rows());
  int max_top = this->max_top(canvas.rows());
  if (follow_tail_ && at_tail_) top_ = max_top;
  top_ = std::clamp(top_, 0, max_top);
  for (int r = 0; r < canvas.rows(); ++r) {
    size_t i = static_cast<size_t>(top_ + r);
    if (i >= lines_.size()) break;
    std::u32string text = utf8_decode(lines_[i].text);
    for (int c = 0; c < canvas.cols(); ++c) {
      size_t at = static_cast<size_t>(left_ + c);
      if (at >= text.size()) break;
      canvas.put(r, c, text[at] < 0x20 ? U' ' : text[at], lines_[i].style);
    }
  }
  // A marker when more lines lie below, so a small pane does not hide that it scrolls.
  if (top_ < max_top && canvas.rows() > 0 && canvas.cols() > 0)
    canvas.put(canvas.rows() - 1, canvas.cols() - 1, U'+', Style::Dim);
}

bool TextPane::key(PaneKey key, int page_rows) {
  int page = std::max(1, page_rows - 1);
  switch (key.kind) {
    case PaneKey::Up:
      top_ -= 1;
      break;
    case PaneKey::Down:
      top_ += 1;
      break;
    case PaneKey::PageUp:
      top_ -= page;
      break;
    case PaneKey::PageDown:
      top_ += page;
      break;
    case PaneKey::Home:
      top_ = 0;
      left_ = 0;
      break;
    case PaneKey::End:
      top_ = static_cast<int>(lines_.size());
      break;
    case PaneKey::Left:
      left_ = std::max(0, left_ - 8);
      break;
    case PaneKey::Right:
      left_ += 8;
      break;
    case PaneKey::Char:
      return false;
  }
  top_ = std::clamp(top_, 0, std::max(0, static_cast<int>(lines_.size()) - 1));
  // Only a vertical move decides whether the view stays on the tail.
  if (key.kind != PaneKey::Left && key.kind != PaneKey::Right)
    at_tail_ = top_ >= max_top(last_rows_);
  return true;
}

std::vector<std::string> TextPane::key_help() const {
  return {"Up/Down PgUp/PgDn  scroll", "Left/Right         scroll sideways",
          "Home/End           first/last line"};
}

}  // namespace retort
