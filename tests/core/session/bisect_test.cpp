#include "core/session/bisect.h"

#include <gtest/gtest.h>

#include "core/io/rtg.h"
#include "core/rules/runner.h"

namespace retort {
namespace {

const char* kMulNeg = R"(graph g
input a : f32[2,3,4]
input b : f32[2,3,4]
m = mul(a, b)
out = neg(m)
output out
)";

bool has_op(const Graph& g, const std::string& op) {
  for (const Node& n : g.nodes)
    if (n.op == op) return true;
  return false;
}

struct Saturated {
  Session s;
  Saturated() {
    s.set_graph(parse_rtg(kMulNeg));
    s.build_egraph();
    RunnerOptions limits;
    limits.iter_limit = 2;
    s.run_rules(limits, "saturate");
    ExtractOptions max;
    max.mode = ExtractMode::Max;
    s.extract_variant(max, "max", "extract max");
  }
  TraceStates states() {
    const Variant& v = s.variant_info("max");
    return TraceStates(s.egraph().start, s.rules().all(), s.egraph().trace, v.trace_length,
                       *v.selection);
  }
};

TEST(TraceStates, RunFromTheOriginalToTheVariant) {
  Saturated x;
  TraceStates states = x.states();
  ASSERT_GT(states.length(), 1u);
  EXPECT_EQ(print_rtg(states.at(0).graph), print_rtg(x.s.graph()));
  EXPECT_EQ(print_rtg(states.at(states.length()).graph), print_rtg(x.s.variant("max")));
  EXPECT_THROW(states.at(states.length() + 1), Error);
  // On this graph each step only adds choices of the variant: op counts never drop.
  size_t previous = 0;
  for (size_t t = 0; t <= states.length(); ++t) {
    size_t ops = states.at(t).graph.op_count();
    EXPECT_GE(ops, previous) << "state " << t;
    previous = ops;
  }
}

// A stand-in for a backend that miscompiles transpose: a state fails when it has one. The
// original has none, so the flipping step is a rule that brings transposes in, and the pair is
// one rewrite apart.
TEST(TraceStates, BisectFindsTheRewriteThatBringsTheFailureIn) {
  Saturated x;
  TraceStates states = x.states();
  BisectResult r = bisect_states(states, x.s.egraph().trace,
                                 [](const Graph& g) { return has_op(g, "transpose"); });
  EXPECT_FALSE(has_op(r.passing, "transpose"));
  EXPECT_TRUE(has_op(r.failing, "transpose"));
  EXPECT_NE(r.step.rule.find("transpose-wrap"), std::string::npos) << r.step.rule;
  EXPECT_EQ(r.step.step, r.pass_state);
  EXPECT_LE(r.tried, 2 + 6u);  // two ends and log2 of the states in between
  // One mul-transpose-wrap: three transposes around the mul.
  EXPECT_EQ(r.failing.op_count(), r.passing.op_count() + 3);

  EXPECT_THROW(bisect_states(states, x.s.egraph().trace, [](const Graph&) { return true; }), Error);
  EXPECT_THROW(bisect_states(states, x.s.egraph().trace, [](const Graph&) { return false; }),
               Error);
}

}  // namespace
}  // namespace retort
