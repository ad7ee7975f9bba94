#include "core/rules/apply_plan.h"

#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/egraph/attrs_scope.h"
#include "core/egraph/convert.h"
#include "core/rules/apply.h"
#include "core/rules/runner.h"
#include "tests/core/rules/rules_test_util.h"
#include "tests/support/random_graph.h"

namespace retort {
namespace {

using testing::GraphBuilder;

// The same rules with planning turned off: their applications evaluate every clause.
RuleSet unplanned(RuleSet rules) {
  for (Rule& r : rules.rules) r.plannable = false;
  return rules;
}

// Tensors of ranks 1 to 4, combined so that the rules below meet every rank: broadcasting adds
// and muls, matmuls, a concat over an attribute the rules read.
Graph mixed_ranks() {
  GraphBuilder gb;
  auto a = gb.input("a", {DType::f32, {4}});
  auto b = gb.input("b", {DType::f32, {3, 4}});
  auto c = gb.input("c", {DType::f32, {1, 3, 4}});
  auto d = gb.input("d", {DType::f32, {2, 2, 3, 4}});
  auto e = gb.input("e", {DType::f32, {4, 3}});
  auto ab = gb.node("add", {a, b});
  auto bc = gb.node("mul", {b, c});
  auto cd = gb.node("add", {c, d});
  auto be = gb.node("matmul", {b, e});
  auto cat = gb.node("concat", {bc, c}, {{"axis", int64_t{0}}});
  auto sum = gb.node("add", {cd, gb.node("mul", {ab, cat})});
  return gb.done({sum, be});
}

// Runs the rules on a graph and returns every applied step and the per-rule outcome counts.
// `carry`: what earlier runs of the same rules kept (none: the runner keeps its own).
std::string saturate(const Graph& g, const RuleSet& rules, size_t iters, size_t nodes,
                     RunnerCarry* carry = nullptr) {
  EGraph eg;
  add_graph(eg, g);
  RunnerOptions opts;
  opts.iter_limit = iters;
  opts.node_limit = nodes;
  opts.time_limit_seconds = 0;
  opts.seed = 7;
  opts.carry = carry;
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  std::string out;
  for (const IterationReport& it : rep.iterations)
    for (const RuleReport& r : it.rules)
      out += fmt::format("{} applied {} unchanged {} skipped {} rejected {}\n", r.rule, r.applied,
                         r.unchanged, r.skipped, r.rejected);
  for (const TraceStep& s : trace.steps) {
    out += fmt::format("#{} {} e{} -> e{} nodes {}:", s.step, s.rule, s.eclass.value, s.rhs.value,
                       s.nodes_after);
    for (const Value& v : s.params) out += " " + value_str(v);
    out += "\n";
  }
  return out + fmt::format("e-nodes {} classes {}\n", eg.node_count(), eg.class_count());
}

TEST(ApplyPlan, RulesThatChooseFromTypesAndAttributesArePlanned) {
  RuleSet set = builtin_rules("polyjuice");
  auto planned = [&](const std::string& name) { return set.get(name).plannable; };
  EXPECT_TRUE(planned("add-transpose-wrap"));     // picks over ranks
  EXPECT_TRUE(planned("matmul-transpose-wrap"));  // lets only, and computed perms
  EXPECT_TRUE(planned("concat-transpose"));       // reads the axis attribute ?c
  EXPECT_TRUE(planned("split-of-concat"));        // a computed output index
  EXPECT_TRUE(planned("add-comm"));               // nothing to choose: one leaf per binding
  EXPECT_FALSE(planned("graph-out-expose"));
  RuleSet other = parse_rules(
      "rule c (add ?x ?y) => (add ?y ?x) pick r in 0 .. 1 where (is-const ?x)\n"
      "rule p (transpose ?x :perm ?p) => (transpose ?x :perm (compose ?p ?p)) pick r in 0 .. 1");
  EXPECT_FALSE(other.rules[0].plannable);  // is-const reads more than a type
  EXPECT_TRUE(other.rules[1].plannable);   // an attribute variable is part of the binding
  EXPECT_FALSE(ApplyPlan::for_rule(set.get("graph-out-expose")));
  EXPECT_TRUE(ApplyPlan::for_rule(set.get("add-transpose-wrap")));
}

TEST(ApplyPlan, PlannedApplicationsDrawAndBuildWhatEvaluatingDoes) {
  RuleSet rules = builtin_rules("polyjuice");
  for (const Graph& g : {mixed_ranks(), testing::random_op_graph(15, 42)}) {
    std::string planned = saturate(g, rules, 6, 3000);
    EXPECT_EQ(planned, saturate(g, unplanned(rules), 6, 3000));
    EXPECT_NE(planned.find("transpose-wrap applied"), std::string::npos);
  }
}

// A memo carried from run to run (RunnerCarry) decides what a fresh one does: over
// e-graphs that took over one another's type table, whose plans it keeps, and over an e-graph
// with another table, whose type ids name other types (there it must start its plans afresh).
TEST(ApplyPlan, AMemoCarriedFromRunToRunDecidesWhatAFreshOneDoes) {
  RuleSet rules = builtin_rules("polyjuice");
  // The square graph's first type is f32[4,4]; the cube's, f32[2,3,4]: in two new tables, the
  // same id names a rank-2 and a rank-3 type, for which the transpose-wrap rules pick other perms.
  GraphBuilder gb;
  auto x = gb.input("x", {DType::f32, {2, 3, 4}});
  auto y = gb.input("y", {DType::f32, {2, 3, 4}});
  auto sum = gb.node("add", {x, y});
  Graph cube = gb.done({gb.node("mul", {sum, gb.node("add", {sum, x})})});
  Graph mixed = mixed_ranks(), square = testing::random_op_graph(15, 42);
  std::string cube_alone = saturate(cube, rules, 4, 2000);
  std::string mixed_alone = saturate(mixed, rules, 4, 2000);
  std::string square_alone = saturate(square, rules, 4, 2000);
  RunnerCarry carry;
  {
    EGraph holder;  // takes the table kept so far: the runs below start a new one
    EXPECT_EQ(saturate(square, rules, 4, 2000, &carry), square_alone);
    EXPECT_EQ(saturate(square, rules, 4, 2000, &carry), square_alone);
    EXPECT_EQ(saturate(mixed, rules, 4, 2000, &carry), mixed_alone);
  }
  EGraph holder;  // takes that table: the cube's run starts a new one, its ids in a new order
  EXPECT_EQ(saturate(cube, rules, 4, 2000, &carry), cube_alone);
  EXPECT_EQ(saturate(square, rules, 4, 2000, &carry), square_alone);
}

// Skips (a failing `if`, an empty `pick`) and rejections (an output that does not exist) at
// some bindings and not at others, each remembered per binding.
TEST(ApplyPlan, SkipsAndRejectionsAreThoseOfEvaluating) {
  RuleSet rules = parse_rules(
      "rule odd (add ?x ?y) => (add ?y ?x)\n"
      "  pick r in 0 .. (- (rank ?x) 1) where (= (mod r 2) 1)\n"
      "  if (< r 3)\n"
      "rule halves ?x => (concat (split@r/2 ?x :axis 0) (split@0/2 ?x :axis 0) :axis 0)\n"
      "  if (>= (rank ?x) 1)\n"
      "  pick r in 0 .. 2\n");
  EXPECT_TRUE(rules.rules[0].plannable);
  EXPECT_TRUE(rules.rules[1].plannable);
  std::string planned = saturate(mixed_ranks(), rules, 3, 2000);
  EXPECT_EQ(planned, saturate(mixed_ranks(), unplanned(rules), 3, 2000));
  EXPECT_NE(planned.find("odd applied 2 unchanged 0 skipped 1 rejected 0"), std::string::npos);
  EXPECT_NE(planned.find("halves applied 5 unchanged 0 skipped 0 rejected 7"), std::string::npos);

  // The reasons are the evaluator's, the same on every application that meets them: the same
  // matches applied to two copies of the e-graph, with and without planning.
  Graph g = mixed_ranks();
  EGraph planned_eg, plain_eg;
  add_graph(planned_eg, g);
  add_graph(plain_eg, g);
  ApplyMemo memo;
  Rng rng(1), plain_rng(1);
  RewriteTrace trace, plain_trace;
  RuleSet plain = unplanned(rules);
  std::vector<std::string> reasons;
  for (int round = 0; round < 3; ++round) {
    planned_eg.rebuild();
    plain_eg.rebuild();
    std::vector<Match> ms = search(planned_eg, rules.rules[0]);
    ASSERT_EQ(ms.size(), search(plain_eg, plain.rules[0]).size());
    for (const Match& m : ms) {
      ApplyResult a = apply_match(planned_eg, rules.rules[0], m, rng, trace, &memo);
      ApplyResult b = apply_match(plain_eg, plain.rules[0], m, plain_rng, plain_trace);
      EXPECT_EQ(a.outcome, b.outcome);
      EXPECT_EQ(a.reason, b.reason);
      if (a.outcome == ApplyOutcome::Skipped) reasons.push_back(a.reason);
    }
  }
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "no value for r in 0 .. 0"), reasons.end());
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "condition (< r 3) is false"), reasons.end());
}

