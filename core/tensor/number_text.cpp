#include "core/tensor/number_text.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/tensor/tensor.h"

namespace retort {

namespace {
bool finishes_as_float(const std::string& s) {
  return s.find_first_of(".eEn") != std::string::npos;
}

// True when text reads back, through the parser's path, to exactly the element v of dtype t.
bool reads_back(const std::string& text, double v, DType t) {
  auto parsed = parse_float_text(text);
  if (!parsed) return false;
  Tensor element = Tensor::scalar(t, *parsed);
  return element == Tensor::scalar(t, v);
}
}  // namespace

std::string float_literal(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);  // fmt prints the shortest round-trip representation
  if (!finishes_as_float(s)) s += ".0";
  return s;
}

std::string float_literal_for(double v, DType t) {
  if (t == DType::f64 || std::isnan(v) || std::isinf(v)) return float_literal(v);
  // f32 values have a shortest form of their own; f16 needs at most 5 significant digits, bf16
  // at most 4. All are checked against the reading path, which rounds through double.
  std::string candidate;
  if (t == DType::f32) {
    candidate = fmt::format("{}", static_cast<float>(v));
    if (!finishes_as_float(candidate)) candidate += ".0";
    if (reads_back(candidate, v, t)) return candidate;
  } else if (t == DType::f16 || t == DType::bf16) {
    // Whole halves read better as 65504.0 than as the equally exact 6.55e+04; a bf16 of 2^24 and
    // more reads better in few digits (3.39e+38).
    if (v == std::trunc(v) && std::fabs(v) < 0x1p24) return float_literal(v);
    for (int digits = 1; digits <= 6; ++digits) {
      candidate = fmt::format("{:.{}g}", v, digits);
      if (!finishes_as_float(candidate)) candidate += ".0";
      if (reads_back(candidate, v, t)) return candidate;
    }
  }
  return float_literal(v);  // exact in double, so it always reads back
}

std::optional<double> parse_float_text(std::string_view text) {
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  if (text.empty()) return std::nullopt;
  // from_chars rejects a leading '+', and accepts "nan"/"inf" spellings handled above only.
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (std::isnan(v) || std::isinf(v)) return std::nullopt;
  return v;
}

std::string quote_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

}  // namespace retort
