#include "core/rules/runner.h"

#include <gtest/gtest.h>

#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "core/egraph/render.h"
#include "core/exec/interpreter.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/rules/rules_test_util.h"

namespace retort {
namespace {

using testing::GraphBuilder;

// POLYJUICE Fig. 6: add(add(I1, trans(I2)), trans(I3)) over square rank-2 inputs.
Graph fig6_graph() {
  GraphBuilder gb;
  TensorType t{DType::f32, {3, 3}};
  auto i1 = gb.input("I1", t);
  auto i2 = gb.input("I2", t);
  auto i3 = gb.input("I3", t);
  Attrs swap{{"perm", std::vector<int64_t>{1, 0}}};
  auto inner = gb.node("add", {i1, gb.node("transpose", {i2}, swap)});
  return gb.done({gb.node("add", {inner, gb.node("transpose", {i3}, swap)})});
}

TEST(RulesRunner, Fig6SaturatesAndExtractsTheSimplestForm) {
  Graph g = fig6_graph();
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  RuleSet rules = builtin_rules("fig6");
  RunnerOptions opts;
  opts.time_limit_seconds = 0;
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  EXPECT_EQ(rep.stop, StopReason::Saturated) << rep.str();

  ExtractOptions min;
  Extraction ex = extract(eg, meta, min);
  EXPECT_EQ(selection_str(eg, ex.selection, meta.root),
            "(graph_out (add I1 (transpose (add I2 I3) perm=[1,0])))");
  EXPECT_EQ(ex.op_count, 3u);

  // The extracted graph computes what the original does.
  Rng rng(7);
  TensorMap inputs;
  for (const auto& in : g.inputs) inputs[in.name] = random_tensor(in.type, rng);
  TensorMap want = evaluate(g, inputs), got = evaluate(ex.graph, inputs);
  ASSERT_EQ(got.size(), 1u);
  const Tensor& a = want.begin()->second;
  const Tensor& b = got.begin()->second;
  ASSERT_EQ(a.type(), b.type());
  for (int64_t i = 0; i < a.numel(); ++i) EXPECT_NEAR(a.get(i), b.get(i), 1e-6);
}

TEST(RulesRunner, ReportsEachIteration) {
  Graph g = fig6_graph();
  EGraph eg;
  add_graph(eg, g);
  RuleSet rules = builtin_rules("fig6");
  RunnerOptions opts;
  opts.iter_limit = 2;
  opts.time_limit_seconds = 0;
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  EXPECT_EQ(rep.stop, StopReason::IterationLimit);
  ASSERT_EQ(rep.iterations.size(), 2u);
  const IterationReport& first = rep.iterations[0];
  ASSERT_EQ(first.rules.size(), 3u);
  EXPECT_EQ(first.rules[0].rule, "fig6-add-transpose");
  EXPECT_EQ(first.rules[0].matches, 2u);
  EXPECT_EQ(first.rules[0].applied, 2u);
  EXPECT_EQ(first.rules[1].matches, 1u);  // assoc: the outer add
  EXPECT_EQ(first.rules[2].matches, 0u);  // no transpose of a transpose yet
  EXPECT_EQ(first.applied, 3u);
  EXPECT_EQ(first.nodes, eg.node_count() - (rep.iterations[1].nodes - first.nodes));
  EXPECT_EQ(rep.iterations[1].stop, StopReason::IterationLimit);
  EXPECT_FALSE(first.stop.has_value());
  EXPECT_EQ(trace.steps.size(), first.applied + rep.iterations[1].applied);
  EXPECT_EQ(trace.steps.back().iteration, 1u);
  std::string text = rep.str();
  EXPECT_NE(text.find("fig6-add-transpose"), std::string::npos) << text;
  EXPECT_NE(text.find("stopped: iteration limit after 2 iteration(s)"), std::string::npos) << text;
}

RuleSet explosive_rules() {
  return parse_rules(R"(
rule comm (add ?x ?y) => (add ?y ?x)
rule assoc (add (add ?x ?y) ?z) => (add ?x (add ?y ?z))
rule assoc-rev (add ?x (add ?y ?z)) => (add (add ?x ?y) ?z)
rule wrap (add ?x ?y) => (transpose (add (transpose ?x :perm (swap n a b)) (transpose ?y :perm (swap n a b))) :perm (swap n a b))
  if (= (rank ?x) (rank ?y))
  let n = (rank ?x)
  pick a in 0 .. (- n 1)
  pick b in 0 .. (- n 1) where (!= a b)
)");
}

Graph chain_graph(int n) {
  GraphBuilder gb;
  TensorType t{DType::f32, {2, 2, 2}};
  std::string v = gb.input("x0", t);
  for (int i = 1; i <= n; ++i) v = gb.node("add", {v, gb.input("x" + std::to_string(i), t)});
  return gb.done({v});
}

TEST(RulesRunner, NodeLimitStops) {
  EGraph eg;
  add_graph(eg, chain_graph(4));
  RuleSet rules = explosive_rules();
  RunnerOptions opts;
  opts.node_limit = 100;
  opts.time_limit_seconds = 0;
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  EXPECT_EQ(rep.stop, StopReason::NodeLimit);
  EXPECT_GE(eg.node_count(), 100u);
  EXPECT_LT(eg.node_count(), 200u);  // stops within an application of the limit
}

TEST(RulesRunner, CancelledAndTimeLimit) {
  RuleSet rules = explosive_rules();
  std::atomic<bool> cancel{true};
  {
    EGraph eg;
    add_graph(eg, chain_graph(4));
    RunnerOptions opts;
    opts.cancel = &cancel;
    RewriteTrace trace;
    RunReport rep = Runner(eg, rules, opts).run(trace);
    EXPECT_EQ(rep.stop, StopReason::Cancelled);
    EXPECT_TRUE(trace.steps.empty());
  }
  {
    EGraph eg;
    add_graph(eg, chain_graph(8));
    RunnerOptions opts;
    opts.time_limit_seconds = 1e-9;
    opts.node_limit = 1000000;
    opts.iter_limit = 1000;
    RewriteTrace trace;
    RunReport rep = Runner(eg, rules, opts).run(trace);
    EXPECT_EQ(rep.stop, StopReason::TimeLimit);
    EXPECT_EQ(rep.iterations.size(), 1u);
  }
}

TEST(RulesRunner, BackoffBansExplosiveRules) {
  EGraph eg;
  add_graph(eg, chain_graph(6));
  RuleSet rules = explosive_rules();
  RunnerOptions opts;
  opts.scheduler = SchedulerKind::Backoff;
  opts.backoff = BackoffOptions{8, 2};
  opts.node_limit = 20000;
  opts.iter_limit = 6;
  opts.time_limit_seconds = 0;
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  bool banned = false;
  for (const auto& it : rep.iterations)
    for (const auto& r : it.rules) banned = banned || r.banned;
  EXPECT_TRUE(banned) << rep.str();
  EXPECT_NE(rep.str().find("banned"), std::string::npos);
}

TEST(RulesRunner, CapsSampleMatches) {
  EGraph eg;
  add_graph(eg, chain_graph(3));
  RuleSet rules = parse_rules(R"(
rule s ?x => (split@r/2 (concat ?x ?x :axis 0) :axis 0)
  pick r in 0 .. 1
  cap 2
)");
  RunnerOptions opts;
  opts.iter_limit = 1;
  opts.time_limit_seconds = 0;
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  ASSERT_EQ(rep.iterations.size(), 1u);
  const RuleReport& r = rep.iterations[0].rules[0];
  EXPECT_EQ(r.matches, 7u);  // x0..x3 and three adds
  EXPECT_EQ(r.capped, 5u);
  EXPECT_EQ(r.applied, 2u);
  EXPECT_EQ(trace.steps.size(), 2u);
}

TEST(RulesRunner, MatchListingAndApplyByNumber) {
  EGraph eg;
  add_graph(eg, fig6_graph());
  RuleSet rules = builtin_rules("fig6");
  const Rule& wrap = rules.get("fig6-add-transpose");
  auto ms = search(eg, wrap);
  // Bindings by class id, then the term cut to a line (it was 4,400 characters on a real model).
  EXPECT_EQ(
      match_listing(eg, wrap, ms),
      "   1. e4  ?x=e0 ?y=e3  (add I1 (transpose I2 perm=[1,0]))\n"
      "   2. e6  ?x=e4 ?y=e5  (add (add I1 (transpose I2 perm=[1,0])) (transpose I3 per...\n");
  Rng rng(0);
  RewriteTrace trace;
  ApplyResult r = apply_match_number(eg, wrap, 2, rng, trace);
  EXPECT_EQ(r.outcome, ApplyOutcome::Applied);
  EXPECT_TRUE(eg.clean());
  EXPECT_EQ(trace.steps.size(), 1u);
  EXPECT_EQ(trace.iteration, 1u);
  EXPECT_THROW(apply_match_number(eg, wrap, 9, rng, trace), Error);
  EXPECT_THROW(apply_match_number(eg, wrap, 0, rng, trace), Error);
}

}  // namespace
}  // namespace retort
