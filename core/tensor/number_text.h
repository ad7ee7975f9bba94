// Number and string literals as Retort's text formats write them: shortest text that reads back
// to the same value (so printing then parsing a graph is lossless).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/base/dtype.h"

namespace retort {

// Shortest round-trip text for a double, always recognisable as a float ("1.0", "nan", "-inf").
std::string float_literal(double v);
// Shortest text for an element of float dtype t (v must be a value of that dtype) that
// parse_float_text and Tensor::set read back to the same element: "0.1" for the f32 nearest 0.1.
std::string float_literal_for(double v, DType t);
// Reads a whole decimal float ("2.5", "-1e-3", "7", "nan", "inf", "-inf"); nullopt when the text
// is not one, or is out of double's range.
std::optional<double> parse_float_text(std::string_view text);
// A double-quoted string with \" \\ \n \t escapes.
std::string quote_string(const std::string& s);

}  // namespace retort
