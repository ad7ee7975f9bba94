#include "core/compare/oracles.h"

#include <map>

namespace retort {

std::string_view oracle_name(Oracle o) {
  switch (o) {
    case Oracle::equivalence:
      return "equivalence";
    case Oracle::optimization:
      return "optimization";
    case Oracle::reference:
      return "reference";
  }
  return "?";
}

std::string backend_family(const std::string& backend) {
  return backend.substr(0, backend.find(':'));
}

std::vector<Check> plan_checks(const std::vector<std::string>& backends, size_t graph_count) {
  std::vector<Check> checks;
  for (size_t b = 0; b < backends.size(); ++b)
    for (size_t g = 0; g < graph_count; ++g)
      checks.push_back({Oracle::reference, b, g, kReferenceSide, g});
  for (size_t b = 0; b < backends.size(); ++b)
    for (size_t g = 1; g < graph_count; ++g) checks.push_back({Oracle::equivalence, b, g, b, 0});
  std::map<std::string, size_t> first_of_family;
  for (size_t b = 0; b < backends.size(); ++b) {
    auto [it, first] = first_of_family.emplace(backend_family(backends[b]), b);
    if (first) continue;
    for (size_t g = 0; g < graph_count; ++g)
      checks.push_back({Oracle::optimization, b, g, it->second, g});
  }
  return checks;
}

}  // namespace retort
