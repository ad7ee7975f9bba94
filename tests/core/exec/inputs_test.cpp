#include "core/exec/inputs.h"

#include <cmath>

#include <gtest/gtest.h>

#include "core/ops/registry.h"
#include "core/ops/value_domain.h"

namespace retort {
namespace {

// generate_inputs reads only the inputs and which nodes consume them, so these graphs need no
// type inference.
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
        Graph g = graph_with_inputs({"x"}, {dtype, {256}});
        Node node;
        node.name = "n";
        node.op = op->name;
        node.inputs.assign(i + 1, "other");
        node.inputs[i] = "x";
        node.outputs = {"y"};
        g.nodes.push_back(node);
        std::vector<std::string> notes;
        Tensor x = generate_inputs(g, 11, &notes).at("x");
        for (int64_t k = 0; k < x.numel(); ++k)
          ASSERT_TRUE(in_domain(x.get(k), d))
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

}  // namespace
}  // namespace retort
