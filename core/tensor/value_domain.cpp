#include "core/tensor/value_domain.h"

#include <cmath>

#include <fmt/format.h>

namespace retort {

std::string_view domain_name(ValueDomain d) {
  switch (d) {
    case ValueDomain::Any:
      return "any";
    case ValueDomain::Positive:
      return "positive";
    case ValueDomain::NonNegative:
      return "non-negative";
    case ValueDomain::NonZero:
      return "non-zero";
    case ValueDomain::UnitClosed:
      return "[-1, 1]";
    case ValueDomain::AtLeastOne:
      return ">= 1";
    case ValueDomain::Probability:
      return "[0, 1]";
    case ValueDomain::AxisIndex:
      return "an index along input 0's 'axis'";
    case ValueDomain::PowBase:
      return "positive (or any, for an integral exponent; for integers, a power the dtype holds)";
    case ValueDomain::IntegerTarget:
      return "truncated into the target integer dtype's range";
    case ValueDomain::NotNaN:
      return "non-NaN";
    case ValueDomain::Finite:
      return "finite";
    case ValueDomain::WellConditioned:
      return "well-conditioned (|x| * eps of the dtype within its tolerance)";
    case ValueDomain::FmodDividend:
      return "well-conditioned (|x / divisor| * eps of the dtype below 1)";
    case ValueDomain::IntegerDividend:
      return "a quotient the dtype holds (not the lowest integer by -1)";
  }
  return "?";
}

InputDomain InputDomain::integer_target(int64_t lo, int64_t hi) {
  InputDomain d(ValueDomain::IntegerTarget);
  d.lo = lo;
  d.hi = hi;
  return d;
}

InputDomain InputDomain::well_conditioned(DType dtype) {
  // The largest power of two whose ulp in the dtype is within the dtype's default tolerance
  // (atol 5e-2, 1e-2, 1e-3, 1e-7: core/compare/tolerance.cpp): 8 has a bf16 ulp of 2^-4, 16 an
  // f16 ulp of 2^-6, 8192 an f32 ulp of 2^-10, 2^29 an f64 ulp of 2^-23.
  int exponent = dtype == DType::bf16 ? 3 : dtype == DType::f16 ? 4 : dtype == DType::f32 ? 13 : 29;
  InputDomain d(ValueDomain::WellConditioned);
  d.hi = int64_t{1} << exponent;
  d.lo = -d.hi;
  return d;
}

std::string InputDomain::str() const {
  if (kind == ValueDomain::AxisIndex) return fmt::format("[{}, {}]", -axis_size, axis_size - 1);
  if (kind == ValueDomain::IntegerTarget) return fmt::format("[{}, {}]", lo, hi);
  if (kind == ValueDomain::WellConditioned && hi > 0)
    return fmt::format("NaN, infinite or in [{}, {}] (well-conditioned)", lo, hi);
  return std::string(domain_name(kind));
}

bool drawn_as_any(ValueDomain d) {
  return d == ValueDomain::WellConditioned || d == ValueDomain::FmodDividend ||
         d == ValueDomain::IntegerDividend;
}

bool in_domain(double v, const InputDomain& domain) {
  switch (domain.kind) {
    case ValueDomain::Any:
    case ValueDomain::FmodDividend:     // checked with its divisor (fmod_conditioned)
    case ValueDomain::IntegerDividend:  // checked with its divisor (find_undefined)
      return true;
    case ValueDomain::WellConditioned:  // hi 0: no dtype known, nothing to bound
      return !std::isfinite(v) || domain.hi == 0 || std::abs(v) <= static_cast<double>(domain.hi);
    case ValueDomain::Positive:
    case ValueDomain::PowBase:
      return v > 0;
    case ValueDomain::NonNegative:
      return v >= 0;
    case ValueDomain::NonZero:
      return v != 0 && !std::isnan(v);
    case ValueDomain::UnitClosed:
      return v >= -1 && v <= 1;
    case ValueDomain::AtLeastOne:
      return v >= 1;
    case ValueDomain::Probability:
      return v >= 0 && v <= 1;
    case ValueDomain::AxisIndex:
      return v >= static_cast<double>(-domain.axis_size) &&
             v <= static_cast<double>(domain.axis_size - 1);
    case ValueDomain::NotNaN:
      return !std::isnan(v);
    case ValueDomain::Finite:
      return std::isfinite(v);
    // NaN fails both comparisons. hi + 1 is a power of two a double holds exactly, where
    // INT64_MAX itself rounds up to 2^63, which i64 does not hold.
    case ValueDomain::IntegerTarget:
      return std::trunc(v) >= static_cast<double>(domain.lo) &&
             std::trunc(v) < static_cast<double>(domain.hi) + 1.0;
  }
  return true;
}

bool pow_defined(double base, double exponent) {
  if (std::isnan(base) || std::isnan(exponent) || base > 0) return true;
  if (std::trunc(exponent) != exponent) return false;
  return base != 0 || exponent >= 0;
}

bool fmod_conditioned(double dividend, double divisor, DType dtype) {
  if (!std::isfinite(dividend) || !std::isfinite(divisor) || divisor == 0) return true;
  return std::abs(dividend / divisor) * float_epsilon(dtype) < 1;
}

}  // namespace retort
