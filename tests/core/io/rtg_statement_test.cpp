#include <gtest/gtest.h>

#include "core/io/rtg.h"
#include "tests/core/io/graph_test_util.h"

namespace retort {
namespace {

using testing::error_of;
using testing::expect_same_graph;

Graph base() {
  return parse_rtg(
      "input x : f32[2,3]\nconst c : f32[3] = fill(1)\nt = add(x, c)\n"
      "u = relu(t)\noutput u\n");
}

std::string apply_error(Graph& g, const std::string& statement) {
  Graph before = g;
  std::string message = error_of([&] { apply_rtg_statement(g, statement); });
  expect_same_graph(before, g);  // atomic: a failed statement leaves the graph as it was
  return message;
}

TEST(RtgStatement, BuildsAGraphOneStatementAtATime) {
  Graph g;
  g.name = "main";
  apply_rtg_statement(g, "input x : f32[2,3]");
  EXPECT_EQ(g.type_of("x"), (TensorType{DType::f32, {2, 3}}));
  apply_rtg_statement(g, "const c : f32[3] = fill(1)  # comments are fine");
  apply_rtg_statement(g, "t = add(x, c)");
  EXPECT_EQ(g.type_of("t"), (TensorType{DType::f32, {2, 3}}));
  EXPECT_TRUE(g.outputs.empty());
  apply_rtg_statement(g, "u = relu(t)");
  apply_rtg_statement(g, "output u");
  expect_same_graph(g, base());
}

TEST(RtgStatement, RedefiningANodeReplacesIt) {
  Graph g = base();
  apply_rtg_statement(g, "t = mul(x, x)");
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.find_node("t")->op, "mul");
  EXPECT_EQ(g.find_node("t")->inputs, (std::vector<std::string>{"x", "x"}));
  // The new definition may use values defined after the old node; the order is re-derived.
  apply_rtg_statement(g, "v = neg(x)");
  apply_rtg_statement(g, "t = sub(v, c)");
  EXPECT_EQ(g.nodes.back().name, "u");
  EXPECT_EQ(print_rtg(g, {.show_types = false}),
            "input x : f32[2,3]\nconst c : f32[3] = fill(1)\nv = neg(x)\nt = sub(v, c)\n"
            "u = relu(t)\noutput u\n");
}

TEST(RtgStatement, RedefiningInputsAndConstantsReplacesThem) {
  Graph g = base();
  apply_rtg_statement(g, "input x : f32[4,3]");
  EXPECT_EQ(g.type_of("u"), (TensorType{DType::f32, {4, 3}}));
  apply_rtg_statement(g, "const c : f32[1] = [2.5]");
  EXPECT_EQ(g.find_constant("c")->value.get(0), 2.5);
  apply_rtg_statement(g, "graph renamed");
  EXPECT_EQ(g.name, "renamed");
  apply_rtg_statement(g, "output t");
  EXPECT_EQ(g.outputs, (std::vector<std::string>{"u", "t"}));
}

// A redefinition that breaks a node says it is one: `def input x` on a loaded sample that has an
// input x blamed a node the user never wrote.
TEST(RtgStatement, ARedefinitionThatBreaksANodeSaysSo) {
  Graph g = base();
  try {
    apply_rtg_statement(g, "input x : f32[7]");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("this redefines input 'x' of the current graph, and then "
                                         "node '"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(g.inputs[0].type, base().inputs[0].type);
}

TEST(RtgStatement, ErrorsLeaveTheGraphUnchanged) {
  Graph g = base();
  EXPECT_EQ(apply_error(g, "t = add(x, q)"), "<input>:1:12: undefined value 'q'");
  EXPECT_EQ(
      apply_error(g, "w = transpose(x, perm=[0,1,2])"),
      "<input>:1:5: node 'w': attribute 'perm' [0,1,2] has 3 entries, but the input has rank 2");
  EXPECT_EQ(apply_error(g, "x = relu(t)"), "<input>:1:1: 'x' is already defined as an input");
  EXPECT_EQ(apply_error(g, "input t : f32[2]"),
            "<input>:1:7: 't' is already defined as a node output; it cannot become an input");
  EXPECT_EQ(apply_error(g, "const x : f32[2] = fill(0)"),
            "<input>:1:7: 'x' is already defined as an input; it cannot become a constant");
  EXPECT_EQ(apply_error(g, "output u"), "<input>:1:8: 'u' is already an output");
  EXPECT_EQ(apply_error(g, "output nothing"), "<input>:1:8: undefined value 'nothing'");
  // A replacement that breaks a later node: the later node is named, the statement located.
  apply_rtg_statement(g, "w = add(u, c)");
  EXPECT_EQ(apply_error(g, "t = reshape(x, shape=[3,2])"),
            "<input>:1:1: node 'w': shapes [3,2] and [3] do not broadcast");
  // Replacing t with itself as input makes a cycle.
  EXPECT_EQ(apply_error(g, "t = relu(u)"), "<input>:1:1: the graph has a cycle: t -> u -> t");
  EXPECT_EQ(apply_error(g, "input y : f32[2]\ninput z : f32[2]"),
            "<input>:2:1: expected one statement, found a second one");
  EXPECT_EQ(apply_error(g, "  # only a comment"),
            "<input>:1:19: expected a statement, found nothing");
  EXPECT_EQ(apply_error(g, "t = add(x"),
            "<input>:1:10: expected ')' after the arguments of 'add', found end of file");
}

}  // namespace
}  // namespace retort
