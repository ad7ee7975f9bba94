#include "core/ops/value_domain.h"

#include <cmath>

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
  }
  return "?";
}

bool in_domain(double v, ValueDomain domain) {
  switch (domain) {
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
  }
  return true;
}

}  // namespace retort
