#include "core/base/terminal_text.h"

#include <fmt/format.h>

namespace retort {

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
size_t utf8_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (byte(i + k) & 0x3F);
  static constexpr uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kLeast[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;  // overlong
  return n;
}

bool is_control(std::string_view seq) {
  auto c = static_cast<unsigned char>(seq[0]);
  if (seq.size() == 1) return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F;
  return seq.size() == 2 && c == 0xC2 && static_cast<unsigned char>(seq[1]) < 0xA0;  // C1
}

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_length(text, i);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    std::string_view seq = text.substr(i, n);
    if (!is_control(seq))
      out += seq;
    else if (n == 1)
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(seq[0]));
    else
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(seq[1]));
    i += n;
  }
  return out;
}

// Moves a cut position back to the start of a UTF-8 character.
size_t char_start(std::string_view text, size_t pos) {
  while (pos > 0 && pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
    --pos;
  return pos;
}

}  // namespace

std::string terminal_safe(std::string_view text, size_t max_bytes) {
  // Cut the raw text first, so a 10 MB token costs no 10 MB of escaping.
  std::string_view head = text, tail;
  size_t left_out = 0;
  if (text.size() > max_bytes) {
    size_t keep_head = char_start(text, max_bytes * 2 / 3);
    size_t keep_tail = char_start(text, text.size() - max_bytes / 4);
    head = text.substr(0, keep_head);
    tail = text.substr(keep_tail);
    left_out = keep_tail - keep_head;
  }
  std::string out = escaped(head);
  if (left_out == 0) return out.size() <= max_bytes ? out : terminal_safe(out, max_bytes);
  std::string rest = escaped(tail);
  std::string note = fmt::format("[... {} bytes left out ...]", left_out);
  // Escapes may have made the parts longer than the bound: cut them again, at a character.
  size_t head_room = max_bytes * 2 / 3, tail_room = max_bytes / 4;
  if (out.size() > head_room) out.resize(char_start(out, head_room));
  if (rest.size() > tail_room) rest = rest.substr(char_start(rest, rest.size() - tail_room));
  return out + note + rest;
}

}  // namespace retort