// Inside a fuzz case's AttrsScope, a leaf whose nodes carry attribute sets new to the process is
// not kept (their ids die with the scope): its applications instantiate their nodes each time.
TEST(ApplyPlan, ALeafWithScopedAttributesIsInstantiatedEachTime) {
  RuleSet rules = parse_rules(
      "rule flat ?x => (reshape ?x :shape (shape ?x)) if (>= (rank ?x) 2)\n"
      "rule comm (add ?x ?y) => (add ?y ?x)");
  ASSERT_TRUE(rules.rules[0].plannable);
  GraphBuilder gb;
  auto a = gb.input("a", {DType::f32, {13, 17, 19}});
  auto b = gb.input("b", {DType::f32, {17, 19}});
  Graph g = gb.done({gb.node("add", {a, b})});
  AttrsScope scope;
  std::string planned = saturate(g, rules, 3, 500);
  EXPECT_GT(attrs_scope_size(), 0u);  // the shape attribute is the scope's
  EXPECT_EQ(planned, saturate(g, unplanned(rules), 3, 500));
  EXPECT_NE(planned.find("flat applied 3 unchanged 0"), std::string::npos) << planned;
}

TEST(ApplyPlan, AClauseThatFailsToEvaluateFailsEveryTime) {
  RuleSet rules = parse_rules("rule wide (add ?x ?y) => (add ?y ?x) pick r in 0 .. (* 1000 1000)");
  EGraph eg;
  add_graph(eg, mixed_ranks());
  eg.rebuild();
  ApplyMemo memo;
  Rng rng(1);
  RewriteTrace trace;
  Match m = search(eg, rules.rules[0]).at(0);
  for (int i = 0; i < 2; ++i) {
    try {
      apply_match(eg, rules.rules[0], m, rng, trace, &memo);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.message(), "rule 'wide': pick range 0 .. 1000000 holds more than 65536 values");
    }
  }
}

}  // namespace
}  // namespace retort
