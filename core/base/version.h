// The version of Retort itself, recorded with every campaign (core/findings) so that a finding
// says which Retort found it. Its one home: CMakeLists.txt reads the project version from here,
// and `retort --version` and the man page print it.
#pragma once

#include <string_view>

namespace retort {

inline constexpr std::string_view kRetortVersion = "0.4.0";

}  // namespace retort
