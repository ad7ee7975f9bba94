// Quoting and shared looks for Graphviz DOT text, used by every DOT writer (graphs, e-graphs,
// diffs).
#pragma once

#include <string>
#include <string_view>

namespace retort {

// The text escaped for use inside a double-quoted DOT string.
std::string dot_escape(std::string_view s);

// Edge labels are small and sans-serif, so that the node labels (monospace, larger) dominate a
// picture: an edge says only an operand's position, the node above it says the value.
inline constexpr const char* kDotEdgeDefaults = "  edge [fontname=\"sans-serif\", fontsize=8];\n";

}  // namespace retort
