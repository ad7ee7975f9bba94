// The values an op input must take for the op to be defined. Ops declare one per input
// (OpDef::input_domains); the input generator draws inside it and the undefined check
// (core/compare) flags values outside it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/dtype.h"

namespace retort {

enum class ValueDomain {
  Any,
  Positive,
  NonNegative,
  NonZero,
  UnitClosed,
  AtLeastOne,
  Probability,
  // An index along the axis that the node's attribute 'axis' picks in input 0: [-d, d-1] for
  // that axis's size d (gather's indices). Unlike the others it depends on the node.
  AxisIndex,
  // pow's base: any value where the exponent (input 1) is integral and the power is finite (a
  // negative base squared is defined: LayerNorm's Pow(x - mean, 2)), else positive. Alone, with no
  // exponent to look at, it is Positive; find_undefined (core/compare) checks each pair.
  PowBase,
  // cast's input when a float becomes an integer: values whose truncation the target dtype holds.
  // ONNX leaves NaN, infinities and out-of-range values undefined and runtimes disagree on them
  // (ONNX Runtime gives INT_MIN, TensorRT saturates). Like AxisIndex it depends on the node (its
  // 'to'); for any other cast it is Any.
  IntegerTarget,
  // Any number but NaN: where ONNX does not say how NaN compares (argmax's index of a NaN), and
  // runtimes disagree.
  NotNaN,
  // Any number but NaN and the infinities: where the order of a sum of products is the
  // implementation's (einsum contracts its operands pairwise in an order it chooses, and with an
  // infinity that order decides between inf and NaN).
  Finite,
  // sin, cos and tan's argument: NaN, an infinity (whose results every runtime agrees on), or a
  // magnitude whose ulp in the input's dtype stays within that dtype's default tolerance (at most
  // 8 in bf16, 16 in f16, 8192 in f32, 2^29 in f64; the bound is `hi`). Beyond it the result of an
  // intermediate one ulp off is anything in [-1, 1] (sin(exp(230)) with exp one ulp lower gives
  // 0.93 for 0.53). Like IntegerTarget it depends on the node (its input's dtype); for integers it
  // is Any.
  WellConditioned,
  // fmod's dividend: a value whose quotient by the divisor (input 1) is below 1 / eps of its
  // dtype, so that the remainder depends on more than the dividend's last bits (fmod of a product
  // 8.75e47 whose last bits depend on the order of multiplication). Alone, with no divisor to look
  // at, it is Any; find_undefined (core/compare) checks each pair, as for PowBase.
  FmodDividend,
  // div's dividend: for integers, a value whose quotient by the divisor (input 1) the dtype holds.
  // The most negative value divided by -1 does not: C++ leaves that division undefined and x86
  // traps, so ONNX Runtime dies of SIGFPE (any outcome, a crash included). Floats: any value.
  // Alone, with no divisor to look at, it is Any; find_undefined (core/compare) checks each pair,
  // as for PowBase.
  IntegerDividend,
};

std::string_view domain_name(ValueDomain d);  // "positive", "non-zero", ...

// A domain as it applies to one input of one node (OpDef::domain_of_input with the node's input
// types and attributes): AxisIndex carries the size of the axis it indexes. A plain ValueDomain
// converts to it; for AxisIndex that leaves axis size 0, where no index is valid.
struct InputDomain {
  InputDomain(ValueDomain kind = ValueDomain::Any, int64_t axis_size = 0)
      : kind(kind), axis_size(axis_size) {}
  // IntegerTarget for a target dtype holding [lo, hi].
  static InputDomain integer_target(int64_t lo, int64_t hi);
  // WellConditioned for an input of `dtype` (a float), with its bound in hi.
  static InputDomain well_conditioned(DType dtype);

  ValueDomain kind;
  int64_t axis_size;       // AxisIndex only
  int64_t lo = 0, hi = 0;  // IntegerTarget; hi also WellConditioned's bound

  bool operator==(const InputDomain&) const = default;
  std::string str() const;  // domain_name, or the index range ("[-3, 2]") of an AxisIndex
};

// Whether inputs and the generator's operands may be drawn as for Any: the domain excludes only
// values far beyond every draw but the special values, and matters for computed values, which
// find_undefined (core/compare) checks (WellConditioned, FmodDividend).
bool drawn_as_any(ValueDomain d);

// Whether v lies in the domain (NaN lies only in Any, WellConditioned and FmodDividend).
bool in_domain(double v, const InputDomain& domain);
// Whether base^exponent is defined for a float base (ValueDomain::PowBase): a positive base, or
// an integral exponent with a power that is not a pole (0 to a negative power). NaN operands are
// defined (IEEE propagates them).
bool pow_defined(double base, double exponent);
// Whether fmod(dividend, divisor) of `dtype` depends on more than the dividend's last bits
// (ValueDomain::FmodDividend): |dividend / divisor| * eps(dtype) < 1. NaN, infinities and a zero
// divisor are left to the other checks (defined here).
bool fmod_conditioned(double dividend, double divisor, DType dtype);

}  // namespace retort
