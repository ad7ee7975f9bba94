// OATest's graph synthesis (seeds/004, Section 3.2): a pattern woven into a seed graph at a random
// synthesis point. Each pattern input takes a value of the preceding context: one of the same type,
// else one of the same dtype and rank that the pattern still types with (the pattern relaxed to
// its ops' own constraints), else any value bridged to the input's type by reshape, pad or slice,
// reshape and cast. Each pattern output replaces a same-typed input of a later node, else it is a
// graph output. docs/techniques.md compares this with the paper.
#pragma once

#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/gen/opt_pattern.h"
#include "core/graph/graph.h"

namespace retort {

struct WeaveReport {
  std::string pattern;
  size_t point = 0;                  // the pattern's nodes follow the seed's first `point` nodes
  std::vector<std::string> inputs;   // per pattern input, how it was fed: "x <- t3 (same type)"
  std::vector<std::string> outputs;  // per pattern output, where it went: "y -> n7 input 1"
  size_t bridge_nodes = 0;           // nodes added to bridge a type
};

// The seed (typed by infer_graph) with the pattern woven in; the result is typed too. The same
// seed graph, pattern and rng state give the same graph. OptPattern names are prefixed with the
// pattern's name and made unique. Throws Error when the seed has no value to feed the pattern.
Graph weave_pattern(const Graph& seed, const OptPattern& pattern, Rng& rng,
                    WeaveReport* report = nullptr);

}  // namespace retort
