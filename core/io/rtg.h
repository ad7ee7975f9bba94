// .rtg: Retort's text language for graphs (grammar in docs/formats.md).
#pragma once

#include <string>
#include <string_view>

#include "core/graph/graph.h"

namespace retort {

// Parses a whole .rtg text; errors carry file:line:col and what was expected. The result has
// passed infer_graph().
Graph parse_rtg(std::string_view text, const std::string& file = "");

// Applies one statement (as typed after `def` at the prompt) to g, re-inferring types; on error
// g is left unchanged.
void apply_rtg_statement(Graph& g, std::string_view statement);

struct RtgPrintOptions {
  bool show_types = true;              // a `# f32[2,3]` comment after each node
  int64_t max_literal_elements = -1;   // elide longer constant literals (display only; -1: never)
};
// Whether print_rtg can write every name of g (a model's names may hold line breaks).
bool rtg_can_print(const Graph& g);
// Text that parse_rtg reads back to the same graph (unless literals were elided).
std::string print_rtg(const Graph& g, const RtgPrintOptions& options = {});

}  // namespace retort
