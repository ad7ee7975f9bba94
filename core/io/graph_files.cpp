#include "core/io/graph_files.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/io/json_graph.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

namespace retort {

namespace {

enum class GraphFormat { Rtg, Json, Onnx };

GraphFormat format_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".rtg") return GraphFormat::Rtg;
  if (ext == ".json") return GraphFormat::Json;
  if (ext == ".onnx") return GraphFormat::Onnx;
  fail("cannot tell the format of '{}' from its extension (known: .rtg, .json, .onnx)", path);
}

std::string json_text(const Graph& g) {
  try {
    return graph_to_json(g).dump(2) + "\n";
  } catch (const nlohmann::json::exception& e) {
    // dump() rejects names that are not valid UTF-8.
    fail("cannot write the graph as JSON: {}", e.what());
  }
}

}  // namespace

Graph load_graph_file(const std::string& path) {
  switch (format_of(path)) {
    case GraphFormat::Rtg:
      return parse_rtg(read_file(path), path);
    case GraphFormat::Json:
      return parse_json_graph(read_file(path), path);
    case GraphFormat::Onnx:
      return import_onnx_file(path);
  }
  fail("unreachable graph format for '{}'", path);
}

void save_graph_file(const Graph& g, const std::string& path, bool overwrite) {
  std::string data;
  switch (format_of(path)) {
    case GraphFormat::Rtg:
      data = print_rtg(g);
      break;
    case GraphFormat::Json:
      data = json_text(g);
      break;
    case GraphFormat::Onnx:
      data = export_onnx(g);
      break;
  }
  write_file(path, data, overwrite);
}

}  // namespace retort
