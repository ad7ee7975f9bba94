// How the outputs of compared graphs correspond (docs/compare.md, "Outputs"). A variant may list
// the original's outputs in another order and add outputs of its own: intermediate values
// exposed, POLYJUICE's graph_out(x) -> graph_out(r1, x, r2). Each output of the original is
// matched to one of the variant's by name, then by value identity in an e-graph of both graphs,
// then by position; the variant's other outputs are its extras, compared between variants where
// they denote the same value.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace retort {

struct OutputMatch {
  std::vector<size_t> of_original;  // per output k of the original: the variant's output index
  std::vector<size_t> extra;        // the variant's other outputs, in order
};

// Throws Error naming `variant_name` when an output of the original has no match, or its match
// has another type. Both graphs must have passed infer_graph and share their inputs.
OutputMatch match_outputs(const Graph& original, const Graph& variant,
                          const std::string& variant_name);

// Per graph, per output: equal numbers for outputs known to denote the same value. An e-graph
// of all the graphs (graphs[0] is the original) gives structurally equal values one class; an
// output named after a value of the original, of that value's type, denotes it (the names
// restore_graph gives extracted variants). A graph the e-graph cannot take (a constant name
// bound to another value) gets numbers of its own.
std::vector<std::vector<size_t>> output_values(const std::vector<const Graph*>& graphs);

using OutputPairs = std::vector<std::pair<std::string, std::string>>;

// What a check of graph a against graph b compares, as (a's output, b's output) names: every
// output when a and b are one graph; the original's outputs and their matches when b is the
// original (index 0); else the extras of a and b that denote the same value (each used once).
// `matches` holds match_outputs per graph (entry 0 unused), `values` output_values' numbers
// (only read for two variants).
OutputPairs output_pairs(const std::vector<const Graph*>& graphs,
                         const std::vector<OutputMatch>& matches,
                         const std::vector<std::vector<size_t>>& values, size_t a, size_t b);

// How every graph's outputs correspond, as a compare of `graphs` (graphs[0] the original, each
// named for errors by `names`) matches them: what output_pairs reads for each check.
struct GraphOutputs {
  std::vector<const Graph*> graphs;
  std::vector<OutputMatch> matches;         // per graph; entry 0 unused
  std::vector<std::vector<size_t>> values;  // output_values, when two variants have extras
  size_t with_extras = 0;                   // variants with extra outputs

  OutputPairs pairs(size_t a, size_t b) const {
    return output_pairs(graphs, matches, values, a, b);
  }
};
// Throws Error as match_outputs does.
GraphOutputs match_graph_outputs(std::vector<const Graph*> graphs,
                                 const std::vector<std::string>& names);

}  // namespace retort
