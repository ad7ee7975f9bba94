// Quoting for Graphviz DOT text, shared by every DOT writer (graphs, e-graphs, diffs).
#pragma once

#include <string>
#include <string_view>

namespace retort {

// The text escaped for use inside a double-quoted DOT string.
std::string dot_escape(std::string_view s);

}  // namespace retort
