#include "core/graph/graph_dot.h"

#include <gtest/gtest.h>

#include <string>

#include "core/base/error.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

Graph fig6() {
  Graph g = parse_rtg(
      "graph fig6\ninput I1 : f32[3,4]\ninput I2 : f32[4,3]\n"
      "t2 = transpose(I2, perm=[1,0])\nout = add(I1, t2)\noutput out\n",
      "t.rtg");
  infer_graph(g);
  return g;
}

// Node labels dominate edge labels: the type is on the box that writes the value (and on an
// input's ellipse), never again on its edges, and edge labels are smaller and sans-serif.
TEST(GraphDot, HasOneVertexPerValueSourceAndSmallEdgeLabelsWithoutTypes) {
  std::string dot = graph_dot(fig6());
  EXPECT_NE(dot.find("digraph \"fig6\""), std::string::npos);
  EXPECT_NE(dot.find("\"in:I2\" -> \"node:t2\";"), std::string::npos) << dot;
  // add has two operands: the edges say which is which (Fig. 7's mul(a, s) vs mul(s, a)).
  EXPECT_NE(dot.find("\"in:I1\" -> \"node:out\" [label=\"0\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"node:t2\" -> \"node:out\" [label=\"1\"]"), std::string::npos);
  EXPECT_NE(dot.find("\"node:out\" -> \"out:out\";"), std::string::npos);
  EXPECT_NE(dot.find("perm=[1,0]"), std::string::npos);
  EXPECT_NE(dot.find("t2: f32[3,4]"), std::string::npos);  // once, in the box
  size_t edges = dot.find(" -> ");
  EXPECT_EQ(dot.find("f32[", edges), std::string::npos) << dot;
  EXPECT_NE(dot.find("node [fontname=\"monospace\", fontsize=10]"), std::string::npos);
  EXPECT_NE(dot.find("edge [fontname=\"sans-serif\", fontsize=8]"), std::string::npos) << dot;
}

