#include <algorithm>

#include "views/panes/pane.h"

namespace retort {

std::vector<TextPane::Row> TextPane::rows(int cols) const {
  std::vector<Row> out;
  size_t width = static_cast<size_t>(std::max(1, cols));
  for (size_t i = 0; i < lines_.size(); ++i) {
    size_t length = wrap_ ? utf8_decode(lines_[i].text).size() : 0;
    out.push_back({i, 0});
    for (size_t from = width; from < length; from += width) out.push_back({i, from});
  }
  return out;
}

int TextPane::max_top(int rows) const {
  return std::max(0, static_cast<int>(this->rows(last_cols_).size()) - rows);
}

void TextPane::set_lines(std::vector<StyledLine> lines) {
  lines_ = std::move(lines);
  if (follow_tail_ && at_tail_) top_ = max_top(last_rows_);
  top_ = std::clamp(top_, 0, max_top(last_rows_));
}

void TextPane::draw(Canvas& canvas) {
  last_rows_ = std::max(1, canvas.rows());
  last_cols_ = std::max(1, canvas.cols());
  std::vector<Row> shown = rows(last_cols_);
  int max_top = std::max(0, static_cast<int>(shown.size()) - canvas.rows());
  if (follow_tail_ && at_tail_) top_ = max_top;
  top_ = std::clamp(top_, 0, max_top);
  size_t left = wrap_ ? 0 : static_cast<size_t>(left_);
  // The header's rows are drawn in place; the rows under them come from top_ on.
  int header = 0;
  while (header + 1 < canvas.rows() && static_cast<size_t>(header) < shown.size() &&
         shown[static_cast<size_t>(header)].line < static_cast<size_t>(spec().header_lines))
    ++header;
  for (int r = 0; r < canvas.rows(); ++r) {
    size_t i = static_cast<size_t>(r < header ? r : top_ + r);
    if (i >= shown.size()) break;
    const StyledLine& line = lines_[shown[i].line];
    std::u32string text = utf8_decode(line.text);
    for (int c = 0; c < canvas.cols(); ++c) {
      size_t at = shown[i].from + left + static_cast<size_t>(c);
      if (at >= text.size()) break;
      canvas.put(r, c, text[at] < 0x20 ? U' ' : text[at], line.style);
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
      top_ = static_cast<int>(rows(last_cols_).size());
      break;
    case PaneKey::Left:
      left_ = std::max(0, left_ - 8);
      break;
    case PaneKey::Right:
      if (!wrap_) left_ += 8;
      break;
    case PaneKey::Char: {
      if (key.ch != 'w' || !wrappable_) return false;
      // The line on top stays on top.
      std::vector<Row> before = rows(last_cols_);
      size_t line = before.empty() ? 0 : before[std::min<size_t>(top_, before.size() - 1)].line;
      wrap_ = !wrap_;
      left_ = 0;
      std::vector<Row> after = rows(last_cols_);
      top_ = static_cast<int>(
          std::find_if(after.begin(), after.end(), [&](const Row& r) { return r.line == line; }) -
          after.begin());
      break;
    }
  }
  top_ = std::clamp(top_, 0, std::max(0, static_cast<int>(rows(last_cols_).size()) - 1));
  // Only a vertical move decides whether the view stays on the tail.
  if (key.kind != PaneKey::Left && key.kind != PaneKey::Right && key.kind != PaneKey::Char)
    at_tail_ = top_ >= max_top(last_rows_);
  return true;
}

std::vector<std::string> TextPane::key_help() const {
  std::vector<std::string> help{"Up/Down PgUp/PgDn  scroll"};
  if (wrappable_)
    help.push_back(wrap_ ? "w                  long lines: scroll sideways instead of wrapping"
                         : "w                  long lines: wrap instead (Left/Right scroll)");
  if (!wrap_) help.push_back("Left/Right         scroll sideways");
  help.push_back("Home/End           first/last line");
  return help;
}

}  // namespace retort
