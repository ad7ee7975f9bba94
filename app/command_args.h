// What commands read of their arguments and the session, shared by the command files: the
// tolerances and input seed of a command that runs graphs, a graph by name, seconds, and a
// compare's runs as progress.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "app/command.h"
#include "core/compare/tolerance.h"

namespace retort {

// A number (--atol, --rtol, --ulps, `tolerance` arguments); an Error naming `what` otherwise.
double parse_tolerance(const std::string& text, std::string_view what);
// The tolerances (--atol, --rtol, --ulps over the session's) and the input seed (--seed, else
// the session's) of a command that runs graphs.
ToleranceTable tolerances_for(const Session& s, const Args& args);
uint64_t seed_for(const Session& s, const Args& args);
// Reports a compare's runs as the command's progress (CompareOptions::progress).
std::function<void(size_t, size_t, const std::string&)> compare_progress(Output& out);
// "original" (the current graph) or a variant's graph; an Error listing the variants otherwise.
const Graph& graph_named(const Session& s, const std::string& name);
// A positive number of seconds (--time); an Error naming the option otherwise.
double parse_seconds(const std::string& text, std::string_view option);
// A match's or a rewrite's number, "3" or "#3": both count from #1 (`match` and `apply` print
// them); an Error naming `what` ("match", "rewrite") otherwise.
size_t parse_number_from_1(const std::string& text, std::string_view what);

}  // namespace retort
