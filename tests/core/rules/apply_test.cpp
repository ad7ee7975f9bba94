#include "core/rules/apply.h"

#include <gtest/gtest.h>

#include "core/egraph/convert.h"
#include "core/egraph/render.h"
#include "core/rules/runner.h"
#include "tests/core/rules/rules_test_util.h"

namespace retort {
namespace {

using testing::GraphBuilder;

// out = add(a, b) over f32[2,3,4] and f32[3,4]
struct AddGraph {
  AddGraph() {
    GraphBuilder gb;
    auto a = gb.input("a", {DType::f32, {2, 3, 4}});
    auto b = gb.input("b", {DType::f32, {3, 4}});
    graph = gb.done({gb.node("add", {a, b})});
    meta = add_graph(eg, graph);
    eg.rebuild();
  }
  EClassId out() const { return eg.find(eg.eclass(meta.root).nodes[0].children[0]); }
  Graph graph;
  EGraph eg;
  GraphMeta meta;
};

TEST(RulesRewrite, AppliesAndRecordsTheStep) {
  AddGraph g;
  RuleSet rules = parse_rules("rule add-comm (add ?x ?y) => (add ?y ?x)");
  auto ms = search(g.eg, rules.rules[0]);
  ASSERT_EQ(ms.size(), 1u);
  Rng rng(1);
  RewriteTrace trace;
  ApplyResult r = apply_match(g.eg, rules.rules[0], ms[0], rng, trace);
  EXPECT_EQ(r.outcome, ApplyOutcome::Applied);
  g.eg.rebuild();
  EXPECT_TRUE(g.eg.same(r.rhs, g.out()));
  EXPECT_EQ(g.eg.eclass(g.out()).nodes.size(), 2u);
  ASSERT_EQ(trace.steps.size(), 1u);
  const TraceStep& s = trace.steps[0];
  EXPECT_EQ(s.rule, "add-comm");
  StepText text = step_text(g.eg, rules.rules[0], s);
  EXPECT_EQ(text.matched, "(add a b)");
  EXPECT_EQ(text.subst, "?x = a, ?y = b");
  EXPECT_EQ(text.rhs, "(add b a)");
  EXPECT_EQ(s.nodes_after, g.eg.node_count());
  EXPECT_EQ(step_str(g.eg, rules, s),
            "rewrite #1: add-comm e2 (add a b) => (add b a) [?x = a, ?y = b] nodes=5 classes=4");
  EXPECT_EQ(step_str(g.eg, RuleSet{}, s),
            "rewrite #1: add-comm e2 (add a b) => (add b a) nodes=5 classes=4");
  // The same match again changes nothing and records nothing.
  auto again = search(g.eg, rules.rules[0]);
  ASSERT_EQ(again.size(), 2u);
  for (const auto& m : again)
    EXPECT_EQ(apply_match(g.eg, rules.rules[0], m, rng, trace).outcome, ApplyOutcome::Unchanged);
  EXPECT_EQ(trace.steps.size(), 1u);
  // The explanation names the rule and the step.
  Explanation ex = g.eg.explain(g.eg.add(*ms[0].node), r.rhs);
  ASSERT_EQ(ex.steps.size(), 1u);
  EXPECT_EQ(ex.steps[0].why.rule, "add-comm");
}

TEST(RulesRewrite, PicksParametersUnderConstraints) {
  AddGraph g;
  RuleSet rules = parse_rules(R"(
rule wrap
  (add ?x ?y)
  => (transpose (add (transpose ?x :perm (swap (rank ?x) r1 r2))
                     (transpose ?y :perm (swap (rank ?y) r3 r4)))
                :perm (swap m r5 r6))
  if (>= (min-rank ?x ?y) 2)
  let m = (max-rank ?x ?y)
  pick r5 in (- m (min-rank ?x ?y)) .. (- m 1)
  pick r6 in (- m (min-rank ?x ?y)) .. (- m 1) where (!= r6 r5)
  let r1 = (+ (- (rank ?x) m) r5)
  let r2 = (+ (- (rank ?x) m) r6)
  let r3 = (+ (- (rank ?y) m) r5)
  let r4 = (+ (- (rank ?y) m) r6)
)");
  const Rule& wrap = rules.rules[0];
  auto ms = search(g.eg, wrap);
  ASSERT_EQ(ms.size(), 1u);
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    AddGraph fresh;
    Rng rng(seed);
    RewriteTrace trace;
    ApplyResult r = apply_match(fresh.eg, wrap, search(fresh.eg, wrap)[0], rng, trace);
    ASSERT_EQ(r.outcome, ApplyOutcome::Applied);
    // m = 3 and both have dims 1, 2 (counted from the right): r5, r6 in {1, 2}, distinct.
    const auto& p = trace.steps[0].params;
    int64_t r5 = std::get<int64_t>(p[1]), r6 = std::get<int64_t>(p[2]);
    EXPECT_TRUE((r5 == 1 && r6 == 2) || (r5 == 2 && r6 == 1));
    EXPECT_EQ(std::get<int64_t>(p[5]), r5 - 1);  // r3 = dim(y) - m + r5
    seen.insert(step_text(fresh.eg, wrap, trace.steps[0]).params);
  }
  EXPECT_EQ(seen.size(), 2u);  // both orders were drawn
}

TEST(RulesRewrite, IllTypedRightHandSideIsRejectedWithoutChange) {
  AddGraph g;
  RuleSet rules = parse_rules("rule r (add ?x ?y) => (concat ?x ?y :axis 0)");
  auto ms = search(g.eg, rules.rules[0]);
  Rng rng(0);
  RewriteTrace trace;
  size_t terms = g.eg.term_count();
  ApplyResult r = apply_match(g.eg, rules.rules[0], ms[0], rng, trace);
  EXPECT_EQ(r.outcome, ApplyOutcome::Rejected);
  EXPECT_NE(r.reason.find("rank"), std::string::npos) << r.reason;
  EXPECT_EQ(g.eg.term_count(), terms);
  EXPECT_TRUE(trace.steps.empty());
  // A right-hand side of another type is rejected too (the rule would be unsound).
  rules = parse_rules("rule r (add ?x ?y) => ?y");
  r = apply_match(g.eg, rules.rules[0], search(g.eg, rules.rules[0])[0], rng, trace);
  EXPECT_EQ(r.outcome, ApplyOutcome::Rejected);
  EXPECT_NE(r.reason.find("f32[3,4]"), std::string::npos) << r.reason;
}

TEST(RulesRewrite, LeavesByNameOnTheRightHandSide) {
  AddGraph g;
  RuleSet rules = parse_rules(R"(
rule named (add a ?y) => (add ?y a)
rule missing (add ?x ?y) => (add ?y nothing)
)");
  Rng rng(0);
  RewriteTrace trace;
  ApplyResult r = apply_match(g.eg, rules.rules[0], search(g.eg, rules.rules[0])[0], rng, trace);
  ASSERT_EQ(r.outcome, ApplyOutcome::Applied);
  EXPECT_EQ(step_text(g.eg, rules.rules[0], trace.steps[0]).rhs, "(add b a)");
  r = apply_match(g.eg, rules.rules[1], search(g.eg, rules.rules[1])[0], rng, trace);
  EXPECT_EQ(r.outcome, ApplyOutcome::Rejected);
  EXPECT_NE(r.reason.find("no input or constant 'nothing'"), std::string::npos) << r.reason;
}

TEST(RulesRewrite, EmptyPickSkips) {
  AddGraph g;
  RuleSet rules = parse_rules("rule r (add ?x ?y) => (add ?y ?x) pick k in 3 .. 2");
  Rng rng(0);
  RewriteTrace trace;
  ApplyResult r = apply_match(g.eg, rules.rules[0], search(g.eg, rules.rules[0])[0], rng, trace);
  EXPECT_EQ(r.outcome, ApplyOutcome::Skipped);
  EXPECT_NE(r.reason.find("no value for k"), std::string::npos) << r.reason;
}

TEST(RulesRewrite, ExposeAddsIntermediateOutputs) {
  GraphBuilder gb;
  TensorType t{DType::f32, {2, 2}};
  auto a = gb.input("a", t);
  auto x = gb.node("mul", {a, a});
  auto y = gb.node("add", {x, a});
  EGraph eg;
  GraphMeta meta = add_graph(eg, gb.done({gb.node("add", {y, x})}));
  eg.rebuild();
  RuleSet rules = parse_rules("rule e expose 5");
  Rng rng(3);
  RewriteTrace trace;
  ApplyResult r = apply_match(eg, rules.rules[0], search(eg, rules.rules[0])[0], rng, trace);
  ASSERT_EQ(r.outcome, ApplyOutcome::Applied);
  eg.rebuild();
  // Intermediates: mul and the inner add (the input a and the output are not candidates).
  const auto& nodes = eg.eclass(meta.root).nodes;
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].children.size() + nodes[1].children.size(), 1u + 3u);
  EXPECT_EQ(trace.steps[0].exposed.size(), 2u);
}

