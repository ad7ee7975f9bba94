#include "core/tensor/random_tensor.h"

#include <algorithm>
#include <cmath>

namespace retort {

namespace {
struct Range {
  double lo, hi;
};

// The indices [-d, d-1] of an axis of size d; an empty axis has no valid index, so it gets 0,
// which evaluation and the undefined check then report.
Range index_range(const InputDomain& d) {
  if (d.axis_size < 1) return {0, 0};
  return {static_cast<double>(-d.axis_size), static_cast<double>(d.axis_size - 1)};
}

Range float_range(const InputDomain& d) {
  switch (d.kind) {
    case ValueDomain::Positive:
    case ValueDomain::PowBase:
      return {0.125, 2.0};
    case ValueDomain::NonNegative:
      return {0.0, 2.0};
    case ValueDomain::UnitClosed:
      return {-1.0, 1.0};
    case ValueDomain::AtLeastOne:
      return {1.0, 3.0};
    case ValueDomain::Probability:
      return {0.0, 1.0};
    case ValueDomain::NonZero:
    case ValueDomain::NotNaN:
    case ValueDomain::Finite:
    case ValueDomain::WellConditioned:
    case ValueDomain::FmodDividend:
    case ValueDomain::IntegerDividend:
    case ValueDomain::Any:
      return {-1.0, 1.0};
    case ValueDomain::AxisIndex:
      return index_range(d);
    case ValueDomain::IntegerTarget:
      return {std::max(static_cast<double>(d.lo), -8.0), std::min(static_cast<double>(d.hi), 8.0)};
  }
  return {-1.0, 1.0};
}

Range int_range(DType t, const InputDomain& d) {
  bool is_unsigned = t == DType::u8;
  switch (d.kind) {
    case ValueDomain::Positive:
    case ValueDomain::PowBase:
    case ValueDomain::AtLeastOne:
      return {1, 8};
    case ValueDomain::NonNegative:
      return {0, 8};
    case ValueDomain::UnitClosed:
      return {is_unsigned ? 0.0 : -1.0, 1};
    case ValueDomain::Probability:
      return {0, 1};
    case ValueDomain::NonZero:
    case ValueDomain::IntegerTarget:  // an integer input casts without truncation: any value
    case ValueDomain::NotNaN:
    case ValueDomain::Finite:
    case ValueDomain::WellConditioned:
    case ValueDomain::FmodDividend:
    case ValueDomain::IntegerDividend:
    case ValueDomain::Any:
      return {is_unsigned ? 0.0 : -8.0, 8};
    case ValueDomain::AxisIndex:
      return index_range(d);
  }
  return {-8, 8};
}
}  // namespace

Tensor random_tensor(const TensorType& type, Rng& rng, const InputDomain& domain) {
  Tensor t(type);
  if (type.dtype == DType::boolean) {
    for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, rng.coin() ? 1 : 0);
    return t;
  }
  Range r = is_float(type.dtype) ? float_range(domain) : int_range(type.dtype, domain);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (is_float(type.dtype)) {
      double v = rng.uniform(r.lo, r.hi);
      // Keep non-zero draws away from zero so that reciprocals stay moderate.
      if (domain.kind == ValueDomain::NonZero && std::fabs(v) < 0.125) v = v < 0 ? -0.125 : 0.125;
      t.set(i, v);
    } else {
      int64_t v = rng.uniform_int(static_cast<int64_t>(r.lo), static_cast<int64_t>(r.hi));
      if (domain.kind == ValueDomain::NonZero && v == 0) v = 1;
      t.set_int(i, v);
    }
  }
  return t;
}

Tensor random_tensor_in(const TensorType& type, Rng& rng, double lo, double hi) {
  Tensor t(type);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (is_float(type.dtype))
      t.set(i, rng.uniform(lo, hi));
    else if (type.dtype == DType::boolean)
      t.set_int(i, rng.coin() ? 1 : 0);
    else
      t.set_int(i, rng.uniform_int(static_cast<int64_t>(std::ceil(lo)),
                                   static_cast<int64_t>(std::floor(hi))));
  }
  return t;
}

}  // namespace retort
