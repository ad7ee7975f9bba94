#include <gtest/gtest.h>

#include "core/egraph/convert.h"
#include "core/egraph/value_classes.h"
#include "core/graph/graph_diff.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

const char* kA = R"(graph a
input x : f32[2,3]
input y : f32[2,3]
s = add(x, y)
r = relu(s)
n = neg(x)
output r
output n
)";

// s is commuted (another op order: rewritten by name), n is gone, t is new.
const char* kB = R"(graph b
input x : f32[2,3]
input y : f32[2,3]
s = add(y, x)
r = relu(s)
t = abs(x)
output r
output t
)";

TEST(GraphDiff, SignaturesMatchSameNodesAndNamesRewrittenOnes) {
  GraphDiff d = diff_graphs(parse_rtg(kA), parse_rtg(kB));
  EXPECT_EQ(d.a.at("s"), DiffStatus::Rewritten);
  EXPECT_EQ(d.b.at("s"), DiffStatus::Rewritten);
  // relu over a different add is a different signature, but the same name.
  EXPECT_EQ(d.b.at("r"), DiffStatus::Rewritten);
  EXPECT_EQ(d.a.at("n"), DiffStatus::Removed);
  EXPECT_EQ(d.b.at("t"), DiffStatus::Added);
  EXPECT_EQ(d.count(DiffStatus::Added), 1u);
  EXPECT_EQ(d.count(DiffStatus::Removed), 1u);
  // A rewritten node and its counterpart are one pair: s and r are rewritten, two pairs.
  EXPECT_EQ(d.count(DiffStatus::Rewritten), 2u);
}

TEST(GraphDiff, IdenticalGraphsAreAllSame) {
  GraphDiff d = diff_graphs(parse_rtg(kA), parse_rtg(kA));
  for (const auto& [name, status] : d.a) EXPECT_EQ(status, DiffStatus::Same) << name;
  EXPECT_EQ(d.count(DiffStatus::Same), 3u);
}

// A commuted add (Fig. 7's swap) is new, with its operand order; what is computed from it is new
// by structure but not by e-class, where it is the same e-node over the same classes.
TEST(GraphDiff, NewNodesByClassAreOnlyTheChangedOnes) {
  Graph a = parse_rtg("input x : f32[2]\ninput y : f32[2]\ns = add(x, y)\nr = relu(s)\noutput r\n");
  Graph b =
      parse_rtg("input x : f32[2]\ninput y : f32[2]\ns2 = add(y, x)\nr2 = relu(s2)\noutput r2\n");
  EXPECT_EQ(new_nodes(diff_graphs(a, b)), (std::set<std::string>{"s2", "r2"}));
  ValueClasses ca{{"x", 0}, {"y", 1}, {"s", 2}, {"r", 3}};
  ValueClasses cb{{"x", 0}, {"y", 1}, {"s2", 2}, {"r2", 3}};
  EXPECT_EQ(new_nodes(diff_graphs(a, b, ca, cb)), (std::set<std::string>{"s2"}));
  EXPECT_TRUE(new_nodes(diff_graphs(a, a, ca, ca)).empty());
}

TEST(GraphDiff, ClassesMatchMergedValues) {
  Graph a = parse_rtg(kA);
  Graph b = parse_rtg(kB);
  EGraph eg;
  add_graph(eg, a);
  add_graph(eg, b);
  eg.merge(*eg.lookup(
               make_enode("add", {}, {*eg.lookup(input_enode("x")), *eg.lookup(input_enode("y"))})),
           *eg.lookup(
               make_enode("add", {}, {*eg.lookup(input_enode("y")), *eg.lookup(input_enode("x"))})),
           Justification::by_rule("add-comm", 0));
  eg.rebuild();
  ValueClasses ca = value_classes(eg, a), cb = value_classes(eg, b);
  EXPECT_EQ(ca.at("s"), cb.at("s"));
  EXPECT_EQ(ca.at("r"), cb.at("r"));  // congruence: relu of the same class
  GraphDiff d = diff_graphs(a, b, ca, cb);
  EXPECT_EQ(d.b.at("s"), DiffStatus::Rewritten);  // same class, other inputs order
  EXPECT_EQ(d.b.at("r"), DiffStatus::Same);       // same class, same op over the same class
  EXPECT_EQ(d.a.at("n"), DiffStatus::Removed);
  EXPECT_EQ(d.b.at("t"), DiffStatus::Added);
}

}  // namespace
}  // namespace retort
