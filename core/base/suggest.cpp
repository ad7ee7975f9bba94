#include "core/base/suggest.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

std::vector<std::string> close_matches(std::string_view word,
                                       const std::vector<std::string>& candidates,
                                       size_t max_distance) {
  std::vector<std::string> close;
  for (const auto& c : candidates)
    if (edit_distance(c, word) <= max_distance) close.push_back(c);
  return close;
}

std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  std::vector<std::string> close = close_matches(word, candidates, word.size() <= 2 ? 1 : 2);
  size_t best = SIZE_MAX;
  for (const auto& c : close) best = std::min(best, edit_distance(word, c));
  std::erase_if(close, [&](const std::string& c) { return edit_distance(word, c) != best; });
  return close;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string> close = closest_matches(word, candidates);
  return close.empty() ? "" : fmt::format("; did you mean {}?", fmt::join(close, " or "));
}

void fail_unknown(std::string_view what, std::string_view word,
                  const std::vector<std::string>& known, bool list_known) {
  std::string plural = what.ends_with('y') ? fmt::format("{}ies", what.substr(0, what.size() - 1))
                                           : fmt::format("{}s", what);
  std::string listed =
      list_known && !known.empty() ? fmt::format(" ({}: {})", plural, fmt::join(known, ", ")) : "";
  fail("unknown {} '{}'{}{}", what, word, did_you_mean(word, known), listed);
}

}  // namespace retort
