// Number and string literals as Retort's text formats write them: shortest text that reads back
// to the same value (so printing then parsing a graph is lossless).
#pragma once

#include <string>

namespace retort {

// Shortest round-trip text for a double, always recognisable as a float ("1.0", "nan", "-inf").
std::string float_literal(double v);
// A double-quoted string with \" \\ \n \t escapes.
std::string quote_string(const std::string& s);

}  // namespace retort
