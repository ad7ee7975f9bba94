// The blocked, vectorised conv, matmul and gemm kernels against plain loop nests that state the
// reference semantics (docs/reference.md): one double sum per output element over the channels
// and the in-input taps (or over k) in order, then the bias. Random shapes and values, with NaN,
// infinities and signed zeros mixed in; results must be equal bit for bit, through the plain
// kernel and through the prepared one with constant operands (the interpreter's path). The one
// freedom is the sign of a NaN that two NaNs produce (NaN + -NaN): IEEE 754 leaves it open and
// the compiler may order a sum's operands either way, in the old scalar loops as in the vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/rng.h"
#include "core/ops/element_values.h"
#include "core/ops/prepared_kernels.h"
#include "core/ops/registry.h"
#include "core/tensor/random_tensor.h"

namespace retort {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Random values in [-2, 2) with about one in `special` replaced by NaN, +-inf, +-0 or a large
// value, so that sums overflow, cancel and carry NaN.
Tensor values(const TensorType& type, Rng& rng, int64_t special) {
  Tensor t = random_tensor_in(type, rng, -2.0, 2.0);
  const double kSpecial[] = {std::nan(""), kInf, -kInf, 0.0, -0.0, 3e38, -3e38, 1e-30};
  for (int64_t i = 0; i < t.numel(); ++i)
    if (special > 0 && rng.uniform_int(0, special - 1) == 0)
      t.set(i, kSpecial[rng.uniform_int(0, std::size(kSpecial) - 1)]);
  return t;
}

// Equal dtype, shape and element bits; any NaN equals any NaN.
::testing::AssertionResult same_bits(const Tensor& got, const Tensor& want) {
  if (got.type() != want.type())
    return ::testing::AssertionFailure() << got.type().str() << " vs " << want.type().str();
  for (int64_t i = 0; i < got.numel(); ++i) {
    double a = got.get(i), b = want.get(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (std::memcmp(&a, &b, sizeof a) != 0)
      return ::testing::AssertionFailure() << "element " << i << ": " << a << " vs " << b;
  }
  return ::testing::AssertionSuccess();
}

// ONNX Conv over x [n, c, d...] (1 to 3 spatial axes), the loops written out: each output is
// 0.0 plus the products of the taps inside the input in the order channel, tap axis 0, 1, 2,
// plus the bias (0.0 without one); NaN where a padding tap (a zero) meets a weight that is not
// finite.
Tensor reference_conv(const Tensor& x, const Tensor& w, const Tensor* b, int64_t group,
                      const std::vector<int64_t>& strides, const std::vector<int64_t>& dil,
                      const std::vector<int64_t>& pads, const TensorType& out) {
  size_t r = x.shape().size() - 2;
  std::vector<int64_t> in(3, 1), k(3, 1), o(3, 1), s(3, 1), d(3, 1), p(3, 0);
  for (size_t i = 0; i < r; ++i) {
    size_t a = 3 - r + i;
    in[a] = x.shape()[2 + i];
    k[a] = w.shape()[2 + i];
    o[a] = out.shape[2 + i];
    s[a] = strides[i];
    d[a] = dil[i];
    p[a] = pads[i];
  }
  int64_t n = x.shape()[0], c = x.shape()[1], m = w.shape()[0], cg = c / group, mg = m / group;
  Tensor y(out);
  int64_t idx = 0;
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t mi = 0; mi < m; ++mi)
      for (int64_t o0 = 0; o0 < o[0]; ++o0)
        for (int64_t o1 = 0; o1 < o[1]; ++o1)
          for (int64_t o2 = 0; o2 < o[2]; ++o2) {
            double acc = 0.0;
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t t0 = 0; t0 < k[0]; ++t0)
                for (int64_t t1 = 0; t1 < k[1]; ++t1)
                  for (int64_t t2 = 0; t2 < k[2]; ++t2) {
                    int64_t i0 = o0 * s[0] - p[0] + t0 * d[0];
                    int64_t i1 = o1 * s[1] - p[1] + t1 * d[1];
                    int64_t i2 = o2 * s[2] - p[2] + t2 * d[2];
                    double wt = w.get((((mi * cg + ci) * k[0] + t0) * k[1] + t1) * k[2] + t2);
                    if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) {
                      if (!std::isfinite(wt)) acc = std::nan("");
                      continue;
                    }
                    int64_t xc = ni * c + mi / mg * cg + ci;
                    acc += x.get(((xc * in[0] + i0) * in[1] + i1) * in[2] + i2) * wt;
                  }
            y.set(idx++, acc + (b ? b->get(mi) : 0.0));
          }
  return y;
}

