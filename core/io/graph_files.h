// Loading and saving graphs by file extension: .rtg, .json, .onnx.
#pragma once

#include <string>

#include "core/graph/graph.h"

namespace retort {

Graph load_graph_file(const std::string& path);
// Refuses to replace an existing file unless overwrite is set.
void save_graph_file(const Graph& g, const std::string& path, bool overwrite);

std::string read_file(const std::string& path);                                 // throws Error
void write_file(const std::string& path, const std::string& data, bool overwrite);  // throws Error

}  // namespace retort
