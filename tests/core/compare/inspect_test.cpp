#include "core/compare/inspect.h"

#include <gtest/gtest.h>

#include "core/backend/ref_backend.h"
#include "core/exec/inputs.h"
#include "core/io/rtg.h"
#include "core/session/session.h"
#include "tests/core/compare/wrong_backend.h"

#include "tests/support/fig6.h"

namespace retort {
namespace {

const char* kChain = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
a = add(x, y)
m = mul(a, y)
n = neg(m)
out = add(n, x)
output out
)";

TEST(CompareInspect, FindsTheFirstWrongNodeAgainstTheReference) {
  Graph g = parse_rtg(kChain);
  WrongBackend wrong("bad", {"m", "n", "out"});
  RefBackend ref;
  auto pairs = pair_by_names(g, g);
  ASSERT_EQ(pairs.size(), 4u);
  InspectResult r = run_inspect({"g on bad", &g, &wrong}, {"g on ref", &g, &ref}, pairs,
                                generate_inputs(g, 1, nullptr), {});
  EXPECT_TRUE(r.failure.empty()) << r.failure;
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.node_a, "m");
  EXPECT_EQ(r.op_a, "mul");
  EXPECT_EQ(r.value_b, "m");
  EXPECT_EQ(r.pairs, 2u);
  EXPECT_EQ(r.diff.mismatched, 1);
  EXPECT_NE(r.summary_a.find("f32[2,3]"), std::string::npos);
}

// A cut graph (a node fed from the reference) passes an input through to an output; a backend
// that returns it changed diverges at a value no node makes, which names no node.
TEST(CompareInspect, AnInputPassedThroughToAWrongOutputNamesNoNode) {
  Graph g = parse_rtg("graph g\ninput x : f32[2]\ninput d : f32[2]\ny = neg(x)\noutput y, d\n");
  WrongBackend wrong("bad", {"d"});
  RefBackend ref;
  InspectResult r = run_inspect({"g on bad", &g, &wrong}, {"g on ref", &g, &ref},
                                {{"y", "y"}, {"d", "d"}}, generate_inputs(g, 1, nullptr), {});
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.value_a, "d");
  EXPECT_EQ(r.node_a, "");
  EXPECT_EQ(r.op_a, "");
}

TEST(CompareInspect, AgreeingRunsDoNotDiverge) {
  Graph g = parse_rtg(kChain);
  RefBackend ref1, ref2;
  InspectResult r = run_inspect({"a", &g, &ref1}, {"b", &g, &ref2}, pair_by_names(g, g),
                                generate_inputs(g, 2, nullptr), {});
  EXPECT_FALSE(r.diverged);
  EXPECT_EQ(r.pairs, 4u);
}

TEST(CompareInspect, FailedRunIsReported) {
  Graph g = parse_rtg(kChain);
  FailingBackend crash("c", RunStatus::Crash);
  RefBackend ref;
  InspectResult r = run_inspect({"g on c", &g, &crash}, {"g on ref", &g, &ref}, pair_by_names(g, g),
                                generate_inputs(g, 2, nullptr), {});
  EXPECT_NE(r.failure.find("g on c: crash"), std::string::npos);
}

// POLYJUICE Fig. 6: the minimal variant computes add(I1, trans(add(I2, I3))); the e-graph maps
// its final sum to the original's `out`, and nothing else of it to the original's values.
TEST(CompareInspect, EGraphClassesPairEqualValuesAcrossVariants) {
  Session s;
  testing::load_fig6(s);
  s.build_egraph();
  s.run_rules({}, "saturate");
  s.extract_variant({}, "", "extract min");
  const Graph& original = s.graph();
  const Graph& min = s.variant("min");
  auto classes = value_classes(s.egraph().eg, min);
  EXPECT_EQ(classes.size(), 3u + min.nodes.size());
  auto pairs = pair_by_classes(s.egraph().eg, original, min);
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(pairs.back().a, "out");
  EXPECT_EQ(pairs.back().b, min.outputs[0]);
  EXPECT_EQ(min.producer(min.outputs[0])->inputs[0] == "I1" ||
                min.producer(min.outputs[0])->inputs[1] == "I1",
            true);
  // The same wrong kernel in both: the first divergence is the sum, named in both graphs.
  WrongBackend wrong_a("bad", {"out"});
  WrongBackend wrong_b("bad", {});
  InspectResult r = run_inspect({"original", &original, &wrong_a}, {"min", &min, &wrong_b}, pairs,
                                generate_inputs(original, 1, nullptr), {});
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.node_a, original.producer("out")->name);
  EXPECT_EQ(r.value_b, min.outputs[0]);
}

}  // namespace
}  // namespace retort
