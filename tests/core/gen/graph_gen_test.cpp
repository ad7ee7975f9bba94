#include "core/gen/graph_gen.h"

#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/exec/inputs.h"
#include "core/exec/interpreter.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"

namespace retort {
namespace {

constexpr uint64_t kSeeds = 1000;

// Graphs of a few ops among which max_pool, of f32 values of rank 3 (1-D windows).
GenOptions max_pool_options() {
  GenOptions g;
  g.ops = {"max_pool", "relu", "neg", "add"};
  g.dtypes = {DType::f32};
  g.min_nodes = 4;
  g.max_nodes = 8;
  g.max_rank = 3;
  return g;
}

TEST(GraphGen, ThousandSeedsTypeAndEvaluate) {
  GenOptions opt;
  std::set<std::string> ops_seen;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE(seed);
    Graph g = generate_graph(opt, seed);
    ASSERT_GE(g.op_count(), static_cast<size_t>(opt.min_nodes));
    ASSERT_LE(g.op_count(), static_cast<size_t>(opt.max_nodes));
    ASSERT_LE(g.inputs.size(), static_cast<size_t>(opt.max_inputs));
    ASSERT_FALSE(g.outputs.empty());
    Graph again = g;
    ASSERT_NO_THROW(infer_graph(again));
    TensorMap outs;
    ASSERT_NO_THROW(outs = evaluate(g, generate_inputs(g, seed, nullptr))) << print_rtg(g);
    EXPECT_EQ(outs.size(), g.outputs.size());
    for (const Node& n : g.nodes) ops_seen.insert(n.op);
  }
  // Nearly every registry op shows up somewhere in a thousand graphs.
  EXPECT_GE(ops_seen.size(), OpRegistry::instance().names().size() * 9 / 10);
}

TEST(GraphGen, SameSeedSameGraph) {
  GenOptions opt;
  for (uint64_t seed : {1u, 7u, 12345u}) {
    EXPECT_EQ(print_rtg(generate_graph(opt, seed)), print_rtg(generate_graph(opt, seed)));
  }
  EXPECT_NE(print_rtg(generate_graph(opt, 1)), print_rtg(generate_graph(opt, 2)));
}

TEST(GraphGen, EveryValueIsReadOrAnOutput) {
  Graph g = generate_graph(GenOptions{}, 3);
  std::set<std::string> read(g.outputs.begin(), g.outputs.end());
  for (const Node& n : g.nodes) read.insert(n.inputs.begin(), n.inputs.end());
  for (const Node& n : g.nodes)
    for (const auto& o : n.outputs) EXPECT_TRUE(read.count(o)) << o;
  for (const auto& in : g.inputs) EXPECT_TRUE(read.count(in.name)) << in.name;
}

TEST(GraphGen, DTypeRestrictionHolds) {
  GenOptions opt;
  opt.dtypes = {DType::f32};
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Graph g = generate_graph(opt, seed);
    for (const auto& [name, type] : g.types) EXPECT_EQ(type.dtype, DType::f32) << name;
  }
}

// bf16 is drawn when named, never by default; what is drawn exports, though many opset-17 ops
// take no bf16 (Sin, Conv, MaxPool, TopK): the generator asks ONNX's schemas.
TEST(GraphGen, Bf16IsDrawnWhenNamedAndExports) {
  GenOptions opt;
  EXPECT_EQ(std::count(opt.dtypes.begin(), opt.dtypes.end(), DType::bf16), 0);
  opt.dtypes = {DType::bf16, DType::i64};
  opt.ops = {"add", "mul", "sin", "max_pool", "relu", "matmul", "cast", "topk"};
  std::set<std::string> ops;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Graph g = generate_graph(opt, seed);
    for (const Node& n : g.nodes)
      if (g.type_of(n.inputs[0]).dtype == DType::bf16) ops.insert(n.op);
    EXPECT_NO_THROW(export_onnx(g)) << print_rtg(g);
  }
  EXPECT_FALSE(ops.empty());
  EXPECT_FALSE(ops.count("sin") || ops.count("max_pool") || ops.count("topk"));
}

