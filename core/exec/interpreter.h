// The reference interpreter: runs a graph with the registry's kernels, exactly and
// deterministically. See docs/reference.md for the numeric rules it follows.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace retort {

using TensorMap = std::map<std::string, Tensor>;

// Called after each node's kernel with the node, its inputs (nullptr for an omitted optional
// one) and its results, which it may change in place (same types): the precision band moves each
// sum by the rounding a compiler summing in the dtype may add (core/compare/precision.cpp).
using AdjustResults =
    std::function<void(const Node&, const std::vector<const Tensor*>&, std::vector<Tensor>&)>;

struct EvalOptions {
  bool keep_intermediates = false;  // return every value, not only the graph outputs
  AdjustResults adjust{};           // empty: results as the kernels give them
};

// Runs g (which must have passed infer_graph) on the given inputs. Throws Error naming the node
// when a kernel fails, an input is missing or of the wrong type, or a node is opaque.
TensorMap evaluate(const Graph& g, const TensorMap& inputs, const EvalOptions& options = {});

}  // namespace retort
