// The reference's integer semantics where the wide input plan reaches: values past 2^53 computed
// exactly (never through a double), wrap-around at every integer width, total division, and the
// results ONNX leaves undefined marked so by the undefined check, not compared.
#include <gtest/gtest.h>

#include "core/compare/undefined_check.h"
#include "core/io/rtg.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;

constexpr int64_t k2p53 = int64_t{1} << 53;
constexpr int64_t k2p31 = int64_t{1} << 31;

Tensor i64(std::vector<int64_t> v) {
  Shape s{static_cast<int64_t>(v.size())};
  return Tensor::from_ints(DType::i64, s, v);
}

// OpenVINO 2026.4.1 gives 2147483647 for both (openvinotoolkit/openvino#35823).
TEST(IntegerWrap, I64ArithmeticPastTwoToThe53IsExact) {
  expect_ints(run_op("add", {i64({5000000000, 7000000000}), i64({3000000000, 2000000000})}),
              {8000000000, 9000000000});
  expect_ints(run_op("add", {i64({k2p53 + 1, -k2p53 - 1}), i64({2, -2})}), {k2p53 + 3, -k2p53 - 3});
  expect_ints(run_op("sub", {i64({k2p53 + 1}), i64({-k2p53})}), {2 * k2p53 + 1});
  expect_ints(run_op("mul", {i64({k2p31 + 1}), i64({k2p31 + 1})}),
              {(int64_t{1} << 62) + (int64_t{1} << 32) + 1});
  expect_ints(run_op("neg", {i64({k2p53 + 1})}), {-k2p53 - 1});
  expect_ints(run_op("abs", {i64({-k2p53 - 1})}), {k2p53 + 1});
  expect_ints(run_op("add", {i64({k2p53 + 1}), i64({kMax64 - k2p53})}), {kMin64});
  expect_ints(run_op("max", {i64({k2p53 + 1}), i64({k2p53})}), {k2p53 + 1});
  expect_ints(run_op("div", {i64({3 * k2p53 + 3}), i64({3})}), {k2p53 + 1});
}

TEST(IntegerWrap, I64ReductionsAndScansPastTwoToThe53AreExactAndWrap) {
  Tensor x = i64({k2p53 + 1, 2, kMax64 - k2p53 - 3});
  expect_ints(run_op("reduce_sum", {x}, {{"keepdims", int64_t{0}}}), {kMax64});
  expect_ints(run_op("cumsum", {x}, {{"axis", int64_t{0}}}), {k2p53 + 1, k2p53 + 3, kMax64});
  expect_ints(run_op("cumsum", {i64({kMax64, 1})}, {{"axis", int64_t{0}}}), {kMax64, kMin64});
  expect_ints(run_op("reduce_prod", {i64({k2p31 + 1, k2p31 + 1})}, {{"keepdims", int64_t{0}}}),
              {(int64_t{1} << 62) + (int64_t{1} << 32) + 1});
  expect_ints(run_op("reduce_prod", {i64({int64_t{1} << 62, 4})}, {{"keepdims", int64_t{0}}}), {0});
  expect_ints(run_op("reduce_mean", {i64({(int64_t{1} << 60) + 1, (int64_t{1} << 60) + 3})},
                     {{"keepdims", int64_t{0}}}),
              {(int64_t{1} << 60) + 2});
}

// Each narrow width wraps at its own ends, in two's complement.
TEST(IntegerWrap, NarrowIntegersWrapAtTheirEnds) {
  expect_ints(run_op("add", {ints(DType::i8, {2}, {127, 64}), ints(DType::i8, {2}, {1, 64})}),
              {-128, -128});
  expect_ints(run_op("mul", {ints(DType::u8, {2}, {16, 255}), ints(DType::u8, {2}, {16, 255})}),
              {0, 1});
  expect_ints(run_op("sub", {ints(DType::u8, {1}, {0}), ints(DType::u8, {1}, {1})}), {255});
  expect_ints(run_op("add", {ints(DType::i16, {1}, {32767}), ints(DType::i16, {1}, {1})}),
              {-32768});
  expect_ints(run_op("neg", {ints(DType::i16, {1}, {-32768})}), {-32768});
  expect_ints(run_op("abs", {ints(DType::i8, {1}, {-128})}), {-128});
  expect_ints(run_op("sub", {ints(DType::i32, {1}, {INT32_MIN}), ints(DType::i32, {1}, {1})}),
              {INT32_MAX});
  expect_ints(run_op("mul", {ints(DType::i32, {1}, {65536}), ints(DType::i32, {1}, {32768})}),
              {INT32_MIN});
  expect_ints(run_op("cumsum", {ints(DType::i32, {2}, {INT32_MAX, 1})}, {{"axis", int64_t{0}}}),
              {INT32_MAX, INT32_MIN});
  // Division is total in the reference; the undefined check marks these (below).
  expect_ints(
      run_op("div", {ints(DType::i32, {2}, {INT32_MIN, 5}), ints(DType::i32, {2}, {-1, 0})}),
      {INT32_MIN, 0});
}

