#include "core/egraph/convert.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/egraph/extract.h"
#include "core/egraph/render.h"
#include "core/exec/interpreter.h"
#include "core/rules/runner.h"
#include "core/tensor/random_tensor.h"
#include "tests/support/random_graph.h"

namespace retort {
namespace {

TensorMap random_inputs(const Graph& g, uint64_t seed) {
  Rng rng(seed);
  TensorMap in;
  for (const auto& i : g.inputs) in[i.name] = random_tensor(i.type, rng);
  return in;
}

// Same nodes (name, op, inputs, outputs, attrs), inputs, constants and outputs, in any order.
void expect_same_structure(const Graph& a, const Graph& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (const Node& n : a.nodes) {
    const Node* m = b.find_node(n.name);
    ASSERT_NE(m, nullptr) << n.name;
    EXPECT_EQ(m->op, n.op);
    EXPECT_EQ(m->inputs, n.inputs) << n.name;
    EXPECT_EQ(m->outputs, n.outputs) << n.name;
    EXPECT_EQ(m->attrs, n.attrs) << n.name;
  }
  EXPECT_EQ(a.outputs, b.outputs);
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  for (size_t i = 0; i < a.inputs.size(); ++i) EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
  ASSERT_EQ(a.constants.size(), b.constants.size());
  for (size_t i = 0; i < a.constants.size(); ++i)
    EXPECT_EQ(a.constants[i].name, b.constants[i].name);
}

Graph extract_min(const Graph& g) {
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  return extract(eg, meta, {}).graph;
}

TEST(Convert, RoundTripKeepsStructureAndValues) {
  Graph g;
  g.name = "small";
  g.inputs = {{"x", {DType::f32, {2, 3}}}, {"y", {DType::f32, {2, 3}}}};
  g.constants = {{"c", Tensor::from_doubles(DType::f32, {3}, {1, 2, 3}), ""}};
  g.nodes = {{"n1", "add", {"x", "y"}, {"s"}, {}, {}},
             {"n2", "mul", {"s", "c"}, {"p"}, {}, {}},
             {"n3", "transpose", {"p"}, {"t"}, {{"perm", std::vector<int64_t>{1, 0}}}, {}}};
  g.outputs = {"t", "s"};
  infer_graph(g);
  Graph back = extract_min(g);
  EXPECT_EQ(back.name, "small");
  expect_same_structure(g, back);
  TensorMap in = random_inputs(g, 1);
  EXPECT_EQ(evaluate(g, in), evaluate(back, in));
}

TEST(Convert, RandomGraphsRoundTrip) {
  for (size_t n : {5u, 10u, 15u, 50u}) {
    for (uint64_t seed = 0; seed < 4; ++seed) {
      Graph g = testing::random_op_graph(n, seed);
      Graph back = extract_min(g);
      expect_same_structure(g, back);
      TensorMap in = random_inputs(g, seed);
      EXPECT_EQ(evaluate(g, in), evaluate(back, in)) << n << " nodes, seed " << seed;
    }
  }
}

TEST(Convert, SplitOutputsBecomeOneNode) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {4, 2}}}};
  g.nodes = {{"sp", "split", {"x"}, {"a", "b"}, {{"axis", int64_t{0}}}, {}},
             {"m", "mul", {"a", "b"}, {"y"}, {}, {}}};
  g.outputs = {"y"};
  infer_graph(g);
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  EXPECT_EQ(eg.class_count(), 5u);  // x, split#0, split#1, mul, graph_out
  Graph back = extract(eg, meta, {}).graph;
  expect_same_structure(g, back);
  TensorMap in = random_inputs(g, 2);
  EXPECT_EQ(evaluate(g, in), evaluate(back, in));
}

TEST(Convert, UnusedSplitOutputGetsAFreshName) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {4, 2}}}};
  g.nodes = {{"sp", "split", {"x"}, {"a", "b"}, {{"axis", int64_t{0}}}, {}},
             {"m", "neg", {"b"}, {"y"}, {}, {}}};
  g.outputs = {"y"};
  infer_graph(g);
  Graph back = extract_min(g);
  ASSERT_EQ(back.nodes.size(), 2u);
  const Node* sp = back.find_node("sp");
  ASSERT_NE(sp, nullptr);
  ASSERT_EQ(sp->outputs.size(), 2u);
  EXPECT_EQ(sp->outputs[1], "b");
  EXPECT_NE(sp->outputs[0], "b");
  TensorMap in = random_inputs(g, 2);
  EXPECT_EQ(evaluate(g, in), evaluate(back, in));
}

TEST(Convert, OpaqueNodesSurvive) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {1, 3, 8, 8}}}};
  Node n{"conv", "FancyConv", {"x"}, {"y", "z"}, {{"k", int64_t{3}}}, {}};
  n.opaque = OpaqueInfo{"com.vendor", 1, {{DType::f32, {1, 4, 6, 6}}, {DType::i64, {4}}}};
  g.nodes = {n, {"r", "relu", {"y"}, {"out"}, {}, {}}};
  g.outputs = {"out", "z"};
  infer_graph(g);
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  Extraction ex = extract(eg, meta, {});
  expect_same_structure(g, ex.graph);
  const Node* conv = ex.graph.find_node("conv");
  ASSERT_NE(conv, nullptr);
  ASSERT_TRUE(conv->is_opaque());
  EXPECT_EQ(conv->opaque->domain, "com.vendor");
  EXPECT_EQ(ex.graph.type_of("z"), (TensorType{DType::i64, {4}}));
  EXPECT_EQ(selection_str(eg, ex.selection, ex.selection.root),
            "(graph_out (relu (opaque:FancyConv x k=3 #0/2)) (opaque:FancyConv x k=3 #1/2))");
}

