// Node attributes: a small closed set of value kinds shared by the registry, the formats and the
// e-graph (which hashes them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/base/dtype.h"

namespace retort {

// The kind an op declares for an attribute. DType attributes are stored as their name ("f16").
enum class AttrKind { Int, Float, String, Ints, Floats, Strings, DType };

using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>,
                               std::vector<double>, std::vector<std::string>>;
using Attrs = std::map<std::string, AttrValue>;  // ordered: printing and hashing are stable

std::string_view attr_kind_name(AttrKind k);
// True when the value's variant alternative fits the kind (an Int value also fits Float).
bool attr_fits(const AttrValue& v, AttrKind k);
// The value converted to the kind's own alternative (e.g. Int 2 as Float 2.0).
AttrValue attr_coerce(const AttrValue& v, AttrKind k);

// The value as .rtg source text: 3, 0.5, "s", [1,2], f16 (for DType kind pass the kind).
std::string attr_value_str(const AttrValue& v);

// Typed access; throw Error naming the attribute when it is absent or of another kind.
int64_t attr_int(const Attrs& a, const std::string& name);
double attr_float(const Attrs& a, const std::string& name);
const std::string& attr_string(const Attrs& a, const std::string& name);
const std::vector<int64_t>& attr_ints(const Attrs& a, const std::string& name);
DType attr_dtype(const Attrs& a, const std::string& name);
bool has_attr(const Attrs& a, const std::string& name);

}  // namespace retort
