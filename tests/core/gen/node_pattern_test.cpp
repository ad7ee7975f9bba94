#include "core/gen/node_pattern.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

NodePattern pattern(const char* json) {
  return NodePattern::from_json(nlohmann::json::parse(json), "test");
}

Graph typed(const char* text) {
  Graph g = parse_rtg(text);
  infer_graph(g);
  return g;
}

const Node& node(const Graph& g, const std::string& output) {
  for (const Node& n : g.nodes)
    if (n.outputs[0] == output) return n;
  throw std::runtime_error("no node " + output);
}

// One bug in several kernels (ONNX Runtime's reductions of an empty input) is one pattern: a
// list of ops, and a first operand with a dim of size 0.
TEST(NodePattern, ListsOpsAndAsksForAnEmptyOperand) {
  NodePattern p = pattern(R"({"op": ["reduce_min", "argmax"], "empty": true})");
  Graph g = typed(
      "graph g\ninput e : i32[0,4]\ninput x : i32[2,4]\n"
      "a = reduce_min(e, axes=[1])\nb = argmax(e, axis=1)\nc = reduce_min(x, axes=[1])\n"
      "d = reduce_max(e, axes=[1])\noutput a, b, c, d\n");
  EXPECT_TRUE(p.matches(g, node(g, "a")));
  EXPECT_TRUE(p.matches(g, node(g, "b")));
  EXPECT_FALSE(p.matches(g, node(g, "c")));  // not empty
  EXPECT_FALSE(p.matches(g, node(g, "d")));  // another op
  EXPECT_EQ(p.str(), "reduce_min|argmax of an empty tensor");
  EXPECT_EQ(NodePattern::from_json(p.to_json(), "again").to_json(), p.to_json());
  // One op stays a plain name in JSON, as the shipped index writes it.
  EXPECT_EQ(pattern(R"({"op": "split"})").to_json().at("op"), "split");
}

// One op, two bugs by where its empty dim is (ONNX Runtime's Conv refuses an empty spatial dim,
// row 38, and writes stale values for zero channels, row 63): the axes the size-0 dim may be at.
TEST(NodePattern, AsksForTheEmptyDimAtGivenAxes) {
  NodePattern channels = pattern(R"({"op": "conv", "empty": [1]})");
  NodePattern spatial = pattern(R"({"op": "conv", "empty": [2, 3, 4]})");
  Graph g = typed(
      "graph g\ninput c : f32[1,0,4,4]\ninput s : f32[1,2,0,4]\ninput n : f32[0,2,4,4]\n"
      "input w : f32[3,2,1,1]\ninput v : f32[3,0,1,1]\n"
      "a = conv(c, v)\nb = conv(s, w, auto_pad=\"SAME_UPPER\")\nd = conv(n, w)\noutput a, b, d\n");
  EXPECT_TRUE(channels.matches(g, node(g, "a")));
  EXPECT_FALSE(channels.matches(g, node(g, "b")));
  EXPECT_FALSE(spatial.matches(g, node(g, "a")));
  EXPECT_TRUE(spatial.matches(g, node(g, "b")));
  EXPECT_FALSE(channels.matches(g, node(g, "d")));  // an empty batch is neither
  EXPECT_FALSE(spatial.matches(g, node(g, "d")));
  EXPECT_EQ(spatial.str(), "conv of a tensor with a size-0 dim at axis 2|3|4");
  EXPECT_EQ(NodePattern::from_json(spatial.to_json(), "again").to_json(), spatial.to_json());
  EXPECT_THROW(pattern(R"({"op": "conv", "empty": []})"), Error);
  EXPECT_THROW(pattern(R"({"op": "conv", "empty": [-1]})"), Error);
}

// One pass that folds several producers into a node (ONNX Runtime's GemmTransposeFusion folds a
// Transpose or a Split before a Gemm) is one pattern: a list of the ops that make its operand.
TEST(NodePattern, ListsTheOpsThatMakeTheFirstOperand) {
  NodePattern p = pattern(R"({"op": "gemm", "after": ["split", "transpose"]})");
  Graph g = typed(
      "graph g\ninput x : f32[3,3]\ninput w : f32[3,3]\n"
      "t = transpose(x, perm=[1,0])\na = gemm(t, w)\nr = relu(x)\nb = gemm(r, w)\n"
      "output a, b\n");
  EXPECT_TRUE(p.matches(g, node(g, "a")));
  EXPECT_FALSE(p.matches(g, node(g, "b")));  // made by a relu
  EXPECT_EQ(p.str(), "gemm after split|transpose");
  EXPECT_EQ(NodePattern::from_json(p.to_json(), "again").to_json(), p.to_json());
  EXPECT_EQ(pattern(R"({"op": "clip", "after": "relu"})").to_json().at("after"), "relu");
}

// Two Splits of one input (ONNX Runtime's Split merge, row 2) are twins through identities too:
// EliminateIdentity makes split(identity(x)) and split(x) read one value (seed 7216 default #33).
TEST(NodePattern, TwinsReadOneValueThroughIdentities) {
  NodePattern p = pattern(R"({"op": "split", "twin": true})");
  Graph g = typed(
      "graph g\ninput x : f32[6]\ninput y : f32[6]\ni = identity(x)\n"
      "a, b, c = split(i, parts=3)\nd, e = split(x)\nf, h = split(y)\noutput a, b, c, d, e, f, "
      "h\n");
  EXPECT_TRUE(p.matches(g, node(g, "a")));
  EXPECT_TRUE(p.matches(g, node(g, "d")));
  EXPECT_FALSE(p.matches(g, node(g, "f")));  // alone on y
  EXPECT_EQ(p.str(), "split beside another split of the same input");
}

// A bug of negative pads (OpenVINO's Pad that crops past the data) asks for some element below 0.
TEST(NodePattern, AsksForAnElementBelowABound) {
  NodePattern p = pattern(R"({"op": "pad", "attrs": {"pads": {"below": 0}}})");
  Graph g = typed(
      "graph g\ninput x : f32[2,3]\n"
      "a = pad(x, pads=[-1,0,2,1])\nb = pad(x, pads=[1,0,2,1])\noutput a, b\n");
  EXPECT_TRUE(p.matches(g, node(g, "a")));
  EXPECT_FALSE(p.matches(g, node(g, "b")));
  EXPECT_EQ(p.str(), "pad pads < 0");
  EXPECT_EQ(NodePattern::from_json(p.to_json(), "again").to_json(), p.to_json());
}

TEST(NodePattern, RefusesAnEmptyListAndUnknownOps) {
  EXPECT_THROW(pattern(R"({"op": []})"), Error);
  EXPECT_THROW(pattern(R"({"op": ["reduce_min", "no_such_op"]})"), Error);
  EXPECT_THROW(pattern(R"({"op": "gemm", "after": []})"), Error);
  EXPECT_THROW(pattern(R"({"op": "gemm", "after": "no_such_op"})"), Error);
}

}  // namespace
}  // namespace retort
