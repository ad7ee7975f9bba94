#include "core/exec/prepared_graph.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/exec/inputs.h"
#include "tests/support/vision_models.h"

namespace retort {
namespace {

// The same graph with every constant turned into an input, fed the constant's values: the
// kernels then see no constants and take their plain path.
std::pair<Graph, TensorMap> constants_as_inputs(const Graph& g, TensorMap feeds) {
  Graph h = g;
  for (const Constant& c : h.constants) {
    h.inputs.push_back({c.name, c.value.type()});
    feeds[c.name] = c.value;
  }
  h.constants.clear();
  infer_graph(h);
  return {h, feeds};
}

class InterpreterModels : public ::testing::TestWithParam<const char*> {};

TEST_P(InterpreterModels, PreparedRunsEqualPlainRunsBitForBit) {
  std::string name = GetParam();
  Graph g = name == "resnet18" ? testing::resnet18_graph(32, 1, 10)
                               : testing::mobilenet_v2_graph(32, 1, 10);
  TensorMap feeds = generate_inputs(g, 3, nullptr);
  PreparedGraph interpreter(g);
  TensorMap first = interpreter.run(feeds);
  TensorMap second = interpreter.run(feeds);
  EXPECT_EQ(first, second);
  auto [plain_graph, plain_feeds] = constants_as_inputs(g, feeds);
  EXPECT_EQ(evaluate(plain_graph, plain_feeds), first);
  // The model computes something: finite logits that are not all equal.
  const Tensor& logits = first.at(g.outputs[0]);
  EXPECT_EQ(logits.shape(), (Shape{1, 10}));
  EXPECT_TRUE(std::isfinite(logits.get(0)));
  EXPECT_NE(logits.get(0), logits.get(1));
}

INSTANTIATE_TEST_SUITE_P(Vision, InterpreterModels, ::testing::Values("resnet18", "mobilenet_v2"));

TEST(Interpreter, KeepsIntermediatesAndReportsInputErrorsPerRun) {
  Graph g = testing::resnet18_graph(16, 2, 4);
  PreparedGraph interpreter(g);
  TensorMap feeds = generate_inputs(g, 1, nullptr);
  TensorMap all = interpreter.run(feeds, {.keep_intermediates = true});
  EXPECT_EQ(all.size(), g.inputs.size() + g.constants.size() + g.nodes.size());
  EXPECT_EQ(all.at(g.outputs[0]), interpreter.run(feeds).at(g.outputs[0]));
  EXPECT_EQ(all.at(g.constants[0].name), g.constants[0].value);
  EXPECT_THROW(interpreter.run({}), Error);
  TensorMap wrong{{"image", Tensor(DType::f32, {1, 3, 8, 8})}};
  EXPECT_THROW(interpreter.run(wrong), Error);
}

}  // namespace
}  // namespace retort
