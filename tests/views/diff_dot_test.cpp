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

}  // namespace
}  // namespace retort
