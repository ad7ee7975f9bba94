#include "core/rules/unchanged_table.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/egraph/convert.h"
#include "core/rules/runner.h"
#include "tests/support/random_graph.h"

namespace retort {
namespace {

const TensorType f23{DType::f32, {2, 3}};

// add(a, b) and the classes of add-comm's right-hand side (add ?y ?x): b, a, then add(b, a).
struct Commuted {
  EGraph eg;
  EClassId a = eg.add_input("a", f23), b = eg.add_input("b", f23), c = eg.add_input("c", f23);
  EClassId ab = eg.add(make_enode("add", {}, {a, b}));
  EClassId ba = eg.add(make_enode("add", {}, {b, a}));
  std::vector<EClassId> classes{a, b};  // ?x, ?y

  void record(UnchangedTable& table) {
    std::span<uint32_t> slots = table.record(3);
    slots[0] = eg.find(b).value;
    slots[1] = eg.find(a).value;
    slots[2] = eg.find(ba).value;
  }
};

bool known(UnchangedTable& table, const EGraph& eg, uint32_t plan, uint32_t leaf, EClassId matched,
           std::span<const EClassId> classes) {
  table.key(plan, leaf, matched, classes);
  return table.known(eg);
}

TEST(UnchangedTable, AKeyIsKnownOnceItsRightHandSideIsInTheMatchedClass) {
  Commuted t;
  UnchangedTable table;
  EXPECT_FALSE(known(table, t.eg, 0, 0, t.ab, t.classes));
  t.record(table);  // as if the application had not merged yet
  EXPECT_FALSE(known(table, t.eg, 0, 0, t.ab, t.classes));
  t.eg.merge(t.ab, t.ba, Justification::by_rule("add-comm", 0));
  EXPECT_TRUE(known(table, t.eg, 0, 0, t.ab, t.classes));
  // Another plan, leaf, matched class or class variables is another key.
  EXPECT_FALSE(known(table, t.eg, 1, 0, t.ab, t.classes));
  EXPECT_FALSE(known(table, t.eg, 0, 1, t.ab, t.classes));
  EXPECT_FALSE(known(table, t.eg, 0, 0, t.ba, t.classes));
  std::vector<EClassId> swapped{t.b, t.a};
  EXPECT_FALSE(known(table, t.eg, 0, 0, t.ab, swapped));
  EXPECT_EQ(table.size(), 1u);
}

// A class the right-hand side was looked up over stops being canonical: the hashcons may not
// find its nodes until the next rebuild, so the application must run again.
TEST(UnchangedTable, AKeyOverAClassThatStopsBeingCanonicalIsNotKnown) {
  Commuted t;
  UnchangedTable table;
  EXPECT_FALSE(known(table, t.eg, 0, 0, t.ab, t.classes));
  t.eg.merge(t.ab, t.ba, Justification::by_rule("add-comm", 0));
  t.record(table);
  ASSERT_TRUE(known(table, t.eg, 0, 0, t.ab, t.classes));
  // c has more parents than a, so a is the class that stops being canonical.
  for (const char* op : {"add", "mul", "sub"}) t.eg.add(make_enode(op, {}, {t.c, t.c}));
  t.eg.merge(t.a, t.c, Justification::by_rule("test", 1));
  ASSERT_NE(t.eg.find(t.a), t.a);
  EXPECT_FALSE(known(table, t.eg, 0, 0, t.ab, t.classes));
  // Recording again after the application ran keeps the classes it found then.
  t.eg.rebuild();
  t.record(table);
  EXPECT_TRUE(known(table, t.eg, 0, 0, t.ab, t.classes));
  EXPECT_EQ(table.size(), 1u);
}

// The runner's applications with the table give the trace and e-graph they give without it:
// every rule planned (the table's keys) against every rule unplanned (no table), to 10,000
// e-nodes, where most applications repeat the previous iteration's.
TEST(UnchangedTable, SaturationIsTheSameWithAndWithoutIt) {
  RuleSet planned = builtin_rules("polyjuice");
  RuleSet plain = planned;
  for (Rule& r : plain.rules) r.plannable = false;
  auto run = [](const RuleSet& rules, size_t* unchanged) {
    EGraph eg;
    add_graph(eg, testing::random_op_graph(15, 42));
    RunnerOptions opts;
    opts.iter_limit = 10;
    opts.node_limit = 10000;
    opts.time_limit_seconds = 0;
    RewriteTrace trace;
    RunReport rep = Runner(eg, rules, opts).run(trace);
    for (const IterationReport& it : rep.iterations)
      for (const RuleReport& r : it.rules) *unchanged += r.unchanged;
    std::string out;
    for (const TraceStep& s : trace.steps)
      out += fmt::format("{} e{} -> e{} {}\n", s.rule, s.eclass.value, s.rhs.value, s.nodes_after);
    return out + fmt::format("{} {}", eg.node_count(), eg.class_count());
  };
  size_t unchanged_planned = 0, unchanged_plain = 0;
  EXPECT_EQ(run(planned, &unchanged_planned), run(plain, &unchanged_plain));
  EXPECT_EQ(unchanged_planned, unchanged_plain);
  EXPECT_GT(unchanged_planned, 1000u);
}

}  // namespace
}  // namespace retort
