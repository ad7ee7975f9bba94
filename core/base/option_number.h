// Numbers as a person types them on a command line or in a strategy's option: whole and exact,
// or an error that names where the text came from. Commands and the fuzz strategies' options
// (core/campaign/strategy.h) read theirs with these.
#pragma once

#include <cstdint>
#include <string_view>

namespace retort {

// Parses a whole unsigned decimal number; throws Error naming `what` otherwise.
uint64_t parse_u64(std::string_view text, std::string_view what);
// A number in [0, 1] (a probability); Error naming `what` otherwise.
double parse_fraction(std::string_view text, std::string_view what);

}  // namespace retort
