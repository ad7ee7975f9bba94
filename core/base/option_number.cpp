#include "core/base/option_number.h"

#include <charconv>

#include "core/base/error.h"

namespace retort {

double parse_fraction(std::string_view text, std::string_view what) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(value >= 0) ||
      value > 1)
    fail("{} must be a number from 0 to 1, got '{}'", what, text);
  return value;
}

uint64_t parse_u64(std::string_view text, std::string_view what) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    fail("{} must be a whole number from 0 to {}, got '{}'", what, UINT64_MAX, text);
  return value;
}

}  // namespace retort
