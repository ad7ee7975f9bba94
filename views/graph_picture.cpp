#include "views/graph_picture.h"

#include <vector>

namespace retort {

namespace {

enum : uint8_t { kUp = 1, kDown = 2, kLeft = 4, kRight = 8 };

char32_t line_glyph(uint8_t mask, const Glyphs& g) {
  switch (mask) {
    case kLeft | kRight:
    case kLeft:
    case kRight:
      return g.h;
    case kDown | kRight:
      return g.tl;
    case kDown | kLeft:
      return g.tr;
    case kUp | kRight:
      return g.bl;
    case kUp | kLeft:
      return g.br;
    case kUp | kDown | kRight:
      return g.tee_right;
    case kUp | kDown | kLeft:
      return g.tee_left;
    case kDown | kLeft | kRight:
      return g.tee_down;
    case kUp | kLeft | kRight:
      return g.tee_up;
    case kUp | kDown | kLeft | kRight:
      return g.cross;
    default:
      return g.v;
  }
}

// Line directions per canvas cell, so that crossing and joining edges get the right glyph.
class EdgeMask {
 public:
  EdgeMask(int rows, int cols)
      : rows_(rows), cols_(cols), bits_(static_cast<size_t>(rows * cols)) {}
  void add(int row, int col, uint8_t bits) {
    if (row >= 0 && col >= 0 && row < rows_ && col < cols_)
      bits_[static_cast<size_t>(row * cols_ + col)] |= bits;
  }
  uint8_t at(int row, int col) const { return bits_[static_cast<size_t>(row * cols_ + col)]; }

  void segment(CellPoint a, CellPoint b) {
    int dr = (b.row > a.row) - (b.row < a.row), dc = (b.col > a.col) - (b.col < a.col);
    uint8_t forward = dr > 0 ? kDown : dr < 0 ? kUp : dc > 0 ? kRight : kLeft;
    uint8_t back = dr > 0 ? kUp : dr < 0 ? kDown : dc > 0 ? kLeft : kRight;
    for (CellPoint p = a; !(p == b); p = {p.row + dr, p.col + dc}) {
      add(p.row, p.col, forward);
      add(p.row + dr, p.col + dc, back);
    }
  }

 private:
  int rows_, cols_;
  std::vector<uint8_t> bits_;
};

void draw_box(Canvas& canvas, const LayoutBox& box, CellPoint origin, bool highlighted,
              bool selected, const Glyphs& g) {
  int top = box.row - origin.row, left = box.col - origin.col;
  if (!box.border) {
    // One row: "[name op]", or "*name op*" when highlighted (visible without colour).
    Style style = selected ? Style::Selected : highlighted ? Style::Highlight : Style::Title;
    std::string text = box.lines.empty() ? "" : box.lines.front();
    canvas.text(top, left, highlighted ? "*" + text + "*" : "[" + text + "]", style);
    return;
  }
  int bottom = top + box.height - 1, right = left + box.width - 1;
  Style border = selected ? Style::Selected : highlighted ? Style::Highlight : Style::Border;
  Style inside = selected ? Style::Selected : highlighted ? Style::Highlight : Style::Plain;
  char32_t h = highlighted ? g.dh : g.h, v = highlighted ? g.dv : g.v;
  for (int c = left + 1; c < right; ++c) {
    canvas.put(top, c, h, border);
    canvas.put(bottom, c, h, border);
  }
  for (int r = top + 1; r < bottom; ++r) {
    canvas.put(r, left, v, border);
    canvas.put(r, right, v, border);
    for (int c = left + 1; c < right; ++c) canvas.put(r, c, U' ', inside);
  }
  canvas.put(top, left, highlighted ? g.dtl : g.tl, border);
  canvas.put(top, right, highlighted ? g.dtr : g.tr, border);
  canvas.put(bottom, left, highlighted ? g.dbl : g.bl, border);
  canvas.put(bottom, right, highlighted ? g.dbr : g.br, border);
  for (size_t i = 0; i < box.lines.size(); ++i)
    canvas.text(top + 1 + static_cast<int>(i), left + 1, box.lines[i],
                i == 0 && !selected ? (highlighted ? Style::Highlight : Style::Title) : inside);
}

}  // namespace

void draw_layout(Canvas& canvas, const GraphLayout& layout, CellPoint origin,
                 const PictureMarks& marks, const Glyphs& glyphs) {
  EdgeMask mask(canvas.rows(), canvas.cols());
  struct Arrow {
    CellPoint at;
    uint8_t dir;
    int operand;
  };
  std::vector<Arrow> arrows;
  for (const auto& e : layout.edges) {
    if (e.points.empty()) continue;
    std::vector<CellPoint> pts;
    for (CellPoint p : e.points) pts.push_back({p.row - origin.row, p.col - origin.col});
    for (size_t i = 0; i + 1 < pts.size(); ++i) mask.segment(pts[i], pts[i + 1]);
    // The tail leaves its box vertically; the arrow points along the last segment.
    mask.add(pts.front().row, pts.front().col, kUp);
    CellPoint end = pts.back(), before = pts.size() > 1 ? pts[pts.size() - 2] : end;
    uint8_t dir = end.row > before.row   ? kDown
                  : end.row < before.row ? kUp
                  : end.col > before.col ? kRight
                  : end.col < before.col ? kLeft
                                         : kDown;
    arrows.push_back({end, dir, e.operand});
  }
  for (int r = 0; r < canvas.rows(); ++r)
    for (int c = 0; c < canvas.cols(); ++c)
      if (uint8_t bits = mask.at(r, c)) canvas.put(r, c, line_glyph(bits, glyphs), Style::Edge);
  // An edge into an op with several operands ends in its operand's number instead of an arrow
  // head: mul(s, a) and mul(a, s) look different whichever side the layout put s on.
  for (const auto& [p, dir, operand] : arrows) {
    char32_t ch = dir == kDown   ? glyphs.arrow_down
                  : dir == kUp   ? glyphs.arrow_up
                  : dir == kLeft ? glyphs.arrow_left
                                 : glyphs.arrow_right;
    if (operand >= 0 && operand <= 9) ch = static_cast<char32_t>(U'0' + operand);
    canvas.put(p.row, p.col, ch, Style::Edge);
  }
  for (const auto& box : layout.boxes)
    draw_box(canvas, box, origin, marks.highlighted.count(box.id) > 0, marks.selected == box.id,
             glyphs);
  // Where an edge leaves a box, its bottom border shows the joint.
  for (const auto& e : layout.edges) {
    if (e.points.empty()) continue;
    const LayoutBox* tail = layout.find(e.from);
    CellPoint p{e.points.front().row - origin.row, e.points.front().col - origin.col};
    if (tail && tail->border && !marks.highlighted.count(tail->id) &&
        e.points.front().row == tail->row + tail->height && p.row - 1 >= 0 &&
        p.row - 1 < canvas.rows() && p.col >= 0 && p.col < canvas.cols())
      canvas.put(p.row - 1, p.col, glyphs.tee_down, canvas.at(p.row - 1, p.col).style);
  }
}

}  // namespace retort
