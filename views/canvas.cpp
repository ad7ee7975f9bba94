#include "views/canvas.h"

namespace retort {

Canvas::Canvas(int rows, int cols)
    : rows_(rows < 0 ? 0 : rows),
      cols_(cols < 0 ? 0 : cols),
      cells_(static_cast<size_t>(rows_) * static_cast<size_t>(cols_)) {}

void Canvas::put(int row, int col, char32_t ch, Style style) {
  if (row < 0 || col < 0 || row >= rows_ || col >= cols_) return;
  cells_[static_cast<size_t>(row * cols_ + col)] = {ch, style};
}

int Canvas::text(int row, int col, std::string_view utf8, Style style) {
  int used = 0;
  for (char32_t c : utf8_decode(utf8)) {
    if (c == U'\t') c = U' ';
    if (c < 0x20) continue;
    put(row, col + used, c, style);
    ++used;
  }
  return used;
}

std::string Canvas::row_text(int row) const {
  std::string out;
  int last = cols_ - 1;
  while (last >= 0 && at(row, last).ch == U' ') --last;
  for (int c = 0; c <= last; ++c) out += utf8_encode(at(row, c).ch);
  return out;
}

std::string Canvas::str() const {
  std::string out;
  for (int r = 0; r < rows_; ++r) out += row_text(r) + "\n";
  return out;
}

std::u32string utf8_decode(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + static_cast<size_t>(extra) >= s.size() + (extra == 0)) {
      out += U'\uFFFD';
      ++i;
      continue;
    }
    char32_t c = extra == 0 ? b : b & (0x3F >> extra);
    bool ok = true;
    for (int k = 1; k <= extra; ++k) {
      auto cont = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((cont & 0xC0) != 0x80) ok = false;
      c = (c << 6) | (cont & 0x3F);
    }
    out += ok ? c : U'\uFFFD';
    i += ok ? static_cast<size_t>(extra) + 1 : 1;
  }
  return out;
}

std::string utf8_encode(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

int text_cells(std::string_view utf8) {
  int n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

const Glyphs& Glyphs::unicode() {
  static const Glyphs g{U'─', U'│', U'┌', U'┐', U'└', U'┘', U'┬', U'┴', U'├', U'┤', U'┼',
                        U'═', U'║', U'╔', U'╗', U'╚', U'╝', U'▼', U'▲', U'◀', U'▶'};
  return g;
}

const Glyphs& Glyphs::ascii() {
  static const Glyphs g{U'-', U'|', U'+', U'+', U'+', U'+', U'+', U'+', U'+', U'+', U'+',
                        U'=', U'#', U'#', U'#', U'#', U'#', U'v', U'^', U'<', U'>'};
  return g;
}

}  // namespace retort