TEST(Convert, OutputsThatBecameInputsOrDuplicatesKeepTheirNames) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {2, 3}}}, {"y", {DType::f32, {2, 3}}}};
  Attrs perm{{"perm", std::vector<int64_t>{1, 0}}};
  g.nodes = {{"t1", "transpose", {"x"}, {"tx"}, perm, {}},
             {"t2", "transpose", {"tx"}, {"o1"}, perm, {}},
             {"a", "add", {"x", "y"}, {"o2"}, {}, {}},
             {"b", "add", {"y", "x"}, {"o3"}, {}, {}}};
  g.outputs = {"o1", "o2", "o3"};
  infer_graph(g);
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  EClassId x = eg.add(input_enode("x"));
  EClassId tx = eg.add(make_enode("transpose", perm, {x}));
  EClassId ttx = eg.add(make_enode("transpose", perm, {tx}));
  eg.merge(ttx, x, Justification::by_rule("trans-trans", 0));
  EClassId y = eg.add(input_enode("y"));
  eg.merge(eg.add(make_enode("add", {}, {x, y})), eg.add(make_enode("add", {}, {y, x})),
           Justification::by_rule("add-comm", 1));
  eg.rebuild();
  Graph back = extract(eg, meta, {}).graph;
  EXPECT_EQ(back.outputs, g.outputs);
  TensorMap in = random_inputs(g, 3);
  EXPECT_EQ(evaluate(g, in), evaluate(back, in));
  EXPECT_EQ(back.op_count(), 3u);  // one add, two identities
}

TEST(Convert, ExtraGraphOutputsComeAfterTheOriginalOnes) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {2, 3}}}};
  g.nodes = {{"a", "neg", {"x"}, {"h"}, {}, {}}, {"b", "abs", {"h"}, {"o"}, {}, {}}};
  g.outputs = {"o"};
  infer_graph(g);
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  EClassId o = eg.term(meta.root).children[0];
  EClassId h = eg.term(o).children[0];
  EClassId wider = eg.add_graph_out({o, h});
  eg.merge(meta.root, wider, Justification::by_rule("graph-out", 0));
  eg.rebuild();
  ExtractOptions opt;
  opt.mode = ExtractMode::Max;
  Graph back = extract(eg, meta, opt).graph;
  EXPECT_EQ(back.outputs, (std::vector<std::string>{"o", "h"}));
  Graph simple = extract(eg, meta, {}).graph;
  EXPECT_EQ(simple.outputs, std::vector<std::string>{"o"});
}

// The random graph with its values renamed v<k> and its nodes n<k>, numbered from the last node
// down: the original names take the form of fresh names, in an order the restorer does not meet
// them in.
Graph with_fresh_like_names(const Graph& g) {
  Graph out = g;
  std::map<std::string, std::string> value;
  size_t k = g.nodes.size();
  for (Node& n : out.nodes) {
    n.name = fmt::format("n{}", --k);
    for (auto& in : n.inputs)
      if (auto it = value.find(in); it != value.end()) in = it->second;
    for (auto& o : n.outputs) o = value[o] = fmt::format("v{}", k);
  }
  for (auto& o : out.outputs) o = value.at(o);
  out.types.clear();
  infer_graph(out);
  return out;
}

TEST(Convert, FreshNamesNeverRepeatAnOriginalName) {
  RuleSet rules = builtin_rules("polyjuice");
  RunnerOptions limits;
  limits.iter_limit = 3;
  limits.time_limit_seconds = 0;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    Graph g = with_fresh_like_names(testing::random_op_graph(12, seed));
    EGraph eg;
    GraphMeta meta = add_graph(eg, g);
    RewriteTrace trace;
    Runner(eg, rules, limits).run(trace);
    for (ExtractMode mode : {ExtractMode::Min, ExtractMode::Max, ExtractMode::Random}) {
      ExtractOptions opt;
      opt.mode = mode;
      opt.seed = seed;
      Extraction ex = extract(eg, meta, opt);
      EXPECT_NO_THROW(infer_graph(ex.graph)) << seed << " " << extract_mode_name(mode);
      EXPECT_EQ(ex.depth, graph_depth(ex.graph)) << seed << " " << extract_mode_name(mode);
    }
  }
}

TEST(Convert, OmittedOptionalInputIsALocatedError) {
  Graph g;
  g.inputs = {{"x", {DType::f32, {2}}}};
  Node n{"weird", "Custom", {"x", "", "x"}, {"y"}, {}, {}};
  n.opaque = OpaqueInfo{"", 0, {{DType::f32, {2}}}};
  g.nodes = {n};
  g.outputs = {"y"};
  infer_graph(g);
  EGraph eg;
  try {
    add_graph(eg, g);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.node(), "y");  // as boxes name it: by its value, not its internal name
  }
}

}  // namespace
}  // namespace retort
