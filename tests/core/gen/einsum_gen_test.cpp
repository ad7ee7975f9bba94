#include "core/gen/einsum_gen.h"

#include <set>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/exec/inputs.h"
#include "core/exec/interpreter.h"
#include "core/ops/attrs.h"

namespace retort {
namespace {

// Algorithm 3's promises, on a thousand seeds: ranks within Rmax, the output a subset of the
// used labels, every summed label in two operands or more, one size per label (so the graph
// types), and the same seed giving the same einsum.
TEST(EinsumGen, ThousandSeedsAreValidByConstruction) {
  EinsumGenOptions o;
  o.max_inputs = 4;
  size_t with_sum = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    Rng rng(seed);
    EinsumSpec spec = generate_einsum(o, rng);
    SCOPED_TRACE(spec.equation());
    ASSERT_GE(spec.operands.size(), 2u);
    std::map<char, int> uses;
    for (const auto& term : spec.operands) {
      EXPECT_GE(term.size(), 1u);
      EXPECT_LE(static_cast<int>(term.size()), o.max_rank);
      for (char c : term) ++uses[c];
    }
    for (char c : spec.output) EXPECT_TRUE(uses.count(c)) << c;
    for (char c : spec.summed()) EXPECT_GE(uses[c], 2) << c;
    with_sum += !spec.summed().empty();
    Graph g = einsum_graph(spec, DType::f32);  // throws if the shapes do not fit
    EXPECT_EQ(g.type_of("A").shape, spec.shape_of(spec.output));
    Rng again(seed);
    EXPECT_EQ(generate_einsum(o, again).equation(), spec.equation());
  }
  EXPECT_GT(with_sum, 500u);  // most draws contract something
}

TEST(EinsumGen, BadOptionsAreErrors) {
  Rng rng(1);
  EXPECT_THROW(generate_einsum({.min_inputs = 1}, rng), Error);
  EXPECT_THROW(generate_einsum({.max_rank = 7, .pool = 6}, rng), Error);
  EXPECT_THROW(generate_einsum({.pool = 27}, rng), Error);
}

// The commutativity mutation computes the same values, exactly in an integer dtype.
TEST(EinsumGen, PermutedOperandsComputeTheSame) {
  EinsumGenOptions o;
  o.min_inputs = 3;
  o.max_inputs = 3;
  o.dtype = DType::i64;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Rng rng(seed);
    Graph g = einsum_graph(generate_einsum(o, rng), o.dtype);
    Graph p = permute_einsum_operands(g, rng);
    const Node& n = p.nodes[0];
    EXPECT_NE(n.inputs, g.nodes[0].inputs);
    EXPECT_NE(attr_string(n.attrs, "equation"), attr_string(g.nodes[0].attrs, "equation"));
    TensorMap inputs = generate_inputs(g, seed, nullptr);
    EXPECT_TRUE(evaluate(g, inputs).at("A") == evaluate(p, inputs).at("A")) << seed;
  }
}

}  // namespace
}  // namespace retort
