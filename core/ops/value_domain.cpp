#include "core/ops/value_domain.h"

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
  }
  return "?";
}

std::string InputDomain::str() const {
  if (kind == ValueDomain::AxisIndex) return fmt::format("[{}, {}]", -axis_size, axis_size - 1);
  return std::string(domain_name(kind));
}

bool in_domain(double v, const InputDomain& domain) {
  switch (domain.kind) {
    case ValueDomain::Any:
      return true;
    case ValueDomain::Positive:
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
  }
  return true;
}

}  // namespace retort
