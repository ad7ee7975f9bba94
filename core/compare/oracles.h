// The three oracles of `compare`, as the list of pairwise checks they ask for.
//   equivalence (POLYJUICE): one backend, a variant against the original graph;
//   optimization (HirFuzz): one graph, a backend against its family's baseline when that is in
//     the list ("ort:O3" against "ort:O0", "inductor:default" against "torch:eager"; one
//     release with itself), else against the first backend of its group (core/backend/family.h
//     oracle_group; an attached backend's group is its name up to ':');
//   reference: one graph, a backend against the reference interpreter.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

enum class Oracle { Equivalence, Optimization, Reference };
std::string_view oracle_name(Oracle o);

// Side b of a check: a backend index, or kReferenceSide for the reference interpreter.
inline constexpr size_t kReferenceSide = static_cast<size_t>(-1);

struct Check {
  Oracle oracle = Oracle::Reference;
  size_t backend_a = 0, graph_a = 0;  // the side under test
  size_t backend_b = 0, graph_b = 0;  // what it must agree with
};

// Every check for these backends (in order) and graph_count graphs (graph 0 is the original).
std::vector<Check> plan_checks(const std::vector<std::string>& backends, size_t graph_count);

}  // namespace retort
