// Session files (docs/formats.md, "retort-session" version 1): a session's graph, rule sets,
// e-graph start graph and rewrite trace, seed, variants, attached backends and the input plan
// (`input`, `inputs`) in one JSON document. Opening one replays the trace in this process (the
// trace is saved by content, not by in-process ids) and extracts the variants again at the trace
// lengths they were made at.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/session/session.h"

namespace retort {

inline constexpr int kSessionFileVersion = 1;

nlohmann::json session_to_json(const Session& s);
// Writes the session file; an existing file is an Error unless `force`.
void save_session_file(const Session& s, const std::string& path, bool force);

// Fills `fresh` (a newly constructed Session) from a session document. Errors name the file and
// the JSON path of the bad field; a trace that does not replay is an Error naming the step.
// Returns warnings: variants whose new extraction differs from the saved graph (the new one is
// kept), rule sets whose built-in text changed since the file was saved.
std::vector<std::string> session_from_json(Session& fresh, const nlohmann::json& j,
                                           const std::string& file);
// Reads and parses the file (a JSON syntax error is located at line:col), then session_from_json.
std::vector<std::string> load_session_file(Session& fresh, const std::string& path);

}  // namespace retort
