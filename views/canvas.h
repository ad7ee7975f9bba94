// A grid of styled character cells: what a pane draws into before it reaches the terminal, so
// that drawing can be tested as text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

// How a cell is shown; the workbench maps styles to curses attributes and colours.
enum class Style : uint8_t { Plain, Border, Edge, Highlight, Selected, Title, Dim, Error, Good };

struct Cell {
  char32_t ch = U' ';
  Style style = Style::Plain;
};

// A line of text with one style (for text panes).
struct StyledLine {
  std::string text;
  Style style = Style::Plain;
};

class Canvas {
 public:
  Canvas(int rows, int cols);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  // Out-of-range cells are ignored, so callers can draw partly visible things.
  void put(int row, int col, char32_t ch, Style style);
  // UTF-8 text from (row, col), clipped at the right edge. Returns the columns it took.
  int text(int row, int col, std::string_view utf8, Style style);
  const Cell& at(int row, int col) const { return cells_[static_cast<size_t>(row * cols_ + col)]; }
  // One row as UTF-8 without trailing blanks (for tests).
  std::string row_text(int row) const;
  std::string str() const;  // every row, '\n' after each

 private:
  int rows_, cols_;
  std::vector<Cell> cells_;
};

// Decodes UTF-8 (invalid bytes become U+FFFD).
std::u32string utf8_decode(std::string_view s);
std::string utf8_encode(char32_t c);
// The number of cells the text takes (one per code point).
int text_cells(std::string_view utf8);

// Box-drawing glyphs, or ASCII look-alikes for terminals without UTF-8.
struct Glyphs {
  char32_t h, v, tl, tr, bl, br, tee_down, tee_up, tee_right, tee_left, cross;
  char32_t dh, dv, dtl, dtr, dbl, dbr;  // the double box of highlighted nodes
  char32_t arrow_down, arrow_up, arrow_left, arrow_right;
  static const Glyphs& unicode();
  static const Glyphs& ascii();
};

}  // namespace retort
