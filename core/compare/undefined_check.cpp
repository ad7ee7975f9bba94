#include "core/compare/undefined_check.h"
#include "core/ops/op_def.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/graph/graph_dot.h"
#include "core/ops/attrs.h"
#include "core/ops/index_space.h"
#include "core/ops/onnx_float_attr.h"
#include "core/ops/registry.h"
#include "core/tensor/value_domain.h"

namespace retort {

namespace {

// ONNX Runtime's one-pass variance, whose cancellation instance_norm_variance_cancellation finds.
constexpr const char* kVarianceForm = "E[x^2] - mean^2";

}  // namespace

std::string UndefinedUse::str() const {
  if (!crash_open_at.empty()) {
    UndefinedUse alone = *this;
    alone.crash_open_at.clear();
    return fmt::format("{}; then {}", alone.str(), crash_open_at);
  }
  if (averages_nothing)
    return fmt::format(
        "{} averages no values (input '{}' is empty): ONNX leaves that mean undefined",
        node_ref(node, op), value);
  if (cancels == kVarianceForm)
    return fmt::format("{} cancels in {}: mean^2 [{}] is {:.7g}, far above var + epsilon",
                       node_ref(node, op), cancels, element, element_value);
  if (!cancels.empty())
    return fmt::format("{} cancels in {}: mean * s [{}] is {:.7g}, far above b", node_ref(node, op),
                       cancels, element, element_value);
  if (overflows.ends_with("beside an infinity"))
    return fmt::format(
        "{} underflows {}: the product of its factors below 1 [{}] is {:.17g}, so the order of "
        "multiplying decides between inf and NaN",
        node_ref(node, op), overflows, element, element_value);
  if (!overflows.empty())
    return fmt::format("{} overflows {}: its exact {} [{}] is {:.17g}", node_ref(node, op),
                       overflows,
                       overflows.ends_with("summing")       ? "sum of magnitudes"
                       : overflows.ends_with("multiplying") ? "product of the factors above 1"
                       : overflows.ends_with("in its sum")  ? "sum"
                                                            : "result",
                       element, element_value);
  return fmt::format("{} input {} '{}' needs {} values: [{}] = {:.7g}", node_ref(node, op),
                     input_index, value, domain.str(), element, element_value);
}

namespace {

// Whether an integer power is defined: it fits the base's dtype, and the exponent is not
// negative. The reference wraps a power that does not fit (docs/ops/elementwise.md), but ONNX
// leaves integer overflow open and runtimes compute the power in double and convert it (ONNX
// Runtime gives INT64_MIN for 7^40). A negative exponent ONNX's reference (numpy) refuses; the
// reference truncates 1 / a^-e like ONNX Runtime, XLA's repeated squaring gives garbage
// (3^-3 = 7838787811945079059 in i64).
bool int_pow_defined(double base, double exponent, DType dtype) {
  if (exponent < 0) return false;
  double power = std::pow(base, exponent);
  auto [lo, hi] = integer_range(dtype);
  return std::isfinite(power) && power >= static_cast<double>(lo) &&
         power < static_cast<double>(hi) + 1.0;
}

// Whether one pair of elements of a two-input domain is defined and, when not, whether ONNX
// leaves the whole run open there.
struct PairVerdict {
  bool defined;
  bool any_outcome = false;
};

// The first element where input 0 (a) and input 1 (b) make the node undefined by `verdict`, as
// the use of input 0 (pow's base, fmod's dividend).
template <typename Verdict>
std::optional<UndefinedUse> undefined_pair(const Node& node, const Tensor& a, const Tensor& b,
                                           const InputDomain& domain, Verdict verdict) {
  if (a.dtype() == DType::boolean) return std::nullopt;
  Shape out = broadcast_shapes(a.shape(), b.shape());
  std::optional<UndefinedUse> use;
  for_each_broadcast(out, {&a.shape(), &b.shape()}, [&](int64_t, const int64_t* offsets) {
    if (use) return;
    double x = a.get(offsets[0]), y = b.get(offsets[1]);
    PairVerdict v = verdict(x, y);
    if (v.defined) return;
    use = UndefinedUse{.node = node_title(node),
                       .op = node.op,
                       .value = node.inputs[0],
                       .input_index = 0,
                       .domain = domain,
                       .element = offsets[0],
                       .element_value = x,
                       .any_outcome = v.any_outcome};
  });
  return use;
}

// How many ulps of itself a computed value may be off in a compiler: a few roundings.
constexpr double kComputedUlps = 4;

// Whether fmod of a computed dividend (not exact in every compiler) keeps its rounding, which
// the remainder takes whole, within sqrt(eps) of the divisor: ONNX Runtime's mean of [0.84, 0.92,
// 2^53, -65535] is one ulp (0.25) from the reference's, and its remainder by 0.9986 is 0.92
// where the reference's is 0.18 (seed 7014 default #6).
bool computed_fmod_conditioned(double x, double y, DType dtype) {
  if (!std::isfinite(x) || !std::isfinite(y) || y == 0) return true;
  double eps = float_epsilon(dtype);
  return kComputedUlps * eps * std::abs(x / y) <= std::sqrt(eps);
}

// pow's base and exponent where the power is undefined (pow_defined, or an integer power too
// large for its dtype or with a negative exponent); fmod's dividend and divisor where the
// remainder is the dividend's rounding noise (fmod_conditioned, and for a `computed` dividend
// computed_fmod_conditioned); an integer division whose quotient the dtype cannot hold (the
// lowest value by -1), which leaves any outcome open. An
// `open` dividend (computed from an undefined use) may be the lowest value in the compiler
// whatever the reference made of it: ONNX Runtime converts an i64 product past the range to
// INT64_MIN where the reference wraps it, so any division of it by -1 is open.
std::optional<UndefinedUse> undefined_pair_use(const Node& node, const Tensor& a, const Tensor& b,
                                               const InputDomain& domain, bool open,
                                               bool computed) {
  DType dtype = a.dtype();
  if (domain.kind == ValueDomain::FmodDividend)
    return undefined_pair(node, a, b, domain, [dtype, computed](double x, double y) {
      return PairVerdict{fmod_conditioned(x, y, dtype) &&
                         (!computed || computed_fmod_conditioned(x, y, dtype))};
    });
  if (domain.kind == ValueDomain::IntegerDividend) {
    if (!is_integer(dtype)) return std::nullopt;
    double lowest = static_cast<double>(integer_range(dtype).first);
    return undefined_pair(node, a, b, domain, [lowest, open](double x, double y) {
      bool overflows = (open || x == lowest) && y == -1;
      return PairVerdict{!overflows, overflows};
    });
  }
  bool integer = is_integer(dtype);
  return undefined_pair(node, a, b, domain, [integer, dtype](double x, double y) {
    return PairVerdict{integer ? int_pow_defined(x, y, dtype) : pow_defined(x, y),
                       integer && y < 0};
  });
}

// The node's result, not an input, is undefined at element k, whose exact value v leaves what
// `overflows` names.
UndefinedUse overflow_use(const Node& node, int64_t k, double v, std::string overflows) {
  return UndefinedUse{.node = node_title(node),
                      .op = node.op,
                      .value = node.inputs[0],
                      .input_index = 0,
                      .domain = {},
                      .element = k,
                      .element_value = v,
                      .overflows = std::move(overflows)};
}

// The smallest positive value of a float dtype, a subnormal.
double least_subnormal(DType t) {
  switch (t) {
    case DType::f16:
      return 0x1p-24;
    case DType::bf16:
      return 0x1p-133;
    case DType::f32:
      return std::numeric_limits<float>::denorm_min();
    default:
      return std::numeric_limits<double>::denorm_min();
  }
}

// For float products (tag "multiplies": reduce_prod): the first output element whose factors'
// magnitudes of at least 1 multiply past the dtype's largest value. The reference multiplies in
// f64, where FLT_MAX x 0.625 x FLT_MAX x -0 stays -0; a compiler multiplying in the dtype in its
// own order reaches inf on the way, and inf x 0 is NaN (ONNX Runtime and onnx.reference did). In
// f64 the reference's own order may overflow where another's does not: DBL_MAX x -DBL_MAX x -0
// is NaN in the reference and -0 in ONNX Runtime, which multiplies the zero in first. The same
// the other way: nonzero factors below 1 that multiply below the dtype's least subnormal beside
// an infinite factor (and no zero): 2.9e-32 x 4.6e-22 is 0 in f32, so the product is inf in the
// reference's f64 and NaN in ONNX Runtime and onnx.reference (seed 6913 oatest #10).
std::optional<UndefinedUse> undefined_product(const Node& node, const OpDef& op, const Tensor& x) {
  if (!op.has_tag("multiplies") || !is_float(x.dtype())) return std::nullopt;
  Tensor large = x.cast(DType::f64), small = large, infinite = large, zero = large;
  for (int64_t k = 0; k < large.numel(); ++k) {
    double v = std::abs(large.get(k));
    large.set(k, std::isfinite(v) ? std::max(v, 1.0) : 1.0);  // an infinity wins in any order
    small.set(k, std::isfinite(v) && v > 0 ? std::min(v, 1.0) : 1.0);
    infinite.set(k, std::isinf(v) ? 2.0 : 1.0);
    zero.set(k, v == 0 ? 2.0 : 1.0);
  }
  std::vector<TensorType> types = op.infer({large.type()}, node.attrs, node.outputs.size());
  auto product = [&](const Tensor& factors) {
    return op.kernel({&factors}, node.attrs, types).at(0);
  };
  Tensor products = product(large);
  for (int64_t k = 0; k < products.numel(); ++k) {
    double v = products.get(k);
    if (v <= float_max(x.dtype())) continue;
    return overflow_use(node, k, v, fmt::format("{} while multiplying", dtype_name(x.dtype())));
  }
  Tensor smalls = product(small), infinities = product(infinite), zeros = product(zero);
  for (int64_t k = 0; k < smalls.numel(); ++k) {
    if (infinities.get(k) == 1 || zeros.get(k) != 1) continue;
    if (smalls.get(k) >= least_subnormal(x.dtype()) / 2) continue;
    return overflow_use(node, k, smalls.get(k),
                        fmt::format("{} beside an infinity", dtype_name(x.dtype())));
  }
  return std::nullopt;
}

// How many values one output element of an averaging op sums before it divides: the window of
// average_pool, the operands of mean, else the input elements per output element (reduce_mean,
// global_average_pool).
double terms_per_output(const Node& node, const std::vector<const Tensor*>& inputs,
                        const Tensor& out) {
  auto kernel = node.attrs.find("kernel_shape");
  if (kernel != node.attrs.end())
    if (const auto* sizes = std::get_if<std::vector<int64_t>>(&kernel->second)) {
      double n = 1;
      for (int64_t k : *sizes) n *= static_cast<double>(k);
      return n;
    }
  if (inputs.size() > 1) return static_cast<double>(inputs.size());
  return out.numel() ? static_cast<double>(inputs[0]->numel()) / static_cast<double>(out.numel())
                     : 1.0;
}

// For ops tagged "overflow-undefined" (integer reductions and scans) and integer means (tag
// "averages", whose sum a runtime keeps in the dtype): the first element of the node's result (a
// mean's sum) that, computed exactly, leaves the dtype. The reference wraps (and sums an i32 mean
// in 64 bits), but ONNX leaves overflow undefined and runtimes accumulate otherwise (ONNX
// Runtime's i32 reduce_sum gave INT32_MAX where the wrapped sum was INT32_MIN). The result is
// computed again in f64, which rounds past 2^53: where it fits, the reference's wrapped result is
// the exact one and the f64 one lies within rounding of it; where it does not, they lie 2^bits
// apart. A mean's sum is checked against the range in f64 (an i64 sum within 2^10 of an end
// counts as outside: undefined where it is not, never the other way).
// in: the node's inputs (an integer gemm's a, b and c alike).
std::optional<UndefinedUse> undefined_overflow(const Node& node, const OpDef& op,
                                               const std::vector<const Tensor*>& in) {
  bool averages = op.has_tag("averages");
  if (in.empty() || in.size() < node.inputs.size()) return std::nullopt;  // a value not kept
  const Tensor& x = *in[0];
  if ((!op.has_tag("overflow-undefined") && !averages) || !is_integer(x.dtype()))
    return std::nullopt;
  std::vector<Tensor> wide;
  std::vector<const Tensor*> wide_in;
  std::vector<TensorType> wide_types, types;
  wide.reserve(in.size());
  for (const Tensor* t : in) {
    wide.push_back(t->cast(DType::f64));
    wide_in.push_back(&wide.back());
    wide_types.push_back(wide.back().type());
    types.push_back(t->type());
  }
  std::vector<TensorType> exact_types = op.infer(wide_types, node.attrs, node.outputs.size());
  Tensor exact = op.kernel(wide_in, node.attrs, exact_types).at(0);
  Tensor wrapped =
      op.kernel(in, node.attrs, op.infer(types, node.attrs, node.outputs.size())).at(0);
  double terms = averages ? terms_per_output(node, wide_in, exact) : 1.0;
  double wrap_distance = std::ldexp(1.0, integer_bits(x.dtype()) - 2) / terms;
  auto [lo, hi] = integer_range(x.dtype());
  for (int64_t k = 0; k < exact.numel(); ++k) {
    double v = exact.get(k), sum = v * terms;
    bool wrapped_away = std::abs(v - static_cast<double>(wrapped.get_int(k))) >= wrap_distance;
    bool sum_outside =
        averages && !(sum >= static_cast<double>(lo) && sum < static_cast<double>(hi) + 1.0);
    if (!wrapped_away && !sum_outside) continue;
    std::string dtype(dtype_name(x.dtype()));
    return overflow_use(node, k, sum, averages ? dtype + " in its sum" : dtype);
  }
  return std::nullopt;
}

// For an f64 op that sums one operand: the first output element whose terms of one sign add up
// past DBL_MAX (each sign's part summed as magnitude_sums sums magnitudes).
std::optional<UndefinedUse> one_signed_overflow(const Node& node, const OpDef& op,
                                                const std::vector<const Tensor*>& given) {
  for (double sign : {1.0, -1.0}) {
    std::vector<Tensor> parts;
    for (const Tensor* t : given) {
      Tensor part = *t;
      if (is_float(t->dtype()))
        for (int64_t k = 0; k < part.numel(); ++k) part.set(k, std::max(0.0, sign * t->get(k)));
      parts.push_back(std::move(part));
    }
    std::vector<const Tensor*> pointers;
    for (const Tensor& p : parts) pointers.push_back(&p);
    std::optional<Tensor> sums = magnitude_sums(node, op, pointers);
    if (!sums) return std::nullopt;
    for (int64_t k = 0; k < sums->numel(); ++k)
      if (sums->get(k) > float_max(DType::f64))
        return overflow_use(node, k, sums->get(k), "f64 while summing");
  }
  return std::nullopt;
}

// For float ops that sum (tags "accumulates", "averages"): the first output element whose sum of
// magnitudes passes the dtype's largest value. The reference sums in f64, where it stays finite;
// a compiler summing in the dtype may overflow to inf, and inf + -inf is NaN, in an order ONNX
// leaves open (ONNX Runtime's f32 Gemm gave -inf where the f64 sum was -FLT_MAX; its ReduceSum
// and GlobalAveragePool, as onnx.reference's, inf).
std::optional<UndefinedUse> undefined_accumulation(const Node& node, const OpDef& op,
                                                   const TensorMap& values) {
  if (!op.has_tag("averages") && !op.has_tag("accumulates")) return std::nullopt;
  std::vector<const Tensor*> given;
  std::optional<DType> dtype;
  for (const std::string& name : node.inputs) {
    auto it = values.find(name);
    if (name.empty() || it == values.end()) return std::nullopt;
    given.push_back(&it->second);
    if (!dtype && is_float(it->second.dtype())) dtype = it->second.dtype();
  }
  if (!dtype) return std::nullopt;
  // An f64 sum of one operand is as wide as the reference's, which sums in doubles too, until
  // its terms of one sign pass DBL_MAX together: then some order reaches inf, and the order
  // decides between inf and NaN (ONNX Runtime's four lanes of [-inf, DBL_MAX x3, -DBL_MAX x2]
  // gave NaN where the reference's order gives -inf; seed 6610 oatest #10). [DBL_MAX, -DBL_MAX,
  // 0.2] passes DBL_MAX in no order: what it absorbs is the precision band's. The products of an
  // op that multiplies two operands pass it as their magnitudes do (DBL_MAX x DBL_MAX is inf, and
  // inf in a fused multiply-add). The bound and the sums, in doubles, reach inf exactly then.
  // Every case passes here, so first a bound that needs no second evaluation: no output sums more
  // than (its terms + 1) products of the inputs' largest magnitudes, each taken as at least 1, and
  // an output has fewer terms than its first input has elements plus the operands.
  double bound = static_cast<double>(given[0]->numel() + static_cast<int64_t>(given.size()));
  for (const Tensor* t : given) {
    if (!is_float(t->dtype())) continue;
    double largest = 1.0;
    for (int64_t k = 0; k < t->numel(); ++k) {
      double v = std::abs(t->get(k));
      if (std::isfinite(v)) largest = std::max(largest, v);
    }
    bound *= largest;
  }
  if (bound <= float_max(*dtype)) return std::nullopt;
  auto operands = std::count_if(given.begin(), given.end(),
                                [](const Tensor* t) { return is_float(t->dtype()); });
  if (*dtype == DType::f64 && operands < 2) return one_signed_overflow(node, op, given);
  std::optional<Tensor> sums = magnitude_sums(node, op, given);
  if (!sums) return std::nullopt;
  for (int64_t k = 0; k < sums->numel(); ++k) {
    double v = sums->get(k);
    if (v <= float_max(*dtype)) continue;
    return overflow_use(node, k, v, fmt::format("{} while summing", dtype_name(*dtype)));
  }
  return std::nullopt;
}

// A batch_norm's channel (axis 1) of each element of its x.
int64_t channel_of(const Shape& x, int64_t k) {
  int64_t inner = 1;
  for (size_t d = 2; d < x.size(); ++d) inner *= x[d];
  return (k / inner) % x[1];
}

// The node computing `value` when it sums (tag "accumulates": conv, matmul, gemm, sums); null
// otherwise.
const Node* summing_producer(const std::string& value,
                             const std::map<std::string, const Node*>& producers) {
  auto producer = producers.find(value);
  if (producer == producers.end()) return nullptr;
  const OpDef* op = OpRegistry::instance().find(producer->second->op);
  return op && op->has_tag("accumulates") ? producer->second : nullptr;
}

// The first element where `sum`'s sum of magnitudes times the scale's magnitude `factor` (in the
// scaling node's output shape) passes `max`.
std::optional<UndefinedUse> folded_sum_overflow(const Node& node, const Node& sum,
                                                const Tensor& factor, const TensorMap& values,
                                                DType dtype) {
  std::vector<const Tensor*> terms;
  for (const std::string& name : sum.inputs) {
    auto it = values.find(name);
    terms.push_back(name.empty() || it == values.end() ? nullptr : &it->second);
  }
  std::optional<Tensor> sums = magnitude_sums(sum, OpRegistry::instance().get(sum.op), terms);
  if (!sums) return std::nullopt;
  double max = float_max(dtype);
  std::optional<UndefinedUse> use;
  for_each_broadcast(factor.shape(), {&sums->shape()}, [&](int64_t k, const int64_t* off) {
    double v = sums->get(off[0]) * factor.get(k);
    if (!use && v > max)
      use = overflow_use(node, k, v,
                         fmt::format("{} (the scale folded into '{}') while summing",
                                     dtype_name(dtype), sum.name));
  });
  return use;
}

// The first element of an instance_norm whose |x| or its plane's |mean| times the plane's
// factor |scale| / sqrt(var + epsilon) passes the dtype's largest value: ONNX Runtime computes
// x * s + (b - mean * s), and s itself overflows (scale = FLT_MAX over a variance below 1) or is
// infinite (an infinite scale), so that inf - inf is NaN where the reference's
// scale * (x - mean) / sqrt(var + epsilon) + b is finite, or an infinity.
std::optional<UndefinedUse> instance_norm_scale_overflow(const Node& node,
                                                         const std::vector<const Tensor*>& in,
                                                         DType dtype) {
  const Tensor& x = *in[0];
  const Shape& s = x.shape();
  int64_t channels = s[1], plane = x.numel() / std::max<int64_t>(1, s[0] * channels);
  double max = float_max(dtype), eps = onnx_float_attr(node.attrs, "epsilon");
  for (int64_t start = 0; plane > 0 && start < x.numel(); start += plane) {
    auto [mean, var] = block_statistics(x, start, plane);
    int64_t c = (start / plane) % channels;
    double signed_f = in[1]->get(c) / std::sqrt(var + eps), f = std::abs(signed_f);
    if (std::isfinite(f) && f > max)  // s is inf, and 0 * s NaN (seed 7014 oatest #13)
      return overflow_use(node, start, f,
                          fmt::format("{} in scale / sqrt(var + epsilon)", dtype_name(dtype)));
    // b - mean * s past the dtype: -FLT_MAX - 0.9e38 is -inf, and so is every element of the
    // plane, where ONNX's values are finite (seed 7115 default #19).
    double shift = in.size() > 2 ? in[2]->get(c) - mean * signed_f : 0;
    if (std::isfinite(shift) && std::abs(shift) > max)
      return overflow_use(
          node, start, shift,
          fmt::format("{} in b - mean * scale / sqrt(var + epsilon)", dtype_name(dtype)));
    for (int64_t k = start; k < start + plane; ++k) {
      if (std::isfinite(x.get(k)) && std::abs(x.get(k)) * f > max)
        return overflow_use(
            node, k, x.get(k) * f,
            fmt::format("{} in x * scale / sqrt(var + epsilon)", dtype_name(dtype)));
      if (std::isfinite(mean) && std::abs(mean) * f > max)
        return overflow_use(
            node, k, mean * f,
            fmt::format("{} in mean * scale / sqrt(var + epsilon)", dtype_name(dtype)));
    }
  }
  return std::nullopt;
}

// The first plane of an instance_norm whose variance ONNX Runtime's one-pass form E[x^2] -
// mean^2 loses: its rounding, 2^-24 of E[x^2] in f32, passes 2e-4 of var + epsilon, so that the
// result is off by more than 1e-4 of itself. A plane [a, a + 2 ulps] of values near 1e3 has a
// variance of 1e-8, which the form gets 1,800 ulps of x * s wrong (seed 7216 default #18).
std::optional<UndefinedUse> instance_norm_variance_cancellation(const Node& node, const Tensor& x) {
  int64_t plane = normalized_block(node, x.shape());
  double eps = onnx_float_attr(node.attrs, "epsilon");
  double unit = std::ldexp(1.0, x.dtype() == DType::f64 ? -53 : -24);
  for (int64_t start = 0; plane > 1 && start < x.numel(); start += plane) {
    auto [mean, var] = block_statistics(x, start, plane);
    if (var == 0) continue;              // x^2 and mean^2 round alike (instance_norm_cancellation)
    double squares = var + mean * mean;  // E[x^2]
    if (std::isfinite(squares) && unit * squares > 2e-4 * (var + eps)) {
      UndefinedUse use = overflow_use(node, start, mean * mean, "");
      use.cancels = kVarianceForm;
      return use;
    }
  }
  return std::nullopt;
}

// The first element of an instance_norm where ONNX Runtime's x * s + (b - mean * s) (s = scale /
// sqrt(var + epsilon)) loses the result to cancellation. In a plane whose values are all equal
// (var 0, so s = scale / sqrt(epsilon), large) the result is b, but b - mean * s keeps b only to
// the rounding of |mean * s|: where that passes a tenth of f32's relative tolerance of b, the
// result is the form's, not ONNX's (0.0586 for b = 0.0601 with mean * s = 48827; seed 6509
// oatest #1, seed 6610 #2).
std::optional<UndefinedUse> instance_norm_cancellation(const Node& node,
                                                       const std::vector<const Tensor*>& in) {
  if (in.size() < 3) return std::nullopt;
  const Tensor& x = *in[0];
  const Shape& s = x.shape();
  int64_t channels = s[1], plane = x.numel() / std::max<int64_t>(1, s[0] * channels);
  double eps = onnx_float_attr(node.attrs, "epsilon");
  double unit = std::ldexp(1.0, x.dtype() == DType::f64 ? -53 : -24);
  for (int64_t start = 0; plane > 0 && start < x.numel(); start += plane) {
    double mean = x.get(start);
    bool constant = std::isfinite(mean);
    for (int64_t k = start; constant && k < start + plane; ++k) constant = x.get(k) == mean;
    if (!constant) continue;
    int64_t c = (start / plane) % channels;
    double m = mean * in[1]->get(c) / std::sqrt(eps), b = in[2]->get(c);
    if (b != 0 && std::isfinite(m) && unit * std::abs(m) > 1e-4 * std::abs(b)) {
      UndefinedUse use = overflow_use(node, start, m, "");
      use.cancels = "x * s + (b - mean * s)";
      return use;
    }
  }
  return std::nullopt;
}

// For a scale applied to a sum, which a compiler may fold into the sum's terms (ONNX Runtime at
// O3 folds a Mul or a BatchNormalization after a Conv into its weights) or distribute over x and
// the mean (it computes BatchNormalization as x*s + (b - mean*s)): the first element where that
// algebraically equal evaluation leaves the float dtype, though the reference's does not. A
// batch_norm whose |x| or |mean| times its factor passes the dtype's largest value (x = mean =
// scale = -FLT_MAX: the reference's (x - mean) * s + b is b, ONNX Runtime's inf - inf NaN); a mul
// or batch_norm of a summing node's result (tag "accumulates") whose sum of magnitudes times the
// scale's magnitude passes it (the folded conv's f32 sum overflows, and meets an infinite input's
// term as inf - inf). An instance_norm, which ONNX Runtime distributes the same way with each
// plane's own mean and variance (x * s + (b - mean * s), s = scale / sqrt(var + epsilon)).
std::optional<UndefinedUse> undefined_folded_scale(
    const Node& node, const TensorMap& values,
    const std::map<std::string, const Node*>& producers) {
  if (node.op != "mul" && node.op != "batch_norm" && node.op != "instance_norm")
    return std::nullopt;
  std::vector<const Tensor*> in;
  for (const std::string& name : node.inputs) {
    auto it = values.find(name);
    if (name.empty() || it == values.end() || !is_float(it->second.dtype())) return std::nullopt;
    in.push_back(&it->second);
  }
  DType dtype = in[0]->dtype();
  if (node.op == "instance_norm") {
    if (auto use = instance_norm_scale_overflow(node, in, dtype)) return use;
    if (auto use = instance_norm_variance_cancellation(node, *in[0])) return use;
    return instance_norm_cancellation(node, in);
  }
  if (node.op == "batch_norm") {
    double max = float_max(dtype);
    double eps = onnx_float_attr(node.attrs, "epsilon");
    Tensor f(DType::f64, in[0]->shape());
    for (int64_t k = 0; k < f.numel(); ++k) {
      int64_t c = channel_of(in[0]->shape(), k);
      f.set(k, std::abs(in[1]->get(c)) / std::sqrt(in[4]->get(c) + eps));
      double x = in[0]->get(k), mean = in[3]->get(c);
      if (std::isfinite(x) && std::abs(x) * f.get(k) > max)
        return overflow_use(node, k, x * f.get(k),
                            fmt::format("{} in x * scale", dtype_name(dtype)));
      if (std::isfinite(mean) && std::abs(mean) * f.get(k) > max)
        return overflow_use(node, k, mean * f.get(k),
                            fmt::format("{} in input_mean * scale", dtype_name(dtype)));
    }
    const Node* sum = summing_producer(node.inputs[0], producers);
    return sum ? folded_sum_overflow(node, *sum, f, values, dtype) : std::nullopt;
  }
  // A mul: either operand may be the sum, the other its scale. The scale's magnitudes are built
  // only for an operand a summing node computes: every case's every mul passes here.
  for (size_t i : {0, 1}) {
    const Node* sum = summing_producer(node.inputs[i], producers);
    if (!sum) continue;
    const Tensor& other = *in[1 - i];
    Tensor f(DType::f64, broadcast_shapes(in[0]->shape(), in[1]->shape()));
    for_each_broadcast(f.shape(), {&other.shape()}, [&](int64_t k, const int64_t* off) {
      f.set(k, std::abs(other.get(off[0])));
    });
    if (auto use = folded_sum_overflow(node, *sum, f, values, dtype)) return use;
  }
  return std::nullopt;
}

}  // namespace

std::set<std::string> exact_values(const Graph& g) {
  std::set<std::string> exact;
  for (const auto& in : g.inputs) exact.insert(in.name);
  for (const auto& c : g.constants) exact.insert(c.name);
  const OpRegistry& reg = OpRegistry::instance();
  for (const Node& n : g.nodes) {
    const OpDef* op = reg.find(n.op);
    if (!op || !op->has_tag("shape")) continue;
    if (std::all_of(n.inputs.begin(), n.inputs.end(),
                    [&](const std::string& in) { return in.empty() || exact.count(in); }))
      exact.insert(n.outputs.begin(), n.outputs.end());
  }
  return exact;
}

std::pair<double, double> block_statistics(const Tensor& x, int64_t start, int64_t n) {
  double mean = 0, var = 0;
  for (int64_t k = start; k < start + n; ++k) mean += x.get(k);
  mean /= static_cast<double>(n);
  for (int64_t k = start; k < start + n; ++k) var += (x.get(k) - mean) * (x.get(k) - mean);
  return {mean, var / static_cast<double>(n)};
}

int64_t normalized_block(const Node& node, const Shape& x) {
  if (node.op == "layer_norm") {
    int64_t axis = has_attr(node.attrs, "axis") ? attr_int(node.attrs, "axis") : -1;
    if (axis < 0) axis += static_cast<int64_t>(x.size());
    if (axis < 0 || axis > static_cast<int64_t>(x.size())) return 0;
    return numel(Shape(x.begin() + axis, x.end()));
  }
  if (node.op == "group_norm" && x.size() >= 2 && has_attr(node.attrs, "num_groups")) {
    int64_t groups = attr_int(node.attrs, "num_groups");
    return groups > 0 ? numel(x) / std::max<int64_t>(1, x[0] * groups) : 0;
  }
  if (node.op == "instance_norm" && x.size() >= 2 && x[0] * x[1] > 0)
    return numel(x) / (x[0] * x[1]);  // one plane of each sample and channel
  return 0;
}

std::optional<Tensor> magnitude_sums(const Node& node, const OpDef& op,
                                     const std::vector<const Tensor*>& inputs) {
  bool averages = op.has_tag("averages");
  if (!averages && !op.has_tag("accumulates")) return std::nullopt;
  if (std::none_of(inputs.begin(), inputs.end(),
                   [](const Tensor* t) { return t && is_float(t->dtype()); }))
    return std::nullopt;
  std::vector<Tensor> magnitudes;
  magnitudes.reserve(inputs.size());
  for (const Tensor* t : inputs) {
    if (!t) return std::nullopt;
    if (!is_float(t->dtype())) {
      magnitudes.push_back(*t);
      continue;
    }
    Tensor m = t->cast(DType::f64);
    for (int64_t k = 0; k < m.numel(); ++k) {
      double v = m.get(k);
      m.set(k, std::isfinite(v) ? std::abs(v) : 0.0);
    }
    magnitudes.push_back(std::move(m));
  }
  std::vector<const Tensor*> in;
  std::vector<TensorType> types;
  for (const Tensor& m : magnitudes) {
    in.push_back(&m);
    types.push_back(m.type());
  }
  // A runtime scales the product by alpha (and c by beta) after summing it, so the sum it holds
  // in the dtype is the unscaled one: seed 6408's Gemm summed past FLT_MAX with alpha -0.875.
  Attrs attrs = node.attrs;
  for (const char* scale : {"alpha", "beta"})
    if (auto it = attrs.find(scale); it != attrs.end())
      if (auto* v = std::get_if<double>(&it->second)) *v = std::max(1.0, std::abs(*v));
  Tensor sums = op.kernel(in, attrs, op.infer(types, attrs, node.outputs.size())).at(0);
  double terms = averages ? terms_per_output(node, in, sums) : 1.0;
  for (int64_t k = 0; k < sums.numel(); ++k) sums.set(k, std::abs(sums.get(k)) * terms);
  return sums;
}

namespace {

// A mean of no values (reduce_mean over an empty axis, global_average_pool of an empty spatial
// extent) is undefined in ONNX (onnx/onnx#5568); the reference and onnx.reference give NaN,
// ONNX Runtime 0.
std::optional<UndefinedUse> undefined_empty_mean(const Node& node, const OpDef& op,
                                                 const TensorMap& values) {
  if (!op.has_tag("averages") || node.inputs.empty() || node.outputs.empty()) return std::nullopt;
  auto x = values.find(node.inputs[0]);
  auto y = values.find(node.outputs[0]);
  if (x == values.end() || y == values.end() || x->second.numel() != 0 || y->second.numel() == 0)
    return std::nullopt;
  UndefinedUse use;
  use.node = node_title(node);
  use.op = node.op;
  use.value = node.inputs[0];
  use.averages_nothing = true;
  return use;
}

// The first element of a layer_norm or group_norm whose block's statistics leave f32: ONNX
// computes them in stash_type 1 (float32; its function body squares x - mean and averages), so
// a deviation of 1.7e38 squares to inf and every backend and onnx.reference normalize to 0,
// while the reference computes them in double and gives +-1 (seed 6509 oatest #7). An f32
// instance_norm's plane alike: ONNX Runtime and onnx.reference compute its statistics in f32 and
// give the bias where the reference's double variance of values near 5.8e21 is finite (seed
// 6812 oatest #2); an f64 one computes them in f64.
std::optional<UndefinedUse> undefined_stash_overflow(const Node& node, const TensorMap& values) {
  auto x = node.inputs.empty() ? values.end() : values.find(node.inputs[0]);
  if (x == values.end() || !is_float(x->second.dtype())) return std::nullopt;
  if (node.op == "instance_norm" && x->second.dtype() == DType::f64) return std::nullopt;
  const Tensor& t = x->second;
  int64_t block = normalized_block(node, t.shape());
  double max = float_max(DType::f32);
  for (int64_t start = 0; block > 0 && start < t.numel(); start += block) {
    double sum = 0, magnitudes = 0;
    for (int64_t k = start; k < start + block; ++k) {
      sum += t.get(k);
      magnitudes += std::abs(t.get(k));
    }
    if (!std::isfinite(magnitudes)) continue;  // an infinity is the dtype's own, not the stash's
    if (magnitudes > max) return overflow_use(node, start, magnitudes, "f32 in the mean's sum");
    double mean = sum / static_cast<double>(block), squares = 0;
    for (int64_t k = start; k < start + block; ++k) {
      double d = t.get(k) - mean;
      squares += d * d;
      if (squares > max) return overflow_use(node, k, squares, "f32 in the variance");
    }
  }
  return std::nullopt;
}

// The first element of a layer_norm or group_norm whose standardized value times its scale
// passes the dtype's largest value: ONNX's function body multiplies in the dtype, so the product
// is inf before the bias is added (inf + -inf is NaN in ONNX Runtime and onnx.reference), where
// the reference's f64 product meets the bias finite (n * FLT_MAX - inf is -inf; seed 6913 default
// #18, oatest #8).
std::optional<UndefinedUse> standardized_scale_overflow(const Node& node,
                                                        const std::vector<const Tensor*>& in) {
  if ((node.op != "layer_norm" && node.op != "group_norm") || in.size() < 2 ||
      !is_float(in[0]->dtype()))
    return std::nullopt;
  const Tensor& x = *in[0];
  int64_t block = normalized_block(node, x.shape());
  double max = float_max(x.dtype()), eps = onnx_float_attr(node.attrs, "epsilon");
  for (int64_t start = 0; block > 0 && start < x.numel(); start += block) {
    auto [mean, var] = block_statistics(x, start, block);
    double inv = 1 / std::sqrt(var + eps);
    for (int64_t k = start; k < start + block; ++k) {
      // layer_norm's scale has the normalized shape; group_norm's one value per channel.
      int64_t i = node.op == "layer_norm" ? k % block : channel_of(x.shape(), k);
      double v = (x.get(k) - mean) * inv * in[1]->get(i);
      if (std::isfinite(v) && std::abs(v) > max)
        return overflow_use(
            node, k, v,
            fmt::format("{} in the standardized value times scale", dtype_name(x.dtype())));
    }
  }
  return std::nullopt;
}

// The node's inputs in values, up to the first it lacks (an omitted optional one, or one not
// kept).
std::vector<const Tensor*> given_inputs(const Node& node, const TensorMap& values) {
  std::vector<const Tensor*> in;
  for (const std::string& name : node.inputs) {
    auto it = name.empty() ? values.end() : values.find(name);
    if (it == values.end()) break;
    in.push_back(&it->second);
  }
  return in;
}

// The first use of node's inputs outside its op's domains, or of a result it cannot hold.
std::optional<UndefinedUse> undefined_at(const Graph& g, const Node& node, const OpDef& op,
                                         const TensorMap& values,
                                         const std::map<std::string, const Node*>& producers,
                                         const std::set<std::string>& open,
                                         const std::set<std::string>& exact) {
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (op.domain_of_input(i) == ValueDomain::Any || node.inputs[i].empty()) continue;
    auto it = values.find(node.inputs[i]);
    if (it == values.end()) continue;
    InputDomain domain = op.domain_of_input(i, input_types(g, node), node.attrs);
    const Tensor& t = it->second;
    if (domain.kind == ValueDomain::PowBase || domain.kind == ValueDomain::FmodDividend ||
        domain.kind == ValueDomain::IntegerDividend) {
      auto other = node.inputs.size() > 1 ? values.find(node.inputs[1]) : values.end();
      if (other == values.end()) continue;
      if (auto use =
              undefined_pair_use(node, t, other->second, domain, open.count(node.inputs[i]) > 0,
                                 !exact.count(node.inputs[i])))
        return use;
      continue;
    }
    if (t.dtype() == DType::boolean) continue;
    for (int64_t k = 0; k < t.numel(); ++k) {
      double v = t.get(k);
      if (in_domain(v, domain)) continue;
      return UndefinedUse{.node = node_title(node),
                          .op = node.op,
                          .value = node.inputs[i],
                          .input_index = i,
                          .domain = domain,
                          .element = k,
                          .element_value = v};
    }
  }
  auto x = node.inputs.empty() ? values.end() : values.find(node.inputs[0]);
  if (x != values.end()) {
    if (auto use = undefined_overflow(node, op, given_inputs(node, values))) return use;
    if (auto use = undefined_product(node, op, x->second)) return use;
  }
  if (auto use = undefined_accumulation(node, op, values)) return use;
  if (auto use = undefined_empty_mean(node, op, values)) return use;
  if (auto use = undefined_stash_overflow(node, values)) return use;
  if (auto use = standardized_scale_overflow(node, given_inputs(node, values))) return use;
  return undefined_folded_scale(node, values, producers);
}

}  // namespace

