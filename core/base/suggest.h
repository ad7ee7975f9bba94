// "Did you mean ...?" for mistyped names (commands, options, ops, rules, rule sets, variants,
// backends, families, modes, releases, patterns): every lookup of a name reports a miss here.
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
// Only the closest of close_matches (the fewest edits), so that "ort:03" suggests ort:O3 and
// not every ort:O*. A word of one or two characters is matched within one edit.
std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates);
// "; did you mean X or Y?" for the closest candidates, "" when none is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);
// Throws Error "unknown WHAT 'word'; did you mean X? (WHATs: a, b)". The list of known names
// is left out when `list_known` is false (hundreds of ops) or there are none.
[[noreturn]] void fail_unknown(std::string_view what, std::string_view word,
                               const std::vector<std::string>& known, bool list_known = true);

}  // namespace retort
