#include "views/diff_dot.h"

#include <gtest/gtest.h>

#include "core/graph/graph_diff.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

Graph chain(const std::string& last_op) {
  Graph g = parse_rtg(
      "graph g\ninput x : f32[4]\ninput y : f32[4]\na = relu(x)\nb = neg(a)\n"
      "c = exp(b)\nd = abs(c)\ne = " +
          last_op + "(d, y)\noutput e\n",
      "t.rtg");
  infer_graph(g);
  return g;
}

// Only the last node changes: the chain before it collapses, except the node next to the
// change, which stays as context.
TEST(DiffDot, CollapsesUnchangedRegionsAwayFromTheChanges) {
  Graph a = chain("add"), b = chain("mul");
  GraphDiff d = diff_graphs(a, b);
  std::map<std::string, std::string> regions = unchanged_regions(b, d.b);
  EXPECT_EQ(regions, (std::map<std::string, std::string>{
                         {"a", "unchanged 1"}, {"b", "unchanged 1"}, {"c", "unchanged 1"}}));
  std::string dot = diff_dot(a, "A", b, "B", d);
  EXPECT_NE(dot.find("unchanged 1 (3 nodes)"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"b:node:d\""), std::string::npos) << dot;
  std::string full = diff_dot(a, "A", b, "B", d, false);
  EXPECT_EQ(full.find("unchanged"), std::string::npos);
  EXPECT_NE(full.find("\"b:node:a\""), std::string::npos);
  // The legend explains the dashed box only where one is drawn.
  EXPECT_NE(dot.find("\"legend:unchanged\" [label=\"unchanged: nodes the same on both"),
            std::string::npos)
      << dot;
  EXPECT_EQ(full.find("legend:unchanged"), std::string::npos) << full;
  // Fewer than three quiet nodes stay as they are; no change at all collapses everything.
  EXPECT_TRUE(unchanged_regions(b, d.b, 4).empty());
  EXPECT_EQ(unchanged_regions(a, diff_graphs(a, a).a).size(), 5u);
}

// Both sides are laid out alike (a node shares its counterpart's rank) and a rewritten pair is
// linked; the title may name what the diff shows.
TEST(DiffDot, PairsShareARankAndRewrittenPairsAreLinked) {
  Graph a = chain("add"), b = chain("mul");
  GraphDiff d = diff_graphs(a, b);
  EXPECT_EQ(d.counterpart.at("e"), "e");
  std::string dot = diff_dot(a, "before", b, "after", d, false, "rewrite #0: r");
  EXPECT_NE(dot.find("newrank=true"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"rewrite #0: r\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("{ rank=same; \"a:node:a\"; \"b:node:a\"; }"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"a:node:e\" -> \"b:node:e\" [style=dashed"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("\"a:node:a\" -> \"b:node:a\""), std::string::npos) << dot;  // same: no link
  // One rewritten pair counts once, and the legend says what the dashed link is.
  EXPECT_NE(dot.find("rewritten (1 pair)"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"legend:pair\" [label=\"- - -  joins a rewritten node"), std::string::npos)
      << dot;
  // add -> mul reads the same operands in the same order: nothing moved.
  EXPECT_EQ(dot.find("fontsize=20"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("legend:moved"), std::string::npos) << dot;
  // The boxes name the operands in order.
  EXPECT_NE(dot.find("mul(d, y)"), std::string::npos) << dot;
}

// mul-comm (POLYJUICE Fig. 7): the only change is the operands' order. Each operand that moved
// has one colour on both sides and its position in large digits, and the legend says so.
TEST(DiffDot, SwappedOperandsAreColouredAndNumberedLarge) {
  auto fig7 = [](const std::string& mul) {
    Graph g = parse_rtg(
        "graph g\ninput a : u8[4]\ninput b : u8[4]\ninput c : u8[4]\ns = add(b, c)\ny = " + mul +
            "\noutput y\n",
        "t.rtg");
    infer_graph(g);
    return g;
  };
  Graph a = fig7("mul(a, s)"), b = fig7("mul(s, a)");
  GraphDiff d = diff_graphs(a, b);
  MovedOperands moved = moved_operands(a, b, d);
  EXPECT_EQ(moved.a.at("y"), (std::vector<std::string>{"red3", "blue"}));
  EXPECT_EQ(moved.b.at("y"), (std::vector<std::string>{"blue", "red3"}));
  EXPECT_EQ(moved.a.count("s"), 0u);
  std::string dot = diff_dot(a, "before", b, "after", d, false, "rewrite #1: mul-comm");
  const char* big = "fontsize=20, penwidth=2.5]";
  for (const char* edge : {"\"a:in:a\" -> \"a:node:y\" [label=\"0\", color=\"red3\"",
                           "\"b:in:a\" -> \"b:node:y\" [label=\"1\", color=\"red3\"",
                           "\"a:node:s\" -> \"a:node:y\" [label=\"1\", color=\"blue\"",
                           "\"b:node:s\" -> \"b:node:y\" [label=\"0\", color=\"blue\""}) {
    size_t at = dot.find(edge);
    ASSERT_NE(at, std::string::npos) << edge << "\n" << dot;
    EXPECT_EQ(dot.find(big, at), dot.find(']', at) - std::string(big).size() + 1) << edge;
  }
  EXPECT_NE(dot.find("\"a:in:b\" -> \"a:node:s\" [label=\"0\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"legend:moved\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("an operand that moved"), std::string::npos) << dot;
}

// Add-assoc-like rewrites read other operands: they are added and removed nodes, not moves.
TEST(DiffDot, OtherOperandsAreNotMoves) {
  Graph a =
      parse_rtg("graph g\ninput x : f32[2]\ninput y : f32[2]\ns = add(x, y)\noutput s\n", "t.rtg");
  Graph b =
      parse_rtg("graph g\ninput x : f32[2]\ninput y : f32[2]\ns = add(x, x)\noutput s\n", "t.rtg");
  EXPECT_TRUE(moved_operands(a, b, diff_graphs(a, b)).a.empty());
}

}  // namespace
}  // namespace retort
