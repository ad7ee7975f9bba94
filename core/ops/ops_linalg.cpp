// Linear algebra: matmul (numpy semantics), gemm and einsum.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>

#include "core/base/error.h"
#include "core/ops/einsum.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"
#include "core/ops/onnx_float_attr.h"
#include "core/ops/prepared_kernels.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

// The dtypes ONNX MatMul-13 and Gemm-13 accept, among Retort's.
constexpr std::initializer_list<DType> kMatmulTypes = {DType::f16, DType::f32, DType::f64,
                                                       DType::i32, DType::i64};

// A batched matrix product [batch..., m, k] x [batch..., k, n] after numpy's rules: a 1-D left
// operand is a row [1, k] and a 1-D right operand a column [k, 1], and the unit axis they gain is
// dropped from the result again.
struct MatmulDims {
  Shape a_batch, b_batch, batch, out;
  int64_t m = 1, k = 1, n = 1;
};

MatmulDims matmul_dims(const TensorType& a, const TensorType& b) {
  if (a.shape.empty() || b.shape.empty())
    fail("matmul needs operands of rank >= 1, got a {} and b {}", a.str(), b.str());
  MatmulDims d;
  size_t ra = a.shape.size(), rb = b.shape.size();
  d.m = ra == 1 ? 1 : a.shape[ra - 2];
  d.k = a.shape[ra - 1];
  int64_t kb = rb == 1 ? b.shape[0] : b.shape[rb - 2];
  d.n = rb == 1 ? 1 : b.shape[rb - 1];
  if (d.k != kb)
    fail("matmul inner dimensions differ: a {} has {} columns, b {} has {} rows", a.str(), d.k,
         b.str(), kb);
  if (ra > 2) d.a_batch.assign(a.shape.begin(), a.shape.end() - 2);
  if (rb > 2) d.b_batch.assign(b.shape.begin(), b.shape.end() - 2);
  if (!broadcastable(d.a_batch, d.b_batch))
    fail("matmul batch dimensions of a {} and b {} do not broadcast", a.str(), b.str());
  d.batch = broadcast_shapes(d.a_batch, d.b_batch);
  d.out = d.batch;
  if (ra > 1) d.out.push_back(d.m);
  if (rb > 1) d.out.push_back(d.n);
  return d;
}

void require_matmul_operands(const TensorType& a, const TensorType& b, const char* op) {
  require_dtype(a, kMatmulTypes, fmt::format("{} input 'a'", op));
  if (b.dtype != a.dtype)
    fail("{} inputs must share one dtype, got a {} and b {}", op, a.str(), b.str());
}

std::vector<TensorType> infer_matmul(const std::vector<TensorType>& in, const Attrs&, size_t) {
  require_matmul_operands(in[0], in[1], "matmul");
  return {{in[0].dtype, matmul_dims(in[0], in[1]).out}};
}

// Four doubles (GCC's vector extension): lane-wise + and * only, no clone enables FMA, so each
// lane rounds as the scalar loop does.
using v4d = double __attribute__((vector_size(32)));

// orow[j] = orow[j] + a * brow[j] for j < n: one step of the i-k-j loop over a row, each element
// still one multiply and one add, vectorised across j.
[[gnu::target_clones("avx2", "default")]] void add_scaled_row(double* orow, double a,
                                                              const double* brow, int64_t n) {
  v4d av{a, a, a, a};
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    v4d o, b;
    std::memcpy(&o, orow + j, sizeof o);
    std::memcpy(&b, brow + j, sizeof b);
    o = o + av * b;
    std::memcpy(orow + j, &o, sizeof o);
  }
  for (; j < n; ++j) orow[j] = orow[j] + a * brow[j];
}

void add_scaled_row(int64_t* orow, int64_t a, const int64_t* brow, int64_t n) {
  for (int64_t j = 0; j < n; ++j) orow[j] = acc_add(orow[j], acc_mul(a, brow[j]));
}

// [batch..., m, k] x [batch..., k, n] over the widened values.
template <typename T>
std::vector<T> matmul_values(const std::vector<T>& av, const std::vector<T>& bv,
                             const MatmulDims& d) {
  if (std::find(d.out.begin(), d.out.end(), 0) != d.out.end()) return {};
  std::vector<int64_t> a_off = offsets_over(d.batch, broadcast_strides(d.a_batch, d.batch));
  std::vector<int64_t> b_off = offsets_over(d.batch, broadcast_strides(d.b_batch, d.batch));
  int64_t m = d.m, k = d.k, n = d.n;
  std::vector<T> out(a_off.size() * static_cast<size_t>(m * n), T{0});
  for (size_t bi = 0; bi < a_off.size(); ++bi) {
    const T* pa = av.data() + a_off[bi] * m * k;
    const T* pb = bv.data() + b_off[bi] * k * n;
    T* po = out.data() + static_cast<int64_t>(bi) * m * n;
    // i-k-j order keeps the inner loop contiguous; each output still sums over k in order.
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; ++kk) add_scaled_row(po + i * n, pa[i * k + kk], pb + kk * n, n);
  }
  return out;
}