std::optional<UndefinedUse> find_undefined(const Graph& g, const TensorMap& values) {
  const OpRegistry& reg = OpRegistry::instance();
  std::map<std::string, const Node*> producers;
  for (const Node& node : g.nodes)
    for (const std::string& out : node.outputs) producers.emplace(out, &node);
  // The first use; and the first that leaves the whole run open, where a later one does (an i64
  // product that overflows, then divided by -1, kills ONNX Runtime, and that crash is no bug).
  std::optional<UndefinedUse> first;
  std::set<std::string> open;  // values computed from an undefined use
  std::set<std::string> exact = exact_values(g);
  for (const Node& node : g.nodes) {
    if (node.is_opaque()) continue;
    const OpDef* op = reg.find(node.op);
    if (!op) continue;
    std::optional<UndefinedUse> use = undefined_at(g, node, *op, values, producers, open, exact);
    if (use || std::any_of(node.inputs.begin(), node.inputs.end(),
                           [&](const std::string& in) { return open.count(in) > 0; }))
      open.insert(node.outputs.begin(), node.outputs.end());
    if (!use) continue;
    if (!first)
      first = std::move(use);
    else if (use->any_outcome && !first->any_outcome && first->crash_open_at.empty())
      first->crash_open_at = use->str();
  }
  if (first) first->tainted = std::move(open);
  return first;
}

}  // namespace retort
