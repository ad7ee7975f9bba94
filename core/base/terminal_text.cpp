#include "core/base/terminal_text.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

// The code point of a valid UTF-8 sequence.
uint32_t code_point(std::string_view seq) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(seq[k]); };
  size_t n = seq.size();
  uint32_t cp = n == 1   ? byte(0)
                : n == 2 ? byte(0) & 0x1F
                : n == 3 ? byte(0) & 0x0F
                         : byte(0) & 0x07;
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (byte(k) & 0x3F);
  return cp;
}

// Besides the C0 and C1 controls: the characters that reorder or break what a terminal shows
// without being visible themselves (a right-to-left override makes "exe.txt" of "txt.exe"; a line
// separator forges a line): U+061C, U+200E/F, U+202A..U+202E, U+2066..U+2069, U+2028/9.
bool is_control(std::string_view seq, bool keep_lines) {
  uint32_t cp = code_point(seq);
  if (cp == '\n' || cp == '\t') return !keep_lines;
  return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

std::string escaped(std::string_view text, bool keep_lines) {
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
    if (!is_control(seq, keep_lines))
      out += seq;
    else if (n == 1)
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(seq[0]));
    else
      out += fmt::format("\\u{:04x}", code_point(seq));
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

namespace {

std::string bounded(std::string_view text, size_t max_bytes, bool keep_lines) {
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
  std::string out = escaped(head, keep_lines);
  if (left_out == 0) return out.size() <= max_bytes ? out : bounded(out, max_bytes, true);
  std::string rest = escaped(tail, keep_lines);
  std::string note = fmt::format("[... {} bytes left out ...]", left_out);
  // Escapes may have made the parts longer than the bound: cut them again, at a character.
  size_t head_room = max_bytes * 2 / 3, tail_room = max_bytes / 4;
  if (out.size() > head_room) out.resize(char_start(out, head_room));
  if (rest.size() > tail_room) rest = rest.substr(char_start(rest, rest.size() - tail_room));
  return out + note + rest;
}

}  // namespace

std::string terminal_safe(std::string_view text, size_t max_bytes) {
  return bounded(text, max_bytes, true);
}

std::string terminal_name(std::string_view name, size_t max_bytes) {
  return bounded(name, max_bytes, false);
}

std::string shell_word(std::string_view word) {
  std::string safe = terminal_name(word);
  auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_@+:,./-").find(c) != std::string_view::npos;
  };
  if (!safe.empty() && std::all_of(safe.begin(), safe.end(), plain)) return safe;
  std::string quoted = "'";
  for (char c : safe) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_text(const std::vector<std::string>& argv) {
  std::vector<std::string> words;
  for (const auto& word : argv) words.push_back(shell_word(word));
  return fmt::format("{}", fmt::join(words, " "));
}

namespace {

// A code span of text already made safe (one line, no control).
std::string code_span(const std::string& safe) {
  size_t longest = 0, run = 0;
  for (char c : safe) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  bool pad = safe.empty() || safe.front() == '`' || safe.front() == ' ' || safe.back() == '`' ||
             safe.back() == ' ';
  return pad ? fence + " " + safe + " " + fence : fence + safe + fence;
}

}  // namespace

std::string markdown_code(std::string_view text) {
  return code_span(terminal_name(text));
}

std::string markdown_cell(std::string_view text) {
  std::string piped;
  for (char c : terminal_name(text)) piped += c == '|' ? std::string("\\|") : std::string(1, c);
  return code_span(piped);
}

}  // namespace retort