// The matmul kernel bound to one node: a constant right operand is widened once.
template <typename T>
PreparedKernelFn prepare_matmul_as(const Tensor* constant_b, const MatmulDims& d,
                                   const TensorType& out) {
  auto b = constant_b ? std::make_shared<const std::vector<T>>(read_as<T>(*constant_b)) : nullptr;
  return [b, d, out](const std::vector<const Tensor*>& in) {
    std::vector<T> a = read_as<T>(*in[0]);
    std::vector<T> run_b = b ? std::vector<T>{} : read_as<T>(*in[1]);
    return std::vector<Tensor>{tensor_from(out, matmul_values<T>(a, b ? *b : run_b, d))};
  };
}

}  // namespace

PreparedKernelFn prepare_matmul(const std::vector<const Tensor*>& constants,
                                const std::vector<TensorType>& in, const Attrs&,
                                const std::vector<TensorType>& out) {
  MatmulDims d = matmul_dims(in[0], in[1]);
  const Tensor* b = constants.size() > 1 ? constants[1] : nullptr;
  if (is_float(in[0].dtype)) return prepare_matmul_as<double>(b, d, out[0]);
  return prepare_matmul_as<int64_t>(b, d, out[0]);
}

namespace {

std::vector<Tensor> kernel_matmul(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                  const std::vector<TensorType>& out) {
  return prepare_matmul({}, {in[0]->type(), in[1]->type()}, attrs, out)(in);
}

OpDef matmul_op() {
  OpDef op;
  op.name = "matmul";
  op.doc =
      "Matrix product with numpy semantics: batch axes broadcast, 1-D operands act as a row "
      "(left) or column (right) vector whose unit axis is dropped.";
  op.input_names = {"a", "b"};
  op.min_inputs = op.max_inputs = 2;
  op.infer = infer_matmul;
  op.kernel = kernel_matmul;
  op.onnx = {"MatMul", 13, {}};
  op.tags = {"linalg", "accumulates"};
  return op;
}

// --- gemm ----------------------------------------------------------------------------------

struct GemmDims {
  int64_t m, k, n;
};

GemmDims gemm_dims(const std::vector<TensorType>& in, const Attrs& attrs) {
  const TensorType &a = in[0], &b = in[1];
  require_matmul_operands(a, b, "gemm");
  require_rank(a, 2, 2, "gemm input 'a'");
  require_rank(b, 2, 2, "gemm input 'b'");
  bool ta = attr_int(attrs, "transA") != 0, tb = attr_int(attrs, "transB") != 0;
  GemmDims d{a.shape[ta ? 1 : 0], a.shape[ta ? 0 : 1], b.shape[tb ? 0 : 1]};
  int64_t kb = b.shape[tb ? 1 : 0];
  if (d.k != kb)
    fail(
        "gemm inner dimensions differ: op(a) of a {} (transA={}) has {} columns, op(b) of b {} "
        "(transB={}) has {} rows",
        a.str(), ta ? 1 : 0, d.k, b.str(), tb ? 1 : 0, kb);
  if (in.size() > 2) {
    const TensorType& c = in[2];
    if (c.dtype != a.dtype)
      fail("gemm input 'c' must be {} like a, got {}", dtype_name(a.dtype), c.str());
    Shape mn{d.m, d.n};
    if (c.shape.size() > 2 || !broadcastable(c.shape, mn) || broadcast_shapes(c.shape, mn) != mn)
      fail("gemm input 'c' {} does not broadcast to the result shape {}", c.str(), shape_str(mn));
  }
  return d;
}

std::vector<TensorType> infer_gemm(const std::vector<TensorType>& in, const Attrs& attrs, size_t) {
  GemmDims d = gemm_dims(in, attrs);
  return {{in[0].dtype, {d.m, d.n}}};
}

// op(b) as a row-major [k, n] array of widened values.
template <typename T>
std::vector<T> gemm_b(const Tensor& b, const GemmDims& d, bool tb) {
  std::vector<T> bv = read_as<T>(b);
  if (!tb) return bv;
  std::vector<T> kn(bv.size());
  for (int64_t kk = 0; kk < d.k; ++kk)
    for (int64_t j = 0; j < d.n; ++j) kn[kk * d.n + j] = bv[j * d.k + kk];
  return kn;
}

// op(a) x op(b) in the widened type; each output sums over k in order.
template <typename T>
std::vector<T> gemm_dots(const Tensor& a, const std::vector<T>& b_kn, const GemmDims& d, bool ta) {
  std::vector<T> av = read_as<T>(a);
  int64_t as_i = ta ? 1 : d.k, as_k = ta ? d.m : 1;
  std::vector<T> dot(static_cast<size_t>(d.m * d.n), T{0});
  for (int64_t i = 0; i < d.m; ++i)
    for (int64_t kk = 0; kk < d.k; ++kk)
      add_scaled_row(dot.data() + i * d.n, av[i * as_i + kk * as_k], b_kn.data() + kk * d.n, d.n);
  return dot;
}

bool whole_int64(double v) {
  return std::trunc(v) == v && v >= -9223372036854775808.0 && v < 9223372036854775808.0;
}

// alpha * dot + beta * c in the widened type. Integer results stay exact when alpha and beta are
// whole numbers; otherwise they are computed in double and truncated like any float-to-int store.
// cv holds c's widened values (nullptr: no c), read with broadcast strides cs.
template <typename T>
Tensor gemm_finish(std::vector<T> dot, const std::vector<T>* cv, const std::vector<int64_t>& cs,
                   const GemmDims& d, double alpha, double beta, const TensorType& out) {
  bool exact = std::is_same_v<T, int64_t> && whole_int64(alpha) && whole_int64(beta);
  std::vector<double> inexact;
  if (!exact) inexact.resize(dot.size());
  for (int64_t i = 0; i < d.m; ++i)
    for (int64_t j = 0; j < d.n; ++j) {
      size_t o = static_cast<size_t>(i * d.n + j);
      if (exact) {
        T y = acc_mul(dot[o], static_cast<T>(alpha));
        if (cv) y = acc_add(y, acc_mul(static_cast<T>(beta), (*cv)[i * cs[0] + j * cs[1]]));
        dot[o] = y;
      } else {
        double y = alpha * static_cast<double>(dot[o]);
        if (cv) y += beta * static_cast<double>((*cv)[i * cs[0] + j * cs[1]]);
        inexact[o] = y;
      }
    }
  return exact ? tensor_from(out, dot) : tensor_from(out, inexact);
}

// The gemm kernel bound to one node: constant b (laid out as op(b)) and c are widened once.
template <typename T>
PreparedKernelFn prepare_gemm_as(const std::vector<const Tensor*>& constants, const GemmDims& d,
                                 const Attrs& attrs, const std::optional<Shape>& c_shape,
                                 const TensorType& out) {
  bool ta = attr_int(attrs, "transA") != 0, tb = attr_int(attrs, "transB") != 0;
  double alpha = onnx_float_attr(attrs, "alpha"), beta = onnx_float_attr(attrs, "beta");
  auto constant = [&](size_t i) { return i < constants.size() ? constants[i] : nullptr; };
  std::shared_ptr<const std::vector<T>> b, c;
  if (constant(1)) b = std::make_shared<const std::vector<T>>(gemm_b<T>(*constant(1), d, tb));
  if (c_shape && constant(2)) c = std::make_shared<const std::vector<T>>(read_as<T>(*constant(2)));
  std::vector<int64_t> cs{0, 0};
  if (c_shape) cs = broadcast_strides(*c_shape, {d.m, d.n});
  bool has_c = c_shape.has_value();
  return [=](const std::vector<const Tensor*>& in) {
    std::vector<T> run_b = b ? std::vector<T>{} : gemm_b<T>(*in[1], d, tb);
    std::vector<T> run_c = !has_c || c ? std::vector<T>{} : read_as<T>(*in[2]);
    const std::vector<T>* cv = !has_c ? nullptr : c ? c.get() : &run_c;
    return std::vector<Tensor>{
        gemm_finish(gemm_dots<T>(*in[0], b ? *b : run_b, d, ta), cv, cs, d, alpha, beta, out)};
  };
}

}  // namespace

