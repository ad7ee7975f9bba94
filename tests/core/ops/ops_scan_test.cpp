#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/ops/registry.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;

Attrs scan(int64_t axis, int64_t exclusive = 0, int64_t reverse = 0) {
  return {{"axis", axis}, {"exclusive", exclusive}, {"reverse", reverse}};
}

TEST(OpsScan, CumsumForwardReverseExclusive) {
  Tensor x = f32({4}, {1, 2, 3, 4});
  expect_close(run_op("cumsum", {x}, scan(0)), {4}, {1, 3, 6, 10});
  expect_close(run_op("cumsum", {x}, scan(0, 1)), {4}, {0, 1, 3, 6});
  expect_close(run_op("cumsum", {x}, scan(0, 0, 1)), {4}, {10, 9, 7, 4});
  expect_close(run_op("cumsum", {x}, scan(-1, 1, 1)), {4}, {9, 7, 4, 0});
}

TEST(OpsScan, CumsumAlongEachAxis) {
  Tensor x = iota(DType::f32, {2, 3});  // [[0,1,2],[3,4,5]]
  expect_close(run_op("cumsum", {x}, scan(0)), {2, 3}, {0, 1, 2, 3, 5, 7});
  expect_close(run_op("cumsum", {x}, scan(1)), {2, 3}, {0, 1, 3, 3, 7, 12});
  expect_close(run_op("cumsum", {x}, scan(-2, 1, 1)), {2, 3}, {3, 4, 5, 0, 0, 0});
}

TEST(OpsScan, CumsumSumsFloatsInDoubleAndWrapsIntegers) {
  // Kept in f16, 2048 + 1 would round back to 2048 before the next 1 is added.
  Tensor h = Tensor::from_doubles(DType::f16, {3}, {2048, 1, 1});
  expect_close(run_op("cumsum", {h}, scan(0)), {3}, {2048, 2048, 2050});
  expect_close(run_op("cumsum", {f32({3}, {INFINITY, -INFINITY, 1})}, scan(0)), {3},
               {INFINITY, NAN, NAN});
  Tensor i = testing::ints(DType::i32, {3}, {INT32_MAX, 1, 1});
  expect_ints(run_op("cumsum", {i}, scan(0)), {INT32_MAX, INT32_MIN, INT32_MIN + 1});
  Tensor l = testing::ints(DType::i64, {2}, {testing::kMax64, 1});
  expect_ints(run_op("cumsum", {l}, scan(0, 0, 1)), {testing::kMin64, 1});
}

TEST(OpsScan, CumsumRejectsBadOperands) {
  EXPECT_NE(infer_error("cumsum", {{DType::f32, {}}}, {{"axis", int64_t{0}}}), "");
  EXPECT_NE(infer_error("cumsum", {{DType::f32, {2, 3}}}, {{"axis", int64_t{2}}}), "");
  EXPECT_NE(infer_error("cumsum", {{DType::u8, {2}}}, {{"axis", int64_t{0}}}).find("cumsum"),
            std::string::npos);
  EXPECT_NE(infer_error("cumsum", {{DType::f32, {2}}}).find("axis"), std::string::npos);
  EXPECT_EQ(infer_op("cumsum", {{DType::i64, {2, 0}}}, {{"axis", int64_t{1}}}),
            (TensorType{DType::i64, {2, 0}}));
}

}  // namespace
}  // namespace retort
