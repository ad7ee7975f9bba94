// OATest's weaving: every pattern goes into many generated seed graphs and the result types, and
// is the same for the same seed; each way of feeding a pattern input (same type, relaxed,
// bridged) is taken.
#include "core/gen/weave.h"

#include <gtest/gtest.h>

#include "core/campaign/campaign_options.h"
#include "core/exec/inputs.h"
#include "core/exec/interpreter.h"
#include "core/gen/graph_gen.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

Graph typed(const char* text) {
  Graph g = parse_rtg(text, "seed.rtg");
  infer_graph(g);
  return g;
}

size_t count_op(const Graph& g, const std::string& op) {
  size_t n = 0;
  for (const Node& node : g.nodes) n += node.op == op;
  return n;
}

TEST(Weave, EveryPatternIntoManyGeneratedGraphsTypes) {
  GenOptions gen = CampaignOptions::default_gen();
  size_t relaxed = 0, bridged = 0;
  for (const OptPattern& p : builtin_opt_patterns()) {
    for (uint64_t seed = 0; seed < 40; ++seed) {
      SCOPED_TRACE(p.name + " seed " + std::to_string(seed));
      Graph base = generate_graph(gen, seed);
      Rng rng(seed);
      WeaveReport report;
      Graph woven;
      ASSERT_NO_THROW(woven = weave_pattern(base, p, rng, &report));
      EXPECT_EQ(woven.op_count(), base.op_count() + p.graph.op_count() + report.bridge_nodes);
      EXPECT_EQ(report.inputs.size(), p.graph.inputs.size());
      EXPECT_EQ(report.outputs.size(), p.graph.outputs.size());
      for (const std::string& op : p.fires) EXPECT_GT(count_op(woven, op), count_op(base, op));
      EXPECT_EQ(woven.inputs.size(), base.inputs.size());  // the pattern reads the context
      for (const auto& in : report.inputs) {
        relaxed += in.find("(relaxed to") != std::string::npos;
        bridged += in.find(" via ") != std::string::npos;
      }
    }
  }
  EXPECT_GT(relaxed, 0u);
  EXPECT_GT(bridged, 0u);
}

TEST(Weave, TheSameSeedGivesTheSameGraph) {
  Graph base = generate_graph(CampaignOptions::default_gen(), 7);
  const OptPattern& p = get_opt_pattern("conv_bn");
  Rng a(3), b(3), c(4);
  std::string first = print_rtg(weave_pattern(base, p, a));
  EXPECT_EQ(first, print_rtg(weave_pattern(base, p, b)));
  bool differs = false;
  for (int i = 0; i < 8 && !differs; ++i) differs = print_rtg(weave_pattern(base, p, c)) != first;
  EXPECT_TRUE(differs);
}

// A seed with values of exactly the types the pattern reads feeds them unchanged (a generated
// seed, with its own small shapes, rarely has them); the woven graph runs.
TEST(Weave, AHandMadeSeedKeepsItsInputsAndFeedsThePattern) {
  Graph seed = typed(
      "input a : f32[3,4]\n"
      "input c : bool[3,4]\n"
      "b = relu(a)\n"
      "d = neg(b)\n"
      "output d\n");
  const OptPattern& p = get_opt_pattern("not_where");
  for (uint64_t s = 0; s < 20; ++s) {
    Rng rng(s);
    WeaveReport report;
    Graph w = weave_pattern(seed, p, rng, &report);
    SCOPED_TRACE(print_rtg(w));
    ASSERT_EQ(w.inputs.size(), 2u);
    // Every pattern input has a same-typed context value: nothing needs a bridge.
    EXPECT_EQ(report.bridge_nodes, 0u);
    for (const auto& in : report.inputs) EXPECT_NE(in.find("(same type)"), std::string::npos);
    for (const Node& n : w.nodes) {
      if (n.op == "not") {
        EXPECT_EQ(n.inputs[0], "c");
      }
    }
    TensorMap inputs = generate_inputs(w, s, nullptr);
    EXPECT_NO_THROW(evaluate(w, inputs));
  }
}

TEST(Weave, ABridgeReshapesPadsAndCasts) {
  Graph seed = typed(
      "input a : i32[5]\n"
      "b = neg(a)\n"
      "output b\n");
  const OptPattern& p = get_opt_pattern("conv_bn");  // wants f32[1,3,8,8]
  Rng rng(1);
  WeaveReport report;
  Graph w = weave_pattern(seed, p, rng, &report);
  EXPECT_GT(report.bridge_nodes, 0u);
  EXPECT_EQ(count_op(w, "pad"), 1u);
  EXPECT_EQ(count_op(w, "cast"), 1u);
  TensorMap inputs = generate_inputs(w, 1, nullptr);
  EXPECT_NO_THROW(evaluate(w, inputs));
}

// A generated seed may have no graph inputs at all: its constants are context too, also before
// its first node.
TEST(Weave, ConstantsFeedThePattern) {
  Graph seed = typed(
      "const c : f32[3,4] = fill(1.5)\n"
      "y = relu(c)\n"
      "output y\n");
  for (uint64_t s = 0; s < 10; ++s) {
    Rng rng(s);
    EXPECT_NO_THROW(weave_pattern(seed, get_opt_pattern("expand_elim"), rng));
  }
}

TEST(Weave, ASeedWithNothingToOfferIsAnError) {
  Graph empty;
  EXPECT_THROW(
      {
        Rng rng(1);
        weave_pattern(empty, get_opt_pattern("conv_bn"), rng);
      },
      Error);
}

}  // namespace
}  // namespace retort
