// The version of Retort itself, recorded with every campaign (core/findings) so that a finding
// says which Retort found it.
#pragma once

#include <string_view>

namespace retort {

inline constexpr std::string_view kRetortVersion = "0.1.0";

}  // namespace retort
