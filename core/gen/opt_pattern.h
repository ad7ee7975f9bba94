// OATest's optimization-aware patterns (seeds/004, docs/techniques.md): small graphs taken from a
// compiler's own optimizer tests, each aimed at one pass. A pattern's inputs are the edges it
// needs from a context and its outputs the edges it gives back; weave.h puts it into a seed graph.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/graph/graph.h"

namespace retort {

struct OptPattern {
  std::string name;    // the file stem: "conv_bn"
  std::string pass;    // the optimizer pass it targets: "ConvBNFusion"
  std::string test;    // the compiler test it was taken from: "FuseConvBNNoBias"
  std::string source;  // where that test lives (a link)
  // Registry ops the pass removes when it fires (a fused Relu, an eliminated Expand): the
  // trigger check counts them in the compiler's optimized graph.
  std::vector<std::string> fires;
  Graph graph;  // typed (infer_graph)
};

// A pattern from .rtg text whose leading comment block holds `# key: value` lines for pass, test,
// source and fires (comma-separated op names). Throws Error with file:line for a missing key, an
// unknown op in fires, or a graph error.
OptPattern parse_opt_pattern(std::string_view text, const std::string& file);

// The patterns compiled in from samples/patterns/*.rtg, by name.
const std::vector<OptPattern>& builtin_opt_patterns();
// Throws Error listing the known names when `name` is none of them.
const OptPattern& get_opt_pattern(std::string_view name);

}  // namespace retort