TEST(GraphGen, OpListRestrictionHolds) {
  GenOptions opt;
  opt.ops = {"add", "transpose", "reshape"};
  opt.min_nodes = opt.max_nodes = 12;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Graph g = generate_graph(opt, seed);
    EXPECT_EQ(g.op_count(), 12u);
    for (const Node& n : g.nodes)
      EXPECT_TRUE(n.op == "add" || n.op == "transpose" || n.op == "reshape") << n.op;
  }
}

TEST(GraphGen, ShapeBoundsHold) {
  GenOptions opt;
  opt.max_rank = 2;
  opt.max_dim = 3;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Graph g = generate_graph(opt, seed);
    for (const auto& [name, type] : g.types) EXPECT_LE(type.shape.size(), 2u) << name;
    for (const auto& in : g.inputs)
      for (int64_t d : in.type.shape) EXPECT_LE(d, 3) << in.name;
  }
}

// The operands and attributes of these ops are structured (core/gen/attr_choice.cpp): layer_norm's
// scale has x's shape from the axis on, instance_norm's and group_norm's are per channel (with
// num_groups a divisor of C), conv_transpose's weight [C, M/group, k...] and bias [M] imply its
// group, a QDQ scale runs along the axis named, resize's sizes keep N and C. Each is drawn often,
// where unstructured operands would rarely type.
TEST(GraphGen, StructuredOpsAreDrawn) {
  GenOptions opt;
  opt.ops = {"layer_norm",      "instance_norm",     "group_norm", "conv_transpose",
             "quantize_linear", "dequantize_linear", "resize"};
  opt.dtypes = {DType::f32, DType::u8, DType::i8};
  opt.min_nodes = opt.max_nodes = 6;
  std::map<std::string, int> drawn;
  for (uint64_t seed = 0; seed < 20; ++seed)
    for (const Node& n : generate_graph(opt, seed).nodes) ++drawn[n.op];
  for (const std::string& op : opt.ops) EXPECT_GE(drawn[op], 4) << op;
}

// ONNX leaves two updates to one element undefined with reduction "none": whatever the axis
// and reduction drawn, a generated scatter_elements' indices name each element at most once.
// Scattering ones onto zeros with "add" counts the updates per element.
TEST(GraphGen, ScatterIndicesNeverMeet) {
  GenOptions opt;
  opt.ops = {"scatter_elements"};
  opt.dtypes = {DType::f32, DType::i64};
  const OpDef& scatter = OpRegistry::instance().get("scatter_elements");
  int checked = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    SCOPED_TRACE(seed);
    Graph g = generate_graph(opt, seed);
    for (const Node& n : g.nodes) {
      const Tensor* indices = nullptr;
      for (const auto& c : g.constants)
        if (c.name == n.inputs[1]) indices = &c.value;
      ASSERT_NE(indices, nullptr) << "indices are always constants";
      TensorType data = g.type_of(n.inputs[0]);
      Tensor zeros(data), ones(TensorType{data.dtype, indices->shape()});
      for (int64_t k = 0; k < ones.numel(); ++k) ones.set(k, 1.0);
      Attrs attrs = n.attrs;
      attrs["reduction"] = std::string("add");
      std::vector<TensorType> types = {data, indices->type(), ones.type()};
      Tensor counts =
          scatter.kernel({&zeros, indices, &ones}, attrs, scatter.infer(types, attrs, 1)).at(0);
      for (int64_t k = 0; k < counts.numel(); ++k) ASSERT_LE(counts.get(k), 1.0) << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(GraphGen, UnsatisfiableOptionsAreAnError) {
  GenOptions opt;
  opt.ops = {"not"};
  opt.dtypes = {DType::f32};
  EXPECT_THROW(generate_graph(opt, 0), Error);
  opt.ops = {"no_such_op"};
  EXPECT_THROW(generate_graph(opt, 0), Error);
  GenOptions bad;
  bad.min_nodes = 5;
  bad.max_nodes = 2;
  EXPECT_THROW(generate_graph(bad, 0), Error);
}

// A known bug's trigger (GenOptions::avoid: ORT's MaxPool with a dilated SAME window) is drawn
// less, and nothing else changes: a seed whose graph holds no matching node draws the same graph.
TEST(GraphGen, AvoidedPatternsAreDrawnLessAndNothingElseChanges) {
  GenOptions plain = max_pool_options();
  GenOptions avoiding = plain;
  avoiding.avoid = {NodePattern::from_json(
      nlohmann::json::parse(R"({"op": "max_pool", "attrs": {"auto_pad": {"any_of":
          ["SAME_UPPER", "SAME_LOWER"]}, "dilations": {"above": 1}}})"),
      "test")};
  auto matches = [&](const Graph& g) {
    return std::count_if(g.nodes.begin(), g.nodes.end(),
                         [&](const Node& n) { return avoiding.avoid[0].matches(g, n); });
  };
  long before = 0, after = 0, pools_after = 0;
  size_t unchanged = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    Graph g = generate_graph(plain, seed);
    Graph h = generate_graph(avoiding, seed);
    before += matches(g);
    after += matches(h);
    pools_after += std::count_if(h.nodes.begin(), h.nodes.end(),
                                 [](const Node& n) { return n.op == "max_pool"; });
    if (matches(g) == 0) {
      EXPECT_EQ(print_rtg(h), print_rtg(g)) << seed;
      ++unchanged;
    }
  }
  EXPECT_GE(before, 25);  // 32 in 1000 graphs
  EXPECT_LE(after * 4, before) << before << " matching nodes before, " << after << " after";
  EXPECT_GE(pools_after, before);  // max_pool itself is still drawn, with other windows
  EXPECT_GE(unchanged, 100u);
}

