// Loading and saving graphs by file extension: .rtg, .json, .onnx.
#pragma once

#include <string>

#include "core/graph/graph.h"
#include "core/io/file_io.h"

namespace retort {

Graph load_graph_file(const std::string& path);
// Refuses to replace an existing file unless overwrite is set.
void save_graph_file(const Graph& g, const std::string& path, bool overwrite);

}  // namespace retort
