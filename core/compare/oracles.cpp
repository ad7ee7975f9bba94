#include "core/compare/oracles.h"

#include <algorithm>
#include <map>

#include "core/backend/family.h"

namespace retort {

std::string_view oracle_name(Oracle o) {
  switch (o) {
    case Oracle::Equivalence:
      return "equivalence";
    case Oracle::Optimization:
      return "optimization";
    case Oracle::Reference:
      return "reference";
  }
  return "?";
}

std::vector<Check> plan_checks(const std::vector<std::string>& backends, size_t graph_count) {
  std::vector<Check> checks;
  for (size_t b = 0; b < backends.size(); ++b)
    for (size_t g = 0; g < graph_count; ++g)
      checks.push_back({Oracle::Reference, b, g, kReferenceSide, g});
  for (size_t b = 0; b < backends.size(); ++b)
    for (size_t g = 1; g < graph_count; ++g) checks.push_back({Oracle::Equivalence, b, g, b, 0});
  std::map<std::string, size_t> first_of_group;
  for (size_t b = 0; b < backends.size(); ++b) first_of_group.emplace(oracle_group(backends[b]), b);
  for (size_t b = 0; b < backends.size(); ++b) {
    size_t against = first_of_group.at(oracle_group(backends[b]));
    auto baseline = std::find(backends.begin(), backends.end(), oracle_baseline(backends[b]));
    if (baseline != backends.end()) against = static_cast<size_t>(baseline - backends.begin());
    if (against == b) continue;
    for (size_t g = 0; g < graph_count; ++g)
      checks.push_back({Oracle::Optimization, b, g, against, g});
  }
  return checks;
}

}  // namespace retort
