#include "core/base/string_escape.h"

#include <fmt/format.h>

namespace retort {

std::optional<char> unescape_char(char e) {
  switch (e) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case 'n':
      return '\n';
    case 't':
      return '\t';
    default:
      return std::nullopt;
  }
}

std::string unknown_escape_message(char e) {
  return fmt::format("unknown escape '\\{}' (known: \\\" \\\\ \\n \\t)", printable_char(e));
}

std::string printable_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string(1, c);
  return fmt::format("\\x{:02x}", u);
}

}  // namespace retort
