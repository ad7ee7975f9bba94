// The values an op input must take for the op to be defined. Ops declare one per input
// (OpDef::input_domains); the input generator draws inside it and the undefined check
// (core/compare) flags values outside it.
#pragma once

#include <string_view>

namespace retort {

enum class ValueDomain { Any, Positive, NonNegative, NonZero, UnitClosed, AtLeastOne, Probability };

std::string_view domain_name(ValueDomain d);  // "positive", "non-zero", ...

// Whether v lies in the domain (NaN lies only in Any).
bool in_domain(double v, ValueDomain domain);

}  // namespace retort
