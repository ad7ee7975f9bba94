// Quoting and shared looks for Graphviz DOT text, used by every DOT writer (graphs, e-graphs,
// diffs).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retort {

// The text escaped for use inside a double-quoted DOT string.
std::string dot_escape(std::string_view s);

// Edge labels are small and sans-serif, so that the node labels (monospace, larger) dominate a
// picture: an edge says only an operand's position, the node above it says the value.
inline constexpr const char* kDotEdgeDefaults = "  edge [fontname=\"sans-serif\", fontsize=8];\n";

// Invisible edges that stack the nodes `ids` (DOT ids, unescaped) one under the other: a legend
// reads as a column beside the picture rather than a row wider than it.
std::string dot_column(const std::vector<std::string>& ids);

}  // namespace retort