// The conv kernel, plain and prepared with constant weights and bias.
std::pair<Tensor, Tensor> run_conv(const std::vector<const Tensor*>& in, const Attrs& attrs) {
  const OpDef& op = OpRegistry::instance().get("conv");
  std::vector<TensorType> types;
  for (const Tensor* t : in) types.push_back(t->type());
  std::vector<TensorType> out = op.infer(types, attrs, 1);
  Tensor plain = op.kernel(in, attrs, out)[0];
  std::vector<const Tensor*> constants = in;
  constants[0] = nullptr;
  Tensor prepared = prepare_conv(constants, types, attrs, out)(in)[0];
  return {plain, prepared};
}

TEST(OpsBlockedKernels, ConvMatchesThePlainLoopsBitForBit) {
  Rng rng(7);
  const DType kTypes[] = {DType::f32, DType::f64, DType::f16};
  for (int trial = 0; trial < 300; ++trial) {
    size_t rank = static_cast<size_t>(rng.uniform_int(1, 3));
    int64_t group = rng.coin(0.3) ? rng.uniform_int(1, 4) : 1;
    // Depthwise (one channel per filter), few filters per group, and blocks of 8 with a tail.
    int64_t cg = rng.coin(0.3) ? 1 : rng.uniform_int(1, 5);
    int64_t mg = rng.uniform_int(1, 19);
    DType dtype = kTypes[rng.uniform_int(0, 2)];
    Shape xs{rng.uniform_int(1, 2), cg * group}, ws{mg * group, cg};
    std::vector<int64_t> strides, dil, pads(2 * rank);
    for (size_t i = 0; i < rank; ++i) {
      int64_t kern = rng.uniform_int(1, rank == 3 ? 3 : 5);
      xs.push_back(rng.uniform_int(kern, rank == 3 ? 5 : 11));
      ws.push_back(kern);
      strides.push_back(rng.uniform_int(1, 3));
      dil.push_back(rng.coin(0.2) ? 2 : 1);
      pads[i] = rng.uniform_int(0, kern);
      pads[rank + i] = rng.uniform_int(0, kern);
    }
    for (size_t i = 0; i < rank; ++i)  // keep the dilated window inside the padded input
      if ((ws[2 + i] - 1) * dil[i] + 1 > xs[2 + i] + pads[i] + pads[rank + i]) dil[i] = 1;
    int64_t special = rng.coin(0.5) ? 0 : rng.uniform_int(3, 40);
    Tensor x = values({dtype, xs}, rng, special), w = values({dtype, ws}, rng, special);
    Tensor b = values({dtype, {mg * group}}, rng, special);
    bool with_bias = rng.coin(0.5);
    Attrs attrs{{"group", group}, {"strides", strides}, {"dilations", dil}, {"pads", pads}};
    std::vector<const Tensor*> in{&x, &w};
    if (with_bias) in.push_back(&b);
    auto [plain, prepared] = run_conv(in, attrs);
    std::vector<int64_t> begin(pads.begin(), pads.begin() + static_cast<int64_t>(rank));
    Tensor expected =
        reference_conv(x, w, with_bias ? &b : nullptr, group, strides, dil, begin, plain.type());
    ASSERT_TRUE(same_bits(plain, expected)) << "trial " << trial << ": x " << x.type().str()
                                            << " w " << w.type().str() << " group " << group;
    ASSERT_TRUE(same_bits(prepared, expected)) << "trial " << trial;
  }
}

// Past ConvKernel::kSingleAbove weights an f32 conv keeps its packed filters as float: the same
// values, so the same results.
TEST(OpsBlockedKernels, LargeF32FiltersKeptAsFloatGiveTheSameResults) {
  Rng rng(3);
  for (int64_t special : {0, 50}) {
    Tensor x = values({DType::f32, {1, 128, 4, 3}}, rng, special);
    Tensor w = values({DType::f32, {1030, 128, 3, 3}}, rng, special);
    Tensor b = values({DType::f32, {1030}}, rng, special);
    Attrs attrs{{"group", int64_t{1}},
                {"strides", std::vector<int64_t>{1, 1}},
                {"dilations", std::vector<int64_t>{1, 1}},
                {"pads", std::vector<int64_t>{0, 1, 0, 0}}};
    auto [plain, prepared] = run_conv({&x, &w, &b}, attrs);
    Tensor expected = reference_conv(x, w, &b, 1, {1, 1}, {1, 1}, {0, 1}, plain.type());
    EXPECT_TRUE(same_bits(plain, expected)) << "special " << special;
    EXPECT_TRUE(same_bits(prepared, expected)) << "special " << special;
  }
}

