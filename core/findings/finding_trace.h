// How a finding's variants were made, kept with it so that opening it makes them again: the
// rewrite trace of the e-graph they were extracted from, and the program mutations its programs
// ran with (TorchProbe's, and the program forms of any case); a relaxed HirFuzz graph has
// neither.
#pragma once

#include <string>
#include <vector>

#include "core/backend/backend.h"

namespace retort {

struct FindingTrace {
  // The rewrite trace as JSON (core/rules/trace_json.h: attributes by value), empty for none.
  // Text, not a RewriteTrace: a trace's attribute set ids live only as long as its case
  // (core/egraph/attrs_scope.h), and a finding outlives it.
  std::string rewrites{};
  std::vector<ProgramMutation> mutations{};

  // The stored form: the rewrite trace, with "program_mutations": [{"kind": K, "seed": S}, ...]
  // added when there are mutations ({"program_mutations": [...]} alone without a trace), or
  // "[]" when there is neither.
  std::string to_json() const;
  // Reads what to_json wrote (and "[]", which older databases hold for a relaxed graph); an
  // Error names `where` when the text is neither.
  static FindingTrace from_json(const std::string& text, const std::string& where);
};

}  // namespace retort
