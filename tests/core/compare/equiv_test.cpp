#include "core/compare/equiv.h"

#include <gtest/gtest.h>

#include "core/io/graph_files.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

const std::string kSamples = RETORT_SOURCE_DIR "/samples/";

TEST(Equiv, ProvesFig6WithItsRulesAndPrintsTheSteps) {
  Graph a = load_graph_file(kSamples + "polyjuice/fig6.rtg");
  Graph b = load_graph_file(kSamples + "polyjuice/fig6_simplified.rtg");
  RuleSet rules = load_rules_file(kSamples + "rules/fig6.rules");
  EquivResult r = prove_equivalent(a, b, rules, {});
  ASSERT_TRUE(r.proven) << r.stopped;
  ASSERT_EQ(r.proofs.size(), 1u);
  EXPECT_FALSE(r.proofs[0].steps.empty());
  std::string text = r.proofs[0].str();
  EXPECT_NE(text.find("fig6-add-assoc"), std::string::npos) << text;
  EXPECT_NE(text.find("(add I1 (transpose (add I2 I3) perm=[1,0]))"), std::string::npos) << text;
  EXPECT_FALSE(r.counterexample_seed);
}

TEST(Equiv, WithoutAProofSeededInputsFindACounterexample) {
  Graph a = load_graph_file(kSamples + "polyjuice/fig6.rtg");
  Graph b = parse_rtg(R"(graph w
input I1 : f32[3,4]
input I2 : f32[4,3]
input I3 : f32[4,3]
s = sub(I2, I3)
t = transpose(s, perm=[1,0])
out = add(I1, t)
output out
)");
  RuleSet rules = load_rules_file(kSamples + "rules/fig6.rules");
  EquivOptions o;
  o.iter_limit = 3;
  o.seed = 5;
  EquivResult r = prove_equivalent(a, b, rules, o);
  EXPECT_FALSE(r.proven);
  EXPECT_EQ(r.stopped, "iteration limit");
  ASSERT_TRUE(r.counterexample_seed);
  EXPECT_EQ(*r.counterexample_seed, 5u);
  EXPECT_NE(r.counterexample.find("mismatch"), std::string::npos);

  // Equal but beyond the rules: no proof, and no counterexample either.
  Graph c = parse_rtg("graph c\ninput x : f32[3]\nn = neg(x)\noutput n\n");
  Graph d = parse_rtg("graph d\ninput x : f32[3]\nz = sub(x, x)\nn = sub(z, x)\noutput n\n");
  EquivResult none = prove_equivalent(c, d, rules, o);
  EXPECT_FALSE(none.proven);
  EXPECT_EQ(none.stopped, "saturated");
  EXPECT_FALSE(none.counterexample_seed);
  EXPECT_EQ(none.tried, 20u);
}

TEST(Equiv, VariantsMustHaveTheOriginalsInterface) {
  Graph a = parse_rtg("graph a\ninput x : f32[3]\nn = neg(x)\noutput n\n");
  Graph same = parse_rtg("graph b\ninput x : f32[3]\nm = abs(x)\noutput m\n");
  Graph renamed = parse_rtg("graph b\ninput y : f32[3]\nm = neg(y)\noutput m\n");
  Graph other_type =
      parse_rtg("graph b\ninput x : f32[3]\nm = reduce_sum(x, axes=[0])\noutput m\n");
  Graph two_outputs = parse_rtg("graph b\ninput x : f32[3]\nk = abs(x)\nm = neg(x)\noutput k, m\n");
  Graph no_outputs = parse_rtg("graph b\ninput x : f32[3]\nm = neg(x)\noutput x\n");
  EXPECT_NO_THROW(check_variant_interface(a, same, "b"));
  EXPECT_THROW(check_variant_interface(a, renamed, "b"), Error);
  EXPECT_THROW(check_variant_interface(a, other_type, "b"), Error);
  // A variant may expose more outputs: m is n by value, k is extra.
  OutputMatch m = check_variant_interface(a, two_outputs, "b");
  EXPECT_EQ(m.of_original, std::vector<size_t>{1});
  EXPECT_EQ(m.extra, std::vector<size_t>{0});
  EXPECT_NO_THROW(check_variant_interface(a, no_outputs, "b"));  // by position, same type
}

// equiv proves each output of the graph with fewer outputs equal to its match in the other, in
// either argument order.
TEST(Equiv, ProvesAVariantWithReorderedAndExtraOutputs) {
  Graph a = parse_rtg("graph a\ninput x : f32[3]\nn = neg(x)\nr = relu(x)\noutput n, r\n");
  Graph b =
      parse_rtg("graph b\ninput x : f32[3]\nq = relu(x)\ne = exp(x)\np = neg(x)\noutput e, q, p\n");
  RuleSet rules = load_rules_file(kSamples + "rules/fig6.rules");
  for (bool swapped : {false, true}) {
    EquivResult r = swapped ? prove_equivalent(b, a, rules, {}) : prove_equivalent(a, b, rules, {});
    EXPECT_TRUE(r.proven) << r.stopped;
    ASSERT_EQ(r.pairs.size(), 2u);
    auto want = swapped ? std::pair<size_t, size_t>{2, 0} : std::pair<size_t, size_t>{0, 2};
    EXPECT_EQ(r.pairs[0], want);
  }
}

}  // namespace
}  // namespace retort
