#include "core/egraph/extract.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/egraph/render.h"
#include "core/exec/interpreter.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/egraph/fig6_egraph.h"
#include "tests/support/random_graph.h"

namespace retort {
namespace {

TensorMap random_inputs(const Graph& g, uint64_t seed) {
  Rng rng(seed);
  TensorMap in;
  for (const auto& i : g.inputs) in[i.name] = random_tensor(i.type, rng);
  return in;
}

// Every original output has the same value in the variant (extra outputs are ignored).
void expect_same_outputs(const Graph& original, const Graph& variant, uint64_t seed = 5) {
  TensorMap in = random_inputs(original, seed);
  TensorMap want = evaluate(original, in);
  TensorMap got = evaluate(variant, in);
  ASSERT_GE(variant.outputs.size(), original.outputs.size());
  for (size_t i = 0; i < original.outputs.size(); ++i) {
    EXPECT_EQ(variant.outputs[i], original.outputs[i]);
    EXPECT_TRUE(got.at(variant.outputs[i]) == want.at(original.outputs[i]))
        << "output " << original.outputs[i];
  }
}

TEST(Extract, Fig6MinIsTheSimplestExpression) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Extraction ex = extract(f.eg, f.meta, {});
  EXPECT_EQ(selection_str(f.eg, ex.selection, ex.selection.root),
            "(graph_out (add I1 (transpose (add I2 I3) perm=[1,0])))");
  EXPECT_EQ(ex.op_count, 3u);
  EXPECT_EQ(ex.depth, 3u);
  EXPECT_EQ(ex.selection.cost, 3.0);
  EXPECT_EQ(ex.steps, (std::vector<uint32_t>{1, 2, 3, 4}));
  expect_same_outputs(f.original, ex.graph);
}

TEST(Extract, Fig6MaxHasMoreOperationsAndIsEquivalent) {
  testing::Fig6 f;
  testing::build_fig6(f);
  ExtractOptions opt;
  opt.mode = ExtractMode::Max;
  Extraction ex = extract(f.eg, f.meta, opt);
  EXPECT_GT(ex.op_count, f.original.op_count());
  EXPECT_GT(ex.selection.cost, 4.0);
  expect_same_outputs(f.original, ex.graph);
}

TEST(Extract, AcyclicViewKeepsATermForEveryClass) {
  testing::Fig6 f;
  testing::build_fig6(f);
  auto kept = acyclic_nodes(f.eg, f.meta.root);
  EXPECT_EQ(kept.size(), f.eg.class_count());
  for (const auto& [cls, nodes] : kept) EXPECT_FALSE(nodes.empty()) << "e" << cls.value;
  // The class of I2 also holds transpose(class of transpose I2), a cycle: one side is cut.
  size_t kept_nodes = 0;
  for (const auto& [cls, nodes] : kept) kept_nodes += nodes.size();
  EXPECT_LT(kept_nodes, f.eg.node_count());
}

TEST(Extract, MaxKeepsAClassWhoseOnlyNodeClosesACycle) {
  // x = neg(neg(x)) puts neg(class of neg x) into the class of x. The DFS reaches neg x through
  // that node while x is on the stack, so plain back-edge removal would drop neg x's only
  // e-node and with it the root add(x, neg x).
  Graph g;
  g.inputs = {{"x", {DType::f32, {2, 2}}}};
  g.nodes = {{"n", "neg", {"x"}, {"nx"}, {}, {}}, {"a", "add", {"x", "nx"}, {"y"}, {}, {}}};
  g.outputs = {"y"};
  infer_graph(g);
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  EClassId x = eg.add(input_enode("x"));
  EClassId nx = eg.add(make_enode("neg", {}, {x}));
  eg.merge(eg.add(make_enode("neg", {}, {nx})), x, Justification::by_rule("neg-neg", 0));
  eg.rebuild();
  auto kept = acyclic_nodes(eg, meta.root);
  ASSERT_EQ(kept.at(eg.find(nx)).size(), 1u);
  EXPECT_EQ(kept.at(eg.find(x)).size(), 1u);  // the input; neg(neg x) is the cut back edge
  ExtractOptions opt;
  opt.mode = ExtractMode::Max;
  Extraction ex = extract(eg, meta, opt);
  EXPECT_EQ(ex.op_count, 2u);
  expect_same_outputs(g, ex.graph);
}

TEST(Extract, RandomIsDeterministicBySeedAndEquivalent) {
  testing::Fig6 f;
  testing::build_fig6(f);
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 12; ++seed) {
    ExtractOptions opt;
    opt.mode = ExtractMode::Random;
    opt.seed = seed;
    Extraction a = extract(f.eg, f.meta, opt);
    Extraction b = extract(f.eg, f.meta, opt);
    std::string ta = selection_str(f.eg, a.selection, a.selection.root);
    EXPECT_EQ(ta, selection_str(f.eg, b.selection, b.selection.root));
    seen.insert(ta);
    expect_same_outputs(f.original, a.graph);
  }
  EXPECT_GE(seen.size(), 3u);
}

