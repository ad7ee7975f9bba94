#include "core/egraph/justification.h"

#include "core/egraph/rewrite_label.h"

#include <fmt/format.h>

namespace retort {

std::string Justification::str() const {
  if (kind == Kind::Congruence) return "congruence";
  return fmt::format("rule {} (rewrite {})", rule, rewrite_label(step));
}

std::string rewrite_label(uint32_t step) {
  return fmt::format("#{}", uint64_t{step} + 1);
}

}  // namespace retort
