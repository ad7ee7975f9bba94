#include "core/egraph/justification.h"

#include <fmt/format.h>

namespace retort {

std::string Justification::str() const {
  if (kind == Kind::Congruence) return "congruence";
  return fmt::format("rule {} (step {})", rule, step);
}

}  // namespace retort
