// A rewrite trace as JSON (part of the session file, docs/formats.md): every step with its
// rule, matched class and e-node (op by name, attributes by value), substitution, parameters
// and the sizes it left, so that a fresh process can replay it to the same e-graph.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/rules/trace.h"

namespace retort {

nlohmann::json trace_to_json(const RewriteTrace& trace);
// Errors name the file and the JSON path under `path_prefix` ("egraph.trace.").
RewriteTrace trace_from_json(const nlohmann::json& j, const std::string& file,
                             const std::string& path_prefix);

}  // namespace retort
