// The JSON graph format (versioned, lossless; documented in docs/formats.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/graph/graph.h"

namespace retort {

inline constexpr int kJsonGraphVersion = 1;

nlohmann::json graph_to_json(const Graph& g);
// Errors name the JSON path of the bad field ("nodes[3].attrs.axis", after `path_prefix` for a
// graph inside another document: "graph."). Result is inferred.
Graph graph_from_json(const nlohmann::json& j, const std::string& file = "",
                      const std::string& path_prefix = "");
Graph parse_json_graph(std::string_view text, const std::string& file = "");

}  // namespace retort
