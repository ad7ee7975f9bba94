// "Did you mean ...?" for mistyped names (ops, commands, variants).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

// Levenshtein distance.
size_t edit_distance(std::string_view a, std::string_view b);
// The candidates within max_distance edits of word, in the candidates' order.
std::vector<std::string> close_matches(std::string_view word,
                                       const std::vector<std::string>& candidates,
                                       size_t max_distance = 2);

}  // namespace retort
