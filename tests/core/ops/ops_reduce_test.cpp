#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/registry.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;

Attrs axes(std::vector<int64_t> a, int64_t keepdims = 1) {
  return {{"axes", std::move(a)}, {"keepdims", keepdims}};
}

TEST(OpsReduce, SumMeanProdOverAxes) {
  Tensor x = iota(DType::f32, {2, 3});  // [[0,1,2],[3,4,5]]
  expect_close(run_op("reduce_sum", {x}, axes({1})), {2, 1}, {3, 12});
  expect_close(run_op("reduce_sum", {x}, axes({0}, 0)), {3}, {3, 5, 7});
  expect_close(run_op("reduce_sum", {x}), {1, 1}, {15});
  expect_close(run_op("reduce_sum", {x}, {{"keepdims", int64_t{0}}}), {}, {15});
  expect_close(run_op("reduce_mean", {x}, axes({-1}, 0)), {2}, {1, 4});
  expect_close(run_op("reduce_prod", {x}, axes({0}, 0)), {3}, {0, 4, 10});
  Tensor y = iota(DType::f32, {2, 2, 2});
  expect_close(run_op("reduce_sum", {y}, axes({0, 2}, 0)), {2}, {10, 18});
  expect_close(run_op("reduce_max", {y}, axes({2, 0})), {1, 2, 1}, {5, 7});
}

TEST(OpsReduce, EmptyAxesAndNoop) {
  Tensor x = iota(DType::f32, {2, 2});
  expect_close(run_op("reduce_sum", {x}, axes({})), {1, 1}, {6});
  Attrs noop = axes({});
  noop["noop_with_empty_axes"] = int64_t{1};
  expect_close(run_op("reduce_sum", {x}, noop), {2, 2}, {0, 1, 2, 3});
  // Absent axes are ONNX's absent input, which is empty: also the identity (a campaign finding:
  // ONNX Runtime returned x while the reference reduced everything).
  expect_close(run_op("reduce_sum", {x}, {{"noop_with_empty_axes", int64_t{1}}}), {2, 2},
               {0, 1, 2, 3});
  expect_close(run_op("reduce_mean", {x}, axes({})), {1, 1}, {1.5});
}

TEST(OpsReduce, EmptyReductionsGiveIdentities) {
  Tensor e(DType::f32, {2, 0});
  expect_close(run_op("reduce_sum", {e}, axes({1})), {2, 1}, {0, 0});
  expect_close(run_op("reduce_prod", {e}, axes({1})), {2, 1}, {1, 1});
  expect_close(run_op("reduce_mean", {e}, axes({1})), {2, 1}, {NAN, NAN});
  expect_close(run_op("reduce_max", {e}, axes({1})), {2, 1}, {-INFINITY, -INFINITY});
  expect_close(run_op("reduce_min", {e}, axes({1})), {2, 1}, {INFINITY, INFINITY});
  // Nothing to walk when a kept axis is empty, however large the reduced ones are.
  EXPECT_EQ(run_op("reduce_sum", {Tensor(DType::f32, {0, 1000000, 1000000})}, axes({1, 2})).shape(),
            (Shape{0, 1, 1}));
  Tensor ei(DType::i32, {0});
  EXPECT_EQ(run_op("reduce_max", {ei}).get_int(0), INT32_MIN);
  EXPECT_EQ(run_op("reduce_min", {ei}).get_int(0), INT32_MAX);
  EXPECT_EQ(run_op("reduce_mean", {ei}).get_int(0), 0);
  Tensor eu(DType::u8, {0});
  EXPECT_EQ(run_op("reduce_min", {eu}).get_int(0), 255);
  EXPECT_EQ(run_op("reduce_max", {eu}).get_int(0), 0);
}

TEST(OpsReduce, NanPropagatesThroughMaxAndMin) {
  Tensor x = f32({2, 3}, {1, NAN, 3, 4, 5, 6});
  expect_close(run_op("reduce_max", {x}, axes({1}, 0)), {2}, {NAN, 6});
  expect_close(run_op("reduce_min", {x}, axes({1}, 0)), {2}, {NAN, 4});
  Tensor first = f32({2}, {NAN, 1});
  expect_close(run_op("reduce_max", {first}), {1}, {NAN});
}

TEST(OpsReduce, IntegersWrapAndMeansTruncate) {
  Tensor x = Tensor::from_ints(DType::i32, {3}, {INT32_MAX, 1, 1});
  EXPECT_EQ(run_op("reduce_sum", {x}).get_int(0), INT32_MIN + 1);
  Tensor big = Tensor::from_ints(DType::i64, {2}, {INT64_MAX, INT64_MAX});
  EXPECT_EQ(run_op("reduce_max", {big}).get_int(0), INT64_MAX);  // exact, not via double
  EXPECT_EQ(run_op("reduce_prod", {big}).get_int(0), 1);         // (2^63-1)^2 mod 2^64
  Tensor m = Tensor::from_ints(DType::i32, {3}, {-1, -2, -4});
  EXPECT_EQ(run_op("reduce_mean", {m}).get_int(0), -2);  // -7/3 truncates toward zero
  // i64 sums stay exact beyond 2^53.
  Tensor s = Tensor::from_ints(DType::i64, {2}, {(int64_t{1} << 53) + 1, 2});
  EXPECT_EQ(run_op("reduce_sum", {s}).get_int(0), (int64_t{1} << 53) + 3);
}

