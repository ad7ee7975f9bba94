#include <gtest/gtest.h>

#include "core/base/rng.h"
#include "core/ops/registry.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/ops/nn_test_util.h"

namespace retort {
namespace {

using namespace testing::nn;

TEST(OpsLinalg, MatmulOfMatrices) {
  Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = f32({3, 2}, {7, 8, 9, 10, 11, 12});
  expect_close(run_op("matmul", {a, b}), {2, 2}, {58, 64, 139, 154});
}

TEST(OpsLinalg, MatmulOneDimensionalOperands) {
  Tensor v = f32({3}, {1, 2, 3});
  Tensor m = f32({3, 2}, {1, 0, 0, 1, 1, 1});
  expect_close(run_op("matmul", {v, m}), {2}, {4, 5});
  Tensor mt = f32({2, 3}, {1, 0, 1, 0, 1, 1});
  expect_close(run_op("matmul", {mt, v}), {2}, {4, 5});
  expect_close(run_op("matmul", {v, v}), {}, {14});
  // A 1-D operand against a batch: [2,2,3] x [3] -> [2,2].
  Tensor batch = iota(DType::f32, {2, 2, 3});
  expect_close(run_op("matmul", {batch, v}), {2, 2}, {8, 26, 44, 62});
}

TEST(OpsLinalg, MatmulBroadcastsBatchAxesLikeANaiveLoop) {
  Rng rng(7);
  Tensor a = random_tensor({DType::f64, {2, 1, 2, 3}}, rng);
  Tensor b = random_tensor({DType::f64, {3, 3, 4}}, rng);
  Tensor y = run_op("matmul", {a, b});
  ASSERT_EQ(y.shape(), (Shape{2, 3, 2, 4}));
  for (int64_t p = 0; p < 2; ++p)
    for (int64_t q = 0; q < 3; ++q)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 4; ++j) {
          double want = 0;
          for (int64_t k = 0; k < 3; ++k)
            want += a.get(p * 6 + i * 3 + k) * b.get(q * 12 + k * 4 + j);
          EXPECT_DOUBLE_EQ(y.get(((p * 3 + q) * 2 + i) * 4 + j), want);
        }
}

TEST(OpsLinalg, MatmulAccumulatesInDoubleAndRoundsOnce) {
  // In f16, 2048 + 1 rounds back to 2048 each step; the exact sum 2050 is representable.
  Tensor a = Tensor::from_doubles(DType::f16, {1, 3}, {2048, 1, 1});
  Tensor b = Tensor::from_doubles(DType::f16, {3, 1}, {1, 1, 1});
  EXPECT_EQ(run_op("matmul", {a, b}).get(0), 2050.0);
}

TEST(OpsLinalg, MatmulIntegersWrap) {
  Tensor a = Tensor::from_ints(DType::i32, {1, 2}, {0x40000000, 1});
  Tensor b = Tensor::from_ints(DType::i32, {2, 1}, {4, 5});
  EXPECT_EQ(run_op("matmul", {a, b}).get_int(0), 5);  // 2^32 wraps to 0
  Tensor c = Tensor::from_ints(DType::i64, {2}, {INT64_MAX, 2});
  Tensor d = Tensor::from_ints(DType::i64, {2}, {1, 1});
  EXPECT_EQ(run_op("matmul", {c, d}).get_int(0), INT64_MIN + 1);
}

TEST(OpsLinalg, MatmulInferenceErrorsNameTheShapes) {
  std::string msg = infer_error("matmul", {{DType::f32, {2, 3}}, {DType::f32, {4, 5}}});
  EXPECT_NE(msg.find("f32[2,3]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("f32[4,5]"), std::string::npos) << msg;
  msg = infer_error("matmul", {{DType::f32, {2, 2, 3}}, {DType::f32, {3, 3, 1}}});
  EXPECT_NE(msg.find("batch"), std::string::npos) << msg;
  msg = infer_error("matmul", {{DType::f32, {}}, {DType::f32, {3}}});
  EXPECT_NE(msg.find("rank"), std::string::npos) << msg;
  msg = infer_error("matmul", {{DType::i8, {2, 2}}, {DType::i8, {2, 2}}});
  EXPECT_NE(msg.find("i8"), std::string::npos) << msg;
  msg = infer_error("matmul", {{DType::f32, {2, 2}}, {DType::f64, {2, 2}}});
  EXPECT_NE(msg.find("share"), std::string::npos) << msg;
}

TEST(OpsLinalg, GemmAllAttributes) {
  Tensor a = f32({3, 2}, {1, 4, 2, 5, 3, 6});  // transposed [2,3] = [[1,2,3],[4,5,6]]
  Tensor b = f32({2, 3}, {1, 2, 3, 4, 5, 6});  // transposed [3,2] = [[1,4],[2,5],[3,6]]
  Tensor c = f32({1, 2}, {1, -1});
  Attrs attrs{{"alpha", 0.5}, {"beta", 2.0}, {"transA", int64_t{1}}, {"transB", int64_t{1}}};
  // op(a) x op(b) = [[14,32],[32,77]].
  expect_close(run_op("gemm", {a, b, c}, attrs), {2, 2}, {9, 14, 18, 36.5});
}

TEST(OpsLinalg, GemmWithoutCAndWithScalarC) {
  Tensor a = f32({1, 2}, {1, 2});
  Tensor b = f32({2, 2}, {1, 2, 3, 4});
  expect_close(run_op("gemm", {a, b}), {1, 2}, {7, 10});
  expect_close(run_op("gemm", std::vector<const Tensor*>{&a, &b, nullptr}), {1, 2}, {7, 10});
  Tensor c = f32({}, {1});
  expect_close(run_op("gemm", {a, b, c}, {{"beta", 3.0}}), {1, 2}, {10, 13});
  // An omitted c is not an f32 scalar: it is fine next to f64 operands.
  Tensor a64 = a.cast(DType::f64), b64 = b.cast(DType::f64);
  EXPECT_EQ(run_op("gemm", std::vector<const Tensor*>{&a64, &b64, nullptr}).dtype(), DType::f64);
}

TEST(OpsLinalg, GemmIntegers) {
  Tensor a = Tensor::from_ints(DType::i32, {1, 2}, {3, 4});
  Tensor b = Tensor::from_ints(DType::i32, {2, 1}, {5, 6});
  Tensor c = Tensor::from_ints(DType::i32, {1}, {7});
  EXPECT_EQ(run_op("gemm", {a, b, c}, {{"alpha", 2.0}}).get_int(0), 85);
  // A fractional alpha goes through double and truncates toward zero: 0.5 * 39 + 7 = 26.5.
  EXPECT_EQ(run_op("gemm", {a, b, c}, {{"alpha", 0.5}}).get_int(0), 26);
}

TEST(OpsLinalg, GemmInferenceErrors) {
  std::string msg = infer_error("gemm", {{DType::f32, {2, 3}}, {DType::f32, {2, 3}}});
  EXPECT_NE(msg.find("f32[2,3]"), std::string::npos) << msg;
  msg = infer_error("gemm", {{DType::f32, {2, 3}}, {DType::f32, {3, 4}}, {DType::f32, {3, 4}}});
  EXPECT_NE(msg.find("[2,4]"), std::string::npos) << msg;
  msg = infer_error("gemm", {{DType::f32, {2, 3, 1}}, {DType::f32, {3, 4}}});
  EXPECT_NE(msg.find("rank 2"), std::string::npos) << msg;
  EXPECT_EQ(infer_op("gemm", {{DType::f32, {3, 2}}, {DType::f32, {4, 3}}},
                     {{"transA", int64_t{1}}, {"transB", int64_t{1}}}),
            (TensorType{DType::f32, {2, 4}}));
}

// --- einsum --------------------------------------------------------------------------------

Tensor einsum(const std::string& eq, const std::vector<Tensor>& in) {
  return run_op("einsum", in, {{"equation", eq}});
}

TEST(OpsLinalg, EinsumMatmulTransposeAndSum) {
  Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = f32({3, 2}, {7, 8, 9, 10, 11, 12});
  expect_close(einsum("ij,jk->ik", {a, b}), {2, 2}, {58, 64, 139, 154});
  expect_close(einsum("ij,jk", {a, b}), {2, 2}, {58, 64, 139, 154});  // implicit
  expect_close(einsum("ij->ji", {a}), {3, 2}, {1, 4, 2, 5, 3, 6});
  expect_close(einsum("ji", {a}), {3, 2}, {1, 4, 2, 5, 3, 6});  // implicit output is "ij"
  expect_close(einsum("ij", {a}), {2, 3}, {1, 2, 3, 4, 5, 6});
  expect_close(einsum("ij->", {a}), {}, {21});
  expect_close(einsum("ij->j", {a}), {3}, {5, 7, 9});
  expect_close(einsum(" i j -> i ", {a}), {2}, {6, 15});
}

TEST(OpsLinalg, EinsumVectors) {
  Tensor u = f32({3}, {1, 2, 3});
  Tensor v = f32({2}, {10, 20});
  expect_close(einsum("i,i", {u, u}), {}, {14});
  expect_close(einsum("i,j->ij", {u, v}), {3, 2}, {10, 20, 20, 40, 30, 60});
  expect_close(einsum("i,j", {u, v}), {3, 2}, {10, 20, 20, 40, 30, 60});
  expect_close(einsum("i,i,i->", {u, u, u}), {}, {36});
}

TEST(OpsLinalg, EinsumRepeatedLabelsTakeDiagonals) {
  Tensor m = iota(DType::f32, {3, 3});
  expect_close(einsum("ii->i", {m}), {3}, {0, 4, 8});
  expect_close(einsum("ii", {m}), {}, {12});  // implicit: the trace
  Tensor batch = iota(DType::f32, {2, 2, 2});
  expect_close(einsum("bii->bi", {batch}), {2, 2}, {0, 3, 4, 7});
  expect_close(einsum("...ii->...i", {batch}), {2, 2}, {0, 3, 4, 7});
  Tensor cube = iota(DType::f32, {2, 2, 2});
  expect_close(einsum("iii->i", {cube}), {2}, {0, 7});
  Tensor v = f32({3}, {1, 2, 3});
  expect_close(einsum("ii,i->i", {m, v}), {3}, {0, 8, 24});
}

TEST(OpsLinalg, EinsumEllipsisBroadcasts) {
  Rng rng(3);
  Tensor a = random_tensor({DType::f64, {2, 1, 2, 3}}, rng);
  Tensor b = random_tensor({DType::f64, {3, 3, 2}}, rng);
  Tensor want = run_op("matmul", {a, b});
  Tensor got = einsum("...ij,...jk->...ik", {a, b});
  ASSERT_EQ(got.shape(), want.shape());
  for (int64_t i = 0; i < got.numel(); ++i) EXPECT_NEAR(got.get(i), want.get(i), 1e-12);
  // Implicit mode puts the ellipsis axes first.
  Tensor x = iota(DType::f32, {2, 3, 4});
  EXPECT_EQ(einsum("i...", {x}).shape(), (Shape{3, 4, 2}));
  // Ellipsis axes missing from an explicit output are summed.
  expect_close(einsum("...i->i", {f32({2, 2}, {1, 2, 3, 4})}), {2}, {4, 6});
  // An empty ellipsis is fine.
  expect_close(einsum("...i,...i->...", {f32({2}, {1, 2}), f32({2}, {3, 4})}), {}, {11});
}

TEST(OpsLinalg, EmptyOperands) {
  Tensor y = run_op("matmul", {Tensor(DType::f32, {0, 3}), Tensor(DType::f32, {3, 2})});
  EXPECT_EQ(y.shape(), (Shape{0, 2}));
  expect_close(run_op("matmul", {Tensor(DType::f32, {2, 0}), Tensor(DType::f32, {0, 2})}), {2, 2},
               {0, 0, 0, 0});
  expect_close(einsum("ij,jk->ik", {Tensor(DType::f32, {1, 0}), Tensor(DType::f32, {0, 2})}),
               {1, 2}, {0, 0});
  EXPECT_EQ(einsum("ij->j", {Tensor(DType::f32, {3, 0})}).shape(), (Shape{0}));
}

TEST(OpsLinalg, EinsumSumsOverLabelsOfSeveralOperands) {
  // Both labels are summed: (1+2+3) * (10+20).
  expect_close(einsum("i,j->", {f32({3}, {1, 2, 3}), f32({2}, {10, 20})}), {}, {180});
  Tensor a = iota(DType::f32, {2, 3, 2});
  // sum over j and l of a[i,j,l] * a[k,j,l]: the Gram matrix of the flattened rows.
  Tensor g = einsum("ijl,kjl->ik", {a, a});
  expect_close(g, {2, 2}, {55, 145, 145, 451});
}

TEST(OpsLinalg, EinsumIntegersWrap) {
  Tensor a = Tensor::from_ints(DType::i8, {2}, {100, 100});
  EXPECT_EQ(einsum("i,i->", {a, a}).get_int(0), static_cast<int8_t>(20000));
}

TEST(OpsLinalg, EinsumErrors) {
  auto err = [](const std::string& eq, std::vector<TensorType> types) {
    return infer_error("einsum", types, {{"equation", eq}});
  };
  TensorType m23{DType::f32, {2, 3}}, m33{DType::f32, {3, 3}};
  EXPECT_NE(err("ij,jk->ik", {m23}).find("1 input"), std::string::npos);
  EXPECT_NE(err("ij,ij->ij", {m23, m33}).find("label 'i'"), std::string::npos);
  EXPECT_NE(err("ijk", {m23}).find("[2,3]"), std::string::npos);
  EXPECT_NE(err("i1", {m23}).find("'1'"), std::string::npos);
  EXPECT_NE(err("ij->ik", {m23}).find("'k'"), std::string::npos);
  EXPECT_NE(err("ij->ii", {m33}).find("twice"), std::string::npos);
  EXPECT_NE(err("...i,...i", {{DType::f32, {2, 3}}, {DType::f32, {4, 3}}}).find("broadcast"),
            std::string::npos);
  EXPECT_NE(err("..i", {m23}).find("..."), std::string::npos);
  EXPECT_THROW(infer_op("einsum", {m23}), Error);  // equation is required
}

TEST(OpsLinalg, RegistryEntries) {
  const OpRegistry& r = OpRegistry::instance();
  EXPECT_EQ(r.find_onnx("MatMul")->name, "matmul");
  EXPECT_EQ(r.find_onnx("Gemm")->name, "gemm");
  EXPECT_EQ(r.find_onnx("Einsum")->name, "einsum");
  for (const char* n : {"matmul", "gemm", "einsum"}) EXPECT_FALSE(r.get(n).doc.empty());
}

}  // namespace
}  // namespace retort
