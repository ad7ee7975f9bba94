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
  EXPECT_NE(dot.find("rewritten (2), pairs linked"), std::string::npos) << dot;
  // The boxes name the operands in order.
  EXPECT_NE(dot.find("mul(d, y)"), std::string::npos) << dot;
}

}  // namespace
}  // namespace retort