TEST(Extract, CostModeFollowsTheUserMap) {
  testing::Fig6 f;
  testing::build_fig6(f);
  ExtractOptions opt;
  opt.mode = ExtractMode::Cost;
  opt.op_costs = {{"transpose", 10}, {"add", 1}};
  Extraction ex = extract(f.eg, f.meta, opt);
  // Two transposes cost more than one, whatever the adds: the original form has 2, the
  // simplest has 1.
  EXPECT_EQ(ex.selection.cost, 12.0);
  EXPECT_EQ(selection_str(f.eg, ex.selection, ex.selection.root),
            "(graph_out (add I1 (transpose (add I2 I3) perm=[1,0])))");
  opt.op_costs = {{"add", -1}};
  EXPECT_THROW(extract(f.eg, f.meta, opt), Error);
}

TEST(Extract, UnrewrittenGraphNeedsNoSteps) {
  Graph g = testing::random_op_graph(15, 3);
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  for (ExtractMode m : {ExtractMode::Min, ExtractMode::Max, ExtractMode::Random}) {
    ExtractOptions opt;
    opt.mode = m;
    Extraction ex = extract(eg, meta, opt);
    EXPECT_TRUE(ex.steps.empty());
    EXPECT_EQ(ex.op_count, g.op_count()) << extract_mode_name(m);
  }
}

TEST(Extract, EveryModeStaysEquivalentOnCommutedRandomGraphs) {
  for (uint64_t seed = 0; seed < 6; ++seed) {
    Graph g = testing::random_op_graph(30, seed, DType::i32);
    EGraph eg;
    GraphMeta meta = add_graph(eg, g);
    uint32_t step = 0;
    for (EClassId c : eg.class_ids()) {
      std::vector<ENode> nodes = eg.eclass(c).nodes.vec();
      for (const ENode& n : nodes) {
        const std::string& op = op_name(n.op);
        if (op != "add" && op != "mul") continue;
        EClassId lhs = eg.add(eg.term(eg.term_of(n)));
        EClassId rhs = eg.add(make_enode(op, {}, {n.children[1], n.children[0]}));
        eg.merge(lhs, rhs, Justification::by_rule("comm", step++));
      }
    }
    eg.rebuild();
    for (ExtractMode m : {ExtractMode::Min, ExtractMode::Max, ExtractMode::Random}) {
      ExtractOptions opt;
      opt.mode = m;
      opt.seed = seed;
      Extraction ex = extract(eg, meta, opt);
      expect_same_outputs(g, ex.graph, seed);
      EXPECT_EQ(ex.op_count, g.op_count()) << extract_mode_name(m);
      EXPECT_EQ(ex.depth, graph_depth(ex.graph)) << extract_mode_name(m);
      for (uint32_t s : ex.steps) EXPECT_LT(s, step);
    }
  }
}

TEST(Extract, ModesParseByName) {
  EXPECT_EQ(parse_extract_mode("max"), ExtractMode::Max);
  EXPECT_EQ(parse_extract_mode("cost"), ExtractMode::Cost);
  EXPECT_FALSE(parse_extract_mode("median"));
}

TEST(Extract, RefusesAnUnrebuiltEGraph) {
  testing::Fig6 f;
  testing::build_fig6(f);
  EClassId i1 = f.eg.add(input_enode("I1"));
  EClassId n = f.eg.add(testing::fig6_node("neg", {i1}));
  f.eg.merge(n, i1, Justification::by_rule("bogus", 9));
  EXPECT_THROW(extract(f.eg, f.meta, {}), Error);
}

}  // namespace
}  // namespace retort