// What ONNX leaves open is undefined, not a mismatch: an integer sum past the dtype (the
// reference's wrapped value is no runtime's promise), an i32 mean whose sum overflows (runtimes
// sum in i32; the reference in 64 bits), INT_MIN / -1, a zero divisor, and a float cast to an
// integer dtype that does not hold it.
TEST(IntegerWrap, WhatOnnxLeavesOpenIsUndefined) {
  Graph g = parse_rtg(R"(graph g
input x : i32[2]
input y : i64[2]
m = reduce_mean(x, keepdims=0)
s = reduce_sum(y, keepdims=0)
output m, s
)");
  TensorMap values = {{"x", ints(DType::i32, {2}, {INT32_MAX - 1, 1})},
                      {"y", i64({kMax64 - k2p53, k2p53})}};
  values = evaluate(g, values, {.keep_intermediates = true});
  EXPECT_FALSE(find_undefined(g, values).has_value());
  values["x"] = ints(DType::i32, {2}, {INT32_MAX, INT32_MAX});
  values = evaluate(g, values, {.keep_intermediates = true});
  EXPECT_EQ(values.at("m").get_int(0), INT32_MAX);  // the exact mean
  auto use = find_undefined(g, values);
  ASSERT_TRUE(use.has_value());
  EXPECT_EQ(use->str(),
            "node 'm' (reduce_mean) overflows i32 in its sum: its exact sum [0] is "
            "4294967294");
  // Past the end by 1: the f64 sum rounds back to INT64_MAX's neighbourhood, the wrapped one
  // lies at the other end.
  values["x"] = ints(DType::i32, {2}, {1, 1});
  values["y"] = i64({kMax64 - k2p53 + 1, k2p53});
  values = evaluate(g, values, {.keep_intermediates = true});
  use = find_undefined(g, values);
  ASSERT_TRUE(use.has_value());
  EXPECT_EQ(use->node, "s");
  values["y"] = i64({kMin64 + k2p53 - 1, -k2p53});
  values = evaluate(g, values, {.keep_intermediates = true});
  use = find_undefined(g, values);
  ASSERT_TRUE(use.has_value());
  EXPECT_EQ(use->node, "s");

  Graph d = parse_rtg(R"(graph d
input a : i32[1]
input b : i32[1]
q = div(a, b)
output q
)");
  TensorMap ab = {{"a", ints(DType::i32, {1}, {INT32_MIN})}, {"b", ints(DType::i32, {1}, {-1})}};
  ASSERT_TRUE(find_undefined(d, ab).has_value());
  EXPECT_EQ(find_undefined(d, ab)->node, "q");
  ab["b"] = ints(DType::i32, {1}, {0});
  ASSERT_TRUE(find_undefined(d, ab).has_value());
  ab["b"] = ints(DType::i32, {1}, {-2});
  EXPECT_FALSE(find_undefined(d, ab).has_value());

  // onnx.reference scales an integer gemm's product in double and converts it back.
  Graph m = parse_rtg(R"(graph m
input a : i32[1,1]
input b : i32[1,1]
y = gemm(a, b)
output y
)");
  TensorMap mv = {{"a", ints(DType::i32, {1, 1}, {46341})},
                  {"b", ints(DType::i32, {1, 1}, {46340})}};
  EXPECT_FALSE(find_undefined(m, mv).has_value());
  mv["b"] = ints(DType::i32, {1, 1}, {46341});
  ASSERT_TRUE(find_undefined(m, mv).has_value());
  EXPECT_EQ(find_undefined(m, mv)->node, "y");

  Graph c = parse_rtg(R"(graph c
input f : f64[1]
input h : f32[1]
i = cast(f, to=i64)
j = cast(h, to=i32)
output i, j
)");
  TensorMap fh = {{"f", Tensor::from_doubles(DType::f64, {1}, {9223372036854774784.0})},
                  {"h", Tensor::from_doubles(DType::f32, {1}, {-2147483648.0})}};
  EXPECT_FALSE(find_undefined(c, fh).has_value());  // the largest double below 2^63; -2^31
  fh["f"] = Tensor::from_doubles(DType::f64, {1}, {9223372036854775808.0});  // 2^63
  ASSERT_TRUE(find_undefined(c, fh).has_value());
  EXPECT_EQ(find_undefined(c, fh)->node, "i");
  fh["f"] = Tensor::from_doubles(DType::f64, {1}, {1});
  fh["h"] = Tensor::from_doubles(DType::f32, {1}, {3e9});
  ASSERT_TRUE(find_undefined(c, fh).has_value());
  EXPECT_EQ(find_undefined(c, fh)->node, "j");
}

}  // namespace
}  // namespace retort
