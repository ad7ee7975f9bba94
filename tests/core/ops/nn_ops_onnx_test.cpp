// The nn ops survive an ONNX export (opset 17, checked by the ONNX checker) and import: attributes
// keep their values, ReduceSum's axes travel as an input (CumSum's axis as a 0-D one), and the
// re-imported graph computes the same values.
#include <gtest/gtest.h>

#include "core/base/rng.h"
#include "core/io/onnx_io.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using Ints = std::vector<int64_t>;

struct Case {
  std::string op;
  Attrs attrs;
  std::vector<Tensor> inputs;
};

void expect_round_trip(const Case& c) {
  SCOPED_TRACE(c.op);
  std::vector<TensorType> types;
  for (const auto& t : c.inputs) types.push_back(t.type());
  std::vector<const TensorType*> ptrs;
  for (const auto& t : types) ptrs.push_back(&t);
  Graph g = testing::nn::one_node(c.op, ptrs, c.attrs);
  infer_graph(g);
  TensorMap feed;
  for (size_t i = 0; i < c.inputs.size(); ++i) feed["in" + std::to_string(i)] = c.inputs[i];

  Graph back = import_onnx(export_onnx(g));
  ASSERT_EQ(back.nodes.size(), 1u);
  EXPECT_EQ(back.nodes[0].op, c.op);
  EXPECT_EQ(back.nodes[0].attrs, g.nodes[0].attrs);
  EXPECT_EQ(evaluate(back, feed), evaluate(g, feed));
}

TEST(NnOpsOnnx, EveryOpRoundTrips) {
  Rng rng(5);
  auto rnd = [&](Shape s) { return random_tensor({DType::f32, std::move(s)}, rng); };
  auto positive = [&](Shape s) {
    return random_tensor({DType::f32, std::move(s)}, rng, ValueDomain::Positive);
  };
  Tensor img = rnd({1, 4, 6, 5});
  std::vector<Case> cases = {
      {"matmul", {}, {rnd({2, 3, 4}), rnd({4, 2})}},
      {"gemm",
       {{"alpha", 0.5}, {"beta", 2.0}, {"transA", int64_t{1}}},
       {rnd({3, 2}), rnd({3, 4}), rnd({4})}},
      {"gemm", {}, {rnd({2, 3}), rnd({3, 4})}},
      {"einsum", {{"equation", std::string("bij,bjk->bik")}}, {rnd({2, 2, 3}), rnd({2, 3, 2})}},
      {"conv",
       {{"group", int64_t{2}},
        {"strides", Ints{2, 1}},
        {"pads", Ints{1, 0, 1, 2}},
        {"dilations", Ints{1, 2}}},
       {img, rnd({6, 2, 3, 2}), rnd({6})}},
      {"conv", {{"auto_pad", std::string("SAME_UPPER")}}, {img, rnd({2, 4, 2, 2})}},
      {"conv_transpose",
       {{"group", int64_t{2}},
        {"strides", Ints{2, 1}},
        {"pads", Ints{1, 0, 0, 2}},
        {"dilations", Ints{1, 2}},
        {"output_padding", Ints{1, 0}}},
       {img, rnd({4, 3, 2, 3}), rnd({6})}},
      {"max_pool",
       {{"kernel_shape", Ints{3, 2}}, {"ceil_mode", int64_t{1}}, {"strides", Ints{2, 2}}},
       {img}},
      {"average_pool",
       {{"kernel_shape", Ints{2, 2}},
        {"pads", Ints{1, 1, 0, 0}},
        {"count_include_pad", int64_t{1}}},
       {img}},
      {"global_average_pool", {}, {img}},
      {"global_max_pool", {}, {img}},
      {"batch_norm", {{"epsilon", 0.25}}, {img, rnd({4}), rnd({4}), rnd({4}), positive({4})}},
      {"layer_norm", {{"axis", int64_t{-2}}, {"epsilon", 0.25}}, {img, rnd({6, 5}), rnd({6, 5})}},
      {"layer_norm", {}, {img, rnd({5})}},
      {"instance_norm", {{"epsilon", 0.5}}, {img, rnd({4}), rnd({4})}},
      {"group_norm",
       {{"num_groups", int64_t{2}}, {"epsilon", 0.5}, {"stash_type", int64_t{1}}},
       {img, rnd({4}), rnd({4})}},
      {"quantize_linear",
       {{"axis", int64_t{1}}},
       {img, positive({4}), Tensor::from_ints(DType::i8, {4}, {-3, 0, 1, 7})}},
      {"quantize_linear", {}, {img, positive({})}},
      {"dequantize_linear",
       {{"axis", int64_t{-1}}},
       {Tensor::from_ints(DType::u8, {2, 3}, {0, 1, 2, 128, 200, 255}), positive({3}),
        Tensor::from_ints(DType::u8, {3}, {0, 128, 255})}},
      {"resize",
       {{"sizes", Ints{1, 4, 12, 2}},
        {"mode", std::string("linear")},
        {"coordinate_transformation_mode", std::string("align_corners")}},
       {img}},
      {"resize", {{"sizes", Ints{1, 4, 3, 10}}}, {img}},
      {"softmax", {{"axis", int64_t{1}}}, {img}},
      {"log_softmax", {}, {img}},
      {"reduce_sum", {{"axes", Ints{1, -1}}, {"keepdims", int64_t{0}}}, {img}},
      {"reduce_sum", {}, {img}},
      {"reduce_sum", {{"axes", Ints{}}, {"noop_with_empty_axes", int64_t{1}}}, {img}},
      {"reduce_mean", {{"axes", Ints{2}}}, {img}},
      {"reduce_max", {{"keepdims", int64_t{0}}}, {img}},
      {"reduce_min", {{"axes", Ints{0, 3}}}, {img}},
      {"reduce_prod", {{"axes", Ints{1}}}, {img}},
      {"argmax", {{"axis", int64_t{2}}, {"select_last_index", int64_t{1}}}, {img}},
      {"argmin", {{"keepdims", int64_t{0}}}, {img}},
      {"cumsum", {{"axis", int64_t{-2}}, {"exclusive", int64_t{1}}}, {img}},
      {"cumsum", {{"axis", int64_t{1}}, {"reverse", int64_t{1}}}, {img}},
  };
  for (const auto& c : cases) expect_round_trip(c);
}

}  // namespace
}  // namespace retort
