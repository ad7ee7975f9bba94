#include "core/io/number_text.h"

#include <cmath>

#include <fmt/format.h>

namespace retort {

std::string float_literal(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);  // fmt prints the shortest round-trip representation
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string quote_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

}  // namespace retort