// A coloured operand (one a rewrite moved) is drawn in its colour, its position in large digits.
TEST(GraphDot, ColouredOperandsAreNumberedLarge) {
  GraphDotOptions options;
  options.operand_colors["out"] = {"red3", ""};
  std::string dot = graph_dot(fig6(), options);
  EXPECT_NE(dot.find("\"in:I1\" -> \"node:out\" [label=\"0\", color=\"red3\", "
                     "fontcolor=\"red3\", fontsize=20, penwidth=2.5]"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("\"node:t2\" -> \"node:out\" [label=\"1\"]"), std::string::npos) << dot;
}

// A box names its operands in order, so that mul(s, a) and mul(a, s) (POLYJUICE Fig. 7) never
// draw alike, whichever side the layout puts them.
TEST(GraphDot, BoxesNameTheOperandsInOrder) {
  std::string dot = graph_dot(fig6());
  EXPECT_NE(dot.find("[label=\"out\\nadd(I1, t2)"), std::string::npos) << dot;
  Node n;
  n.op = "resize";
  n.inputs = {"x", "", "scales"};
  EXPECT_EQ(operand_call(n), "resize(x, _, scales)");
}

TEST(GraphDot, FillsTheChosenNodesAndPrefixesIdsInAClusters) {
  GraphDotOptions options;
  options.fill["t2"] = "gold";
  options.cluster = "A";
  options.id_prefix = "A/";
  std::string dot = graph_dot(fig6(), options);
  EXPECT_EQ(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("subgraph \"cluster_A\""), std::string::npos);
  EXPECT_NE(dot.find("\"A/node:t2\" [label=\"t2\\ntranspose"), std::string::npos) << dot;
  EXPECT_NE(dot.find("fillcolor=\"gold\""), std::string::npos);
}

// A report's failing output: its marker filled and saying what is wrong; the others plain.
TEST(GraphDot, MarkedOutputsAreFilledWithTheirNote) {
  Graph g = parse_rtg("graph m\ninput x : f32[2]\ny = neg(x)\nz = exp(x)\noutput y, z\n");
  GraphDotOptions options;
  options.output_marks["y"] = {"tomato", "wrong shape"};
  std::string dot = graph_dot(g, options);
  EXPECT_NE(dot.find("\"out:y\" [label=\"y\\nwrong shape\", shape=doubleoctagon, style=filled, "
                     "fillcolor=\"tomato\"]"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("\"out:z\" [label=\"z\", shape=doubleoctagon]"), std::string::npos) << dot;
}

// A collapsed region is one dashed box; edges into and out of it attach to the box, once per
// pair of ends, and edges inside it are gone.
TEST(GraphDot, CollapsedNodesAreOneBox) {
  Graph g = parse_rtg(
      "graph g\ninput x : f32[4]\na = relu(x)\nb = neg(a)\nc = add(a, b)\nd = exp(c)\n"
      "output d\n",
      "t.rtg");
  infer_graph(g);
  GraphDotOptions options;
  options.collapse = {{"a", "quiet"}, {"b", "quiet"}, {"c", "quiet"}};
  std::string dot = graph_dot(g, options);
  EXPECT_NE(dot.find("\"region:quiet\" [label=\"quiet (3 nodes)\\nadd\\nneg\\nrelu\", shape=box, "
                     "style=dashed]"),
            std::string::npos)
      << dot;
  EXPECT_EQ(dot.find("\"node:a\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"in:x\" -> \"region:quiet\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"region:quiet\" -> \"node:d\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("\"region:quiet\" -> \"region:quiet\""), std::string::npos) << dot;
}

// A generated or extracted graph names its nodes n0, n1... and their values v0, v1...; boxes and
// operands show only the values, so messages name a node by them too.
Graph with_internal_node_names(Graph g) {
  for (size_t k = 0; k < g.nodes.size(); ++k) g.nodes[k].name = "n" + std::to_string(k);
  return g;
}

TEST(NodeNames, MessagesNameANodeByTheValuesItWritesAndItsOp) {
  Graph g = with_internal_node_names(
      parse_rtg("graph g\ninput x : f32[4]\nconst c : f32[4] = fill(1)\nv3 = mul(x, c)\n"
                "a, b = split(v3, axis=0, parts=2)\noutput a\noutput b\n"));
  EXPECT_EQ(node_title(g.nodes[0]), "v3");
  EXPECT_EQ(node_ref(g.nodes[0]), "node 'v3' (mul)");
  EXPECT_EQ(node_ref(g.nodes[1]), "node 'a, b' (split)");
  EXPECT_EQ(node_titled(g, "a, b"), &g.nodes[1]);
  EXPECT_EQ(node_titled(g, "n1"), nullptr);
  EXPECT_EQ(value_ref(g, "v3"), "node 'v3' (mul)");
  EXPECT_EQ(value_ref(g, "b"), "value 'b' of node 'a, b' (split)");
  EXPECT_EQ(value_ref(g, "x"), "input 'x'");
  EXPECT_EQ(value_ref(g, "c"), "constant 'c'");
}

// Inference and the interpreter name a failing node by its values, never its internal name.
TEST(NodeNames, ErrorsNameTheNodeAsBoxesDo) {
  Graph g = with_internal_node_names(
      parse_rtg("graph g\ninput x : f32[2]\ninput z : f32[2]\nv3 = add(x, z)\noutput v3\n"));
  g.inputs[1].type = TensorType{DType::f32, {3}};
  try {
    infer_graph(g);
    FAIL() << "inferred";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "node 'v3': shapes [2] and [3] do not broadcast");
  }
}

// A compiler's message names a node by its name in the exported model; the user reads it as the
// boxes do. A name that would read two ways stays: node 'w', whose title 'n7' is another node's
// name, that node 'n7' (also a value's name), and node 'x' (also an input's name).
TEST(NodeNames, CompilerMessagesReadTheNodeAsBoxesDo) {
  Graph g = parse_rtg(
      "graph g\ninput x : f32[4]\nv3 = neg(x)\nn7 = abs(v3)\nv6 = exp(n7)\nv5 = sqrt(v6)\n"
      "output v5\n");
  g.nodes[0].name = "n0";
  g.nodes[1].name = "w";
  g.nodes[2].name = "n7";
  g.nodes[3].name = "x";
  EXPECT_EQ(with_node_titles("running Neg node. Name:'n0' Status; n01, w, n7 and x failed", g),
            "running Neg node. Name:'v3' Status; n01, w, n7 and x failed");
}

}  // namespace
}  // namespace retort