// An input with no channels: every sum is empty, so each output is its filter's bias (or 0),
// for one filter (the position blocks) and for blocks of filters (row 64's sample: 8 filters).
// The empty input has no storage; the sanitized suite checks nothing offsets into it.
TEST(OpsBlockedKernels, ZeroInputChannelsGiveTheBias) {
  Rng rng(5);
  for (int64_t filters : {1, 8, 19})
    for (bool with_bias : {false, true}) {
      Tensor x = values({DType::f32, {2, 0, 4, 4}}, rng, 0);
      Tensor w = values({DType::f32, {filters, 0, 3, 3}}, rng, 0);
      Tensor b = values({DType::f32, {filters}}, rng, 0);
      Attrs attrs{{"group", int64_t{1}},
                  {"strides", std::vector<int64_t>{1, 1}},
                  {"dilations", std::vector<int64_t>{1, 1}},
                  {"pads", std::vector<int64_t>{0, 0, 0, 0}}};
      std::vector<const Tensor*> in{&x, &w};
      if (with_bias) in.push_back(&b);
      auto [plain, prepared] = run_conv(in, attrs);
      ASSERT_EQ(plain.type().shape, (Shape{2, filters, 2, 2}));
      for (int64_t i = 0; i < plain.numel(); ++i) {
        double expected = with_bias ? b.get(i / 4 % filters) : 0.0;
        ASSERT_EQ(plain.get(i), expected) << filters << " filters, element " << i;
        ASSERT_EQ(prepared.get(i), expected) << filters << " filters, element " << i;
      }
    }
}

// op(a) x op(b) as plain loops: each output 0 plus a[i,k] * b[k,j] for k in order.
std::vector<double> reference_dots(const Tensor& a, const Tensor& b, int64_t m, int64_t k,
                                   int64_t n, bool ta, bool tb) {
  std::vector<double> dot(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t kk = 0; kk < k; ++kk)
        dot[i * n + j] += a.get(ta ? kk * m + i : i * k + kk) * b.get(tb ? j * k + kk : kk * n + j);
  return dot;
}

TEST(OpsBlockedKernels, GemmAndMatmulMatchThePlainLoopsBitForBit) {
  Rng rng(11);
  const OpRegistry& reg = OpRegistry::instance();
  for (int trial = 0; trial < 200; ++trial) {
    int64_t m = rng.uniform_int(1, 6), k = rng.uniform_int(1, 40), n = rng.uniform_int(1, 37);
    bool ta = rng.coin(0.5), tb = rng.coin(0.5);
    DType dtype = rng.coin(0.5) ? DType::f32 : DType::f64;
    int64_t special = rng.coin(0.5) ? 0 : rng.uniform_int(3, 40);
    Tensor a = values({dtype, ta ? Shape{k, m} : Shape{m, k}}, rng, special);
    Tensor b = values({dtype, tb ? Shape{n, k} : Shape{k, n}}, rng, special);
    Tensor c = values({dtype, {n}}, rng, special);
    std::vector<double> dot = reference_dots(a, b, m, k, n, ta, tb);

    std::vector<double> y(dot.size());
    for (size_t o = 0; o < dot.size(); ++o) y[o] = 0.5 * dot[o] + 2.0 * c.get(o % n);
    Attrs attrs{{"alpha", 0.5}, {"beta", 2.0}, {"transA", int64_t{ta}}, {"transB", int64_t{tb}}};
    const OpDef& gemm = reg.get("gemm");
    std::vector<TensorType> types{a.type(), b.type(), c.type()};
    std::vector<TensorType> out = gemm.infer(types, attrs, 1);
    Tensor expected = tensor_from(out[0], y);
    EXPECT_TRUE(same_bits(gemm.kernel({&a, &b, &c}, attrs, out)[0], expected))
        << "gemm trial " << trial;
    EXPECT_TRUE(
        same_bits(prepare_gemm({nullptr, &b, &c}, types, attrs, out)({&a, &b, &c})[0], expected))
        << "prepared gemm trial " << trial;

    if (ta || tb) continue;
    const OpDef& matmul = reg.get("matmul");
    std::vector<TensorType> mtypes{a.type(), b.type()};
    std::vector<TensorType> mout = matmul.infer(mtypes, {}, 1);
    Tensor mexpected = tensor_from(mout[0], dot);
    EXPECT_TRUE(same_bits(matmul.kernel({&a, &b}, {}, mout)[0], mexpected))
        << "matmul trial " << trial;
    EXPECT_TRUE(same_bits(prepare_matmul({nullptr, &b}, mtypes, {}, mout)({&a, &b})[0], mexpected))
        << "prepared matmul trial " << trial;
  }
}

}  // namespace
}  // namespace retort
