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
  }
  return "?";
}

InputDomain InputDomain::integer_target(int64_t lo, int64_t hi) {
  InputDomain d(ValueDomain::IntegerTarget);
  d.lo = lo;
  d.hi = hi;
  return d;
}

std::string InputDomain::str() const {
  if (kind == ValueDomain::AxisIndex) return fmt::format("[{}, {}]", -axis_size, axis_size - 1);
  if (kind == ValueDomain::IntegerTarget) return fmt::format("[{}, {}]", lo, hi);
  return std::string(domain_name(kind));
}

bool in_domain(double v, const InputDomain& domain) {
  switch (domain.kind) {
    case ValueDomain::Any:
      return true;
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
    case ValueDomain::IntegerTarget:  // NaN fails both comparisons
      return std::trunc(v) >= static_cast<double>(domain.lo) &&
             std::trunc(v) <= static_cast<double>(domain.hi);
  }
  return true;
}

bool pow_defined(double base, double exponent) {
  if (std::isnan(base) || std::isnan(exponent) || base > 0) return true;
  if (std::trunc(exponent) != exponent) return false;
  return base != 0 || exponent >= 0;
}

}  // namespace retort