TEST(RulesRewrite, MultiOutputRightHandSide) {
  AddGraph g;
  RuleSet rules = parse_rules(R"(
rule s ?x => (split@r/2 (concat ?x ?x :axis 0) :axis 0)
  if (>= (rank ?x) 1)
  pick r in 0 .. 1
)");
  Rng rng(5);
  RewriteTrace trace;
  auto ms = search_class(g.eg, rules.rules[0], g.out());
  ASSERT_EQ(ms.size(), 1u);
  ApplyResult r = apply_match(g.eg, rules.rules[0], ms[0], rng, trace);
  ASSERT_EQ(r.outcome, ApplyOutcome::Applied);
  g.eg.rebuild();
  EXPECT_TRUE(g.eg.same(r.rhs, g.out()));
  std::string rhs = step_text(g.eg, rules.rules[0], trace.steps[0]).rhs;
  EXPECT_NE(rhs.find("(split (concat (add a b) (add a b) axis=0) axis=0 #"), std::string::npos)
      << rhs;
}

TEST(RulesRewrite, ReplayRebuildsTheSameEGraphBitForBit) {
  RuleSet rules = parse_rules(R"(
rule comm (add ?x ?y) => (add ?y ?x)
rule assoc (add (add ?x ?y) ?z) => (add ?x (add ?y ?z))
rule wrap (add ?x ?y) => (transpose (add (transpose ?x :perm (swap n a b)) (transpose ?y :perm (swap n a b))) :perm (swap n a b))
  if (= (rank ?x) (rank ?y))
  let n = (rank ?x)
  pick a in 0 .. (- n 1)
  pick b in 0 .. (- n 1) where (!= a b)
rule inv (transpose (transpose ?x :perm ?p) :perm ?q) => ?x
  if (is-identity (compose ?p ?q))
rule s ?x => (split@r/2 (concat ?x ?x :axis k) :axis k)
  if (>= (rank ?x) 1)
  pick k in 0 .. (- (rank ?x) 1)
  pick r in 0 .. 1
  cap 2
rule e expose 1 cap 1
)");
  GraphBuilder gb;
  TensorType t{DType::f32, {2, 3, 2}};
  auto a = gb.input("a", t);
  auto b = gb.input("b", t);
  auto c = gb.input("c", t);
  Graph graph = gb.done({gb.node("add", {gb.node("add", {a, b}), c})});

  EGraph first;
  add_graph(first, graph);
  RunnerOptions opts;
  opts.iter_limit = 4;
  opts.node_limit = 5000;
  opts.time_limit_seconds = 0;
  opts.seed = 42;
  RewriteTrace trace;
  Runner runner(first, rules, opts);
  RunReport rep = runner.run(trace);
  EXPECT_EQ(rep.stop, StopReason::IterationLimit);
  ASSERT_GT(trace.steps.size(), 20u);

  EGraph second;
  add_graph(second, graph);
  replay_trace(second, rules, trace);
  testing::expect_same_egraph(first, second);

  // The same seed gives the same run; another seed another one.
  EGraph third;
  add_graph(third, graph);
  RewriteTrace trace3;
  Runner(third, rules, opts).run(trace3);
  testing::expect_same_egraph(first, third);
  EXPECT_EQ(trace_str(third, rules, trace3), trace_str(first, rules, trace));
  EGraph fourth;
  add_graph(fourth, graph);
  RewriteTrace trace4;
  opts.seed = 43;
  Runner(fourth, rules, opts).run(trace4);
  EXPECT_NE(trace_str(fourth, rules, trace4), trace_str(first, rules, trace));

  // A trace of rules the set does not have does not replay.
  EGraph fifth;
  add_graph(fifth, graph);
  try {
    replay_trace(fifth, parse_rules("rule comm (add ?x ?y) => (add ?y ?x)"), trace);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("no rule named"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace retort