// Each shape class shows in its graphs (a last dim past max_dim up to 65, a size-0 dim, size-1
// dims, a dim of 16k-64k), every value stays within the element budget, and the reference runs
// them with inputs drawn for them.
TEST(GraphGen, ShapeClassesShowWithinTheirBudgetAndRun) {
  GenOptions opt;
  opt.shape_classes = 1;
  opt.min_nodes = opt.max_nodes = 6;
  std::map<ShapeClass, int> graphs, shown;
  for (uint64_t seed = 0; seed < 120; ++seed) {
    SCOPED_TRACE(seed);
    ShapeClass c = graph_shape_class(opt, seed);
    ASSERT_NE(c, ShapeClass::Plain);
    Graph g = generate_graph(opt, seed);
    ++graphs[c];
    bool shows = false;
    for (const auto& [name, type] : g.types) {
      ASSERT_LE(numel(type.shape), kShapeClassElements) << name;
      for (int64_t d : type.shape)
        shows |= c == ShapeClass::Vector  ? d > opt.max_dim && d <= 65
                 : c == ShapeClass::Empty ? d == 0
                 : c == ShapeClass::Large ? d >= 16384
                                          : d == 1;
    }
    shown[c] += shows;
    TensorMap outs;
    ASSERT_NO_THROW(outs = evaluate(g, generate_inputs(g, seed, nullptr))) << shape_class_name(c);
    EXPECT_EQ(outs.size(), g.outputs.size());
  }
  for (ShapeClass c : kShapeClasses) {
    EXPECT_GE(graphs[c], 15) << shape_class_name(c);
    EXPECT_GE(shown[c] * 4, graphs[c] * 3) << shape_class_name(c);
  }
}

// The class coin has a stream of its own: a graph drawn without a class is the graph the seed
// gave before shape classes existed, and the same seed draws the same class and graph.
TEST(GraphGen, ShapeClassesLeaveOtherGraphsAsTheyWere) {
  GenOptions plain;
  plain.min_nodes = plain.max_nodes = 6;
  GenOptions classes = plain;
  classes.shape_classes = 0.25;
  int with_class = 0;
  for (uint64_t seed = 0; seed < 24; ++seed) {
    EXPECT_EQ(graph_shape_class(plain, seed), ShapeClass::Plain);
    ShapeClass c = graph_shape_class(classes, seed);
    EXPECT_EQ(c, graph_shape_class(classes, seed));
    Graph g = generate_graph(classes, seed);
    EXPECT_EQ(print_rtg(g), print_rtg(generate_graph(classes, seed)));
    if (c == ShapeClass::Plain) {
      EXPECT_EQ(print_rtg(g), print_rtg(generate_graph(plain, seed))) << seed;
    }
    with_class += c != ShapeClass::Plain;
  }
  EXPECT_GE(with_class, 2);
  EXPECT_LE(with_class, 14);
  classes.shape_classes = 2;
  EXPECT_THROW(generate_graph(classes, 1), Error);
}

}  // namespace
}  // namespace retort
