// Seeded input tensors for running a graph: each input gets values in the domain that the ops
// reading it need (log gets positive values, acos values in [-1, 1]...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

// One tensor per graph input. Each input draws from its own Rng seeded by the session seed and
// the input's name, so adding or removing an input leaves the values of the others unchanged.
// When an input's values are restricted to a domain, a line saying so is appended to notes
// ("x: positive values (log needs them)"); notes may be null.
TensorMap generate_inputs(const Graph& g, uint64_t seed, std::vector<std::string>* notes);

}  // namespace retort
