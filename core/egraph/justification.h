// Why two e-classes were merged: a rewrite rule applied at one step of the rewrite trace, or
// congruence (same op and attributes over children already known equal).
#pragma once

#include <cstdint>
#include <string>

namespace retort {

struct Justification {
  enum class Kind : uint8_t { Rule, Congruence };
  Kind kind = Kind::Rule;
  std::string rule;   // the rule's name (Kind::Rule)
  uint32_t step = 0;  // index of the step in the rewrite trace (Kind::Rule)

  static Justification by_rule(std::string rule, uint32_t step) {
    return {Kind::Rule, std::move(rule), step};
  }
  static Justification congruence() { return {Kind::Congruence, {}, 0}; }
  // "rule add-comm (rewrite #4)" or "congruence".
  std::string str() const;
};

}  // namespace retort