TEST(OpsReduce, SumAccumulatesInDouble) {
  Tensor x = Tensor::from_doubles(DType::f16, {3}, {2048, 1, 1});
  EXPECT_EQ(run_op("reduce_sum", {x}).get(0), 2050.0);
  Tensor y = f32({3}, {1e8, 1, -1e8});
  EXPECT_EQ(run_op("reduce_sum", {y}).get(0), 1.0);
}

TEST(OpsReduce, InferenceErrors) {
  std::string msg = infer_error("reduce_sum", {{DType::f32, {2, 3}}}, axes({2}));
  EXPECT_NE(msg.find("axis 2"), std::string::npos) << msg;
  msg = infer_error("reduce_mean", {{DType::f32, {2, 3}}}, axes({1, -1}));
  EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
  msg = infer_error("reduce_sum", {{DType::i8, {2}}});
  EXPECT_NE(msg.find("i8"), std::string::npos) << msg;
  EXPECT_EQ(infer_op("reduce_max", {{DType::i8, {2}}}), (TensorType{DType::i8, {1}}));
  msg = infer_error("reduce_max", {{DType::f32, {}}}, axes({0}));
  EXPECT_NE(msg.find("rank 0"), std::string::npos) << msg;
  EXPECT_EQ(infer_op("reduce_sum", {{DType::f32, {}}}), (TensorType{DType::f32, {}}));
}

TEST(OpsReduce, ArgmaxArgmin) {
  Tensor x = f32({2, 3}, {2, 1, 2, 1, 5, 5});
  Tensor y = run_op("argmax", {x}, {{"axis", int64_t{1}}});
  EXPECT_EQ(y.type(), (TensorType{DType::i64, {2, 1}}));
  expect_ints(y, {0, 1});
  Attrs last{{"axis", int64_t{1}}, {"select_last_index", int64_t{1}}, {"keepdims", int64_t{0}}};
  y = run_op("argmax", {x}, last);
  EXPECT_EQ(y.shape(), (Shape{2}));
  expect_ints(y, {2, 2});
  expect_ints(run_op("argmin", {x}, {{"axis", int64_t{-1}}}), {1, 0});
  expect_ints(run_op("argmin", {x}, last), {1, 0});
  expect_ints(run_op("argmax", {x}), {0, 1, 1});
}

TEST(OpsReduce, ArgmaxNanAndIntegers) {
  Tensor x = f32({5}, {1, NAN, 3, NAN, 2});
  EXPECT_EQ(run_op("argmax", {x}).get_int(0), 1);
  EXPECT_EQ(run_op("argmin", {x}).get_int(0), 1);
  EXPECT_EQ(run_op("argmax", {x}, {{"select_last_index", int64_t{1}}}).get_int(0), 3);
  Tensor big = Tensor::from_ints(DType::i64, {2}, {INT64_MAX - 1, INT64_MAX});
  EXPECT_EQ(run_op("argmax", {big}).get_int(0), 1);  // compared exactly, not via double
}

TEST(OpsReduce, ArgmaxErrors) {
  std::string msg = infer_error("argmax", {{DType::f32, {2, 0}}}, {{"axis", int64_t{1}}});
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
  msg = infer_error("argmin", {{DType::boolean, {2}}});
  EXPECT_NE(msg.find("bool"), std::string::npos) << msg;
  msg = infer_error("argmin", {{DType::f32, {2}}}, {{"axis", int64_t{1}}});
  EXPECT_NE(msg.find("axis 1"), std::string::npos) << msg;
}

TEST(OpsReduce, OnnxMapping) {
  const OpRegistry& r = OpRegistry::instance();
  const OpDef& sum = r.get("reduce_sum");
  ASSERT_EQ(sum.onnx.attr_inputs.size(), 1u);
  EXPECT_EQ(sum.onnx.attr_inputs[0].attr, "axes");
  EXPECT_EQ(sum.onnx.attr_inputs[0].index, 1);
  EXPECT_FALSE(sum.find_attr("axes")->onnx);
  EXPECT_TRUE(r.get("reduce_mean").find_attr("axes")->onnx);
  EXPECT_TRUE(r.get("reduce_mean").onnx.attr_inputs.empty());
  for (const char* t :
       {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ArgMax", "ArgMin"})
    EXPECT_NE(r.find_onnx(t), nullptr) << t;
}

}  // namespace
}  // namespace retort
