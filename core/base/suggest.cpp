#include "core/base/suggest.h"

#include <algorithm>

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

}  // namespace retort