PreparedKernelFn prepare_gemm(const std::vector<const Tensor*>& constants,
                              const std::vector<TensorType>& in, const Attrs& attrs,
                              const std::vector<TensorType>& out) {
  // A trailing omitted c is left out of `in` (input_types), as kernel_gemm leaves it out.
  std::vector<TensorType> types(in.begin(), in.begin() + std::min<size_t>(in.size(), 3));
  GemmDims d = gemm_dims(types, attrs);
  std::optional<Shape> c_shape;
  if (types.size() > 2) c_shape = types[2].shape;
  if (is_float(types[0].dtype))
    return prepare_gemm_as<double>(constants, d, attrs, c_shape, out[0]);
  return prepare_gemm_as<int64_t>(constants, d, attrs, c_shape, out[0]);
}

namespace {

std::vector<Tensor> kernel_gemm(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                const std::vector<TensorType>& out) {
  std::vector<TensorType> types{in[0]->type(), in[1]->type()};
  if (in.size() > 2 && in[2]) types.push_back(in[2]->type());
  return prepare_gemm({}, types, attrs, out)(in);
}

OpDef gemm_op() {
  OpDef op;
  op.name = "gemm";
  op.doc =
      "General matrix product alpha * op(a) x op(b) + beta * c on 2-D operands, where op "
      "transposes when transA/transB is 1 and the optional c broadcasts to the result.";
  op.input_names = {"a", "b", "c"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs = {
      {"alpha", AttrKind::Float, AttrValue{1.0}, false, "scale of the product"},
      {"beta", AttrKind::Float, AttrValue{1.0}, false, "scale of c"},
      {"transA", AttrKind::Int, AttrValue{int64_t{0}}, false, "1: transpose a first"},
      {"transB", AttrKind::Int, AttrValue{int64_t{0}}, false, "1: transpose b first"},
  };
  op.infer = infer_gemm;
  op.kernel = kernel_gemm;
  op.onnx = {"Gemm", 13, {}};
  // An integer gemm whose exact result leaves its dtype is undefined (core/compare/
  // undefined_check): ONNX leaves it open, onnx.reference scales in double and converts.
  op.tags = {"linalg", "accumulates", "overflow-undefined"};
  return op;
}

// --- einsum --------------------------------------------------------------------------------

void require_einsum_operands(const std::vector<TensorType>& in) {
  for (size_t i = 0; i < in.size(); ++i) {
    require_numeric(in[i], fmt::format("einsum input {}", i));
    if (in[i].dtype != in[0].dtype)
      fail("einsum inputs must share one dtype, got {} (input 0) and {} (input {})", in[0].str(),
           in[i].str(), i);
  }
}

std::vector<Shape> shapes_of(const std::vector<TensorType>& in) {
  std::vector<Shape> s;
  for (const auto& t : in) s.push_back(t.shape);
  return s;
}

std::vector<TensorType> infer_einsum(const std::vector<TensorType>& in, const Attrs& attrs,
                                     size_t) {
  require_einsum_operands(in);
  EinsumPlan plan = plan_einsum(attr_string(attrs, "equation"), shapes_of(in));
  return {{in[0].dtype, plan.out_shape}};
}

std::vector<Tensor> kernel_einsum(const std::vector<const Tensor*>& in, const Attrs& attrs,
                                  const std::vector<TensorType>& out) {
  std::vector<Shape> shapes;
  for (const Tensor* t : in) shapes.push_back(t->shape());
  EinsumPlan plan = plan_einsum(attr_string(attrs, "equation"), shapes);
  return {run_einsum(plan, in, out[0])};
}

OpDef einsum_op() {
  OpDef op;
  op.name = "einsum";
  op.doc =
      "Einstein summation over the inputs as the equation says (\"ij,jk->ik\"; repeated "
      "labels take diagonals, '...' broadcasts, no '->' means the implicit output).";
  op.input_names = {"inputs"};
  op.min_inputs = 1;
  op.max_inputs = -1;
  op.attrs = {{"equation", AttrKind::String, std::nullopt, true,
               "the einsum equation, e.g. \"bij,bjk->bik\""}};
  op.infer = infer_einsum;
  op.kernel = kernel_einsum;
  op.input_domains = {ValueDomain::Finite};
  op.onnx = {"Einsum", 12, {}};
  // Accumulates: its contraction is a float sum in an order ONNX leaves open (ab->b of a column
  // [9.2e18, 128, -2.1e9, -9.2e18, -2.1e9] is 4.3e9 exactly, 2.1e9 in ONNX Runtime's f32; seed
  // 7115 oatest #6).
  op.tags = {"linalg", "accumulates"};
  return op;
}

}  // namespace

void register_linalg_ops(OpRegistry& r) {
  r.add(matmul_op());
  r.add(gemm_op());
  r.add(einsum_op());
}

}  // namespace retort
