// TENSURE's einsum generator (Algorithm 3 of seeds/003) and its operand-permutation mutation.
// An einsum is drawn as labelled operands over an index pool, checked valid by construction:
// every output label is used by an input, every summed (contraction) label appears in at least
// two inputs, and each label has one size. docs/techniques.md compares it with the paper.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/rng.h"
#include "core/graph/graph.h"

namespace retort {

struct EinsumGenOptions {
  int min_inputs = 2, max_inputs = 3;  // N, drawn from [min, max]
  int max_rank = 3;                    // Rmax of each input
  int pool = 6;                        // |I|: the labels a, b, c, ...
  int64_t max_dim = 4;                 // each label's size is drawn from [1, max_dim]
  DType dtype = DType::f32;            // an integer dtype avoids tolerance questions
};

struct EinsumSpec {
  std::vector<std::string> operands;  // each input's labels, in axis order: "ij", "jk"
  std::string output;                 // the output's labels: "ik"
  std::vector<int64_t> sizes;         // by label: sizes[c - 'a']

  std::string equation() const;  // "ij,jk->ik"
  std::string summed() const;    // the labels the output leaves out, each once: "j"
  Shape shape_of(const std::string& labels) const;
};

// Algorithm 3. Step 3 adds a summed label used once to another input that has room below
// max_rank; when none has, the label joins the output instead (a preserved axis), so that
// ranks stay within max_rank as step 1 promised. Throws Error on malformed options.
EinsumSpec generate_einsum(const EinsumGenOptions& options, Rng& rng);

// A graph of one einsum node: inputs B1..BN of the operands' shapes, output A.
Graph einsum_graph(const EinsumSpec& spec, DType dtype);

// TENSURE's commutativity mutation on every einsum node of g: its operands (the node's inputs
// and their terms in the equation) in the order `order` draws (a permutation other than the
// identity when the node has two or more operands). The result computes the same values.
Graph permute_einsum_operands(const Graph& g, Rng& rng);

}  // namespace retort
