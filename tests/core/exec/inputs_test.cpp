#include "core/exec/inputs.h"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "core/io/rtg.h"
#include "core/ops/registry.h"
#include "core/ops/value_domain.h"

namespace retort {
namespace {

// generate_inputs reads the inputs, which nodes consume them and, where a consumer's domain
// depends on the node, the types of that node's inputs; these graphs need no other inference.
Graph graph_with_inputs(const std::vector<std::string>& names, TensorType type) {
  Graph g;
  for (const auto& n : names) g.inputs.push_back({n, type});
  return g;
}

TEST(GenerateInputs, SameSeedSameValuesOtherSeedOtherValues) {
  Graph g = graph_with_inputs({"a", "b"}, {DType::f32, {4, 4}});
  TensorMap x = generate_inputs(g, 5, nullptr);
  TensorMap y = generate_inputs(g, 5, nullptr);
  TensorMap z = generate_inputs(g, 6, nullptr);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x.at("a"), y.at("a"));
  EXPECT_EQ(x.at("b"), y.at("b"));
  EXPECT_FALSE(x.at("a") == z.at("a"));
  EXPECT_FALSE(x.at("a") == x.at("b"));
  EXPECT_EQ(x.at("a").type(), (TensorType{DType::f32, {4, 4}}));
}

TEST(GenerateInputs, AddingAnInputLeavesTheOthersUnchanged) {
  TensorMap before = generate_inputs(graph_with_inputs({"a", "b"}, {DType::i32, {8}}), 3, nullptr);
  TensorMap after =
      generate_inputs(graph_with_inputs({"new", "a", "b"}, {DType::i32, {8}}), 3, nullptr);
  EXPECT_EQ(before.at("a"), after.at("a"));
  EXPECT_EQ(before.at("b"), after.at("b"));
}

TEST(GenerateInputs, NoNotesWithoutDomainNeeds) {
  std::vector<std::string> notes;
  generate_inputs(graph_with_inputs({"a"}, {DType::f64, {3}}), 1, &notes);
  EXPECT_TRUE(notes.empty());
}

// Every registered op input with a domain: a graph input read there gets values in the domain,
// and a note naming the op.
TEST(GenerateInputs, HonoursEveryRegisteredInputDomain) {
  int checked = 0;
  for (const OpDef* op : OpRegistry::instance().all()) {
    for (size_t i = 0; i < op->input_names.size(); ++i) {
      ValueDomain d = op->domain_of_input(i);
      if (d == ValueDomain::Any) continue;
      for (DType dtype : {DType::f32, DType::i64}) {
        TensorType type{dtype, {256}};
        Graph g = graph_with_inputs({"x"}, type);
        Node node;
        node.name = "n";
        node.op = op->name;
        node.inputs.assign(i + 1, "other");
        node.inputs[i] = "x";
        node.outputs = {"y"};
        // A domain may depend on the node (gather's indices on the size of the gathered axis).
        node.attrs = OpRegistry::instance().normalize_attrs(*op, {});
        g.types = {{"x", type}, {"other", type}};
        g.nodes.push_back(node);
        InputDomain domain = op->domain_of_input(i, input_types(g, node), node.attrs);
        std::vector<std::string> notes;
        Tensor x = generate_inputs(g, 11, &notes).at("x");
        for (int64_t k = 0; k < x.numel(); ++k)
          ASSERT_TRUE(in_domain(x.get(k), domain))
              << op->name << " input " << i << " value " << x.get(k);
        ASSERT_EQ(notes.size(), 1u) << op->name;
        EXPECT_EQ(notes[0].rfind("x: ", 0), 0u) << notes[0];
        EXPECT_NE(notes[0].find(op->name + " needs them"), std::string::npos) << notes[0];
        ++checked;
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no registered op declares an input domain yet";
}

// gather reads its indices from a graph input: the generated indices lie in the gathered axis
// (negative ones included), so the graph evaluates for every seed.
TEST(GenerateInputs, GatherIndicesFromAnInputStayInTheGatheredAxis) {
  Graph g = parse_rtg(R"(graph g
input data : f32[3,5]
input idx : i64[16]
y = gather(data, idx, axis=1)
output y
)");
  std::set<int64_t> seen;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<std::string> notes;
    TensorMap inputs = generate_inputs(g, seed, &notes);
    EXPECT_EQ(inputs, generate_inputs(g, seed, nullptr)) << "seed " << seed;
    EXPECT_EQ(notes, std::vector<std::string>{"idx: values in [-5, 4] (gather needs them)"});
    const Tensor& idx = inputs.at("idx");
    for (int64_t k = 0; k < idx.numel(); ++k) {
      ASSERT_GE(idx.get_int(k), -5) << "seed " << seed;
      ASSERT_LE(idx.get_int(k), 4) << "seed " << seed;
      seen.insert(idx.get_int(k));
    }
    EXPECT_NO_THROW(evaluate(g, inputs)) << "seed " << seed;
  }
  EXPECT_EQ(seen.size(), 10u);
}

// Indices read along two axes of different sizes must be valid for the shorter one.
TEST(GenerateInputs, IndicesOfTwoGathersFitTheShorterAxis) {
  Graph g = parse_rtg(R"(graph g
input a : f32[8]
input b : f32[2,3]
input idx : i32[32]
p = gather(a, idx)
q = gather(b, idx, axis=-1)
output p, q
)");
  std::vector<std::string> notes;
  TensorMap inputs = generate_inputs(g, 4, &notes);
  EXPECT_EQ(notes, std::vector<std::string>{"idx: values in [-3, 2] (gather needs them)"});
  const Tensor& idx = inputs.at("idx");
  for (int64_t k = 0; k < idx.numel(); ++k)
    ASSERT_TRUE(idx.get_int(k) >= -3 && idx.get_int(k) <= 2);
  EXPECT_NO_THROW(evaluate(g, inputs));
}

}  // namespace
}  // namespace retort
