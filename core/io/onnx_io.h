// ONNX import and export through libonnx (the only place that includes it).
#pragma once

#include <string>

#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

inline constexpr int kOnnxExportOpset = 17;

// Imports a model; ops the registry knows become registry nodes (constant inputs that Retort
// keeps as attributes are folded in), others become opaque nodes. Errors name the file and node.
Graph import_onnx(const std::string& bytes, const std::string& file = "");
Graph import_onnx_file(const std::string& path);

// Serialises g as an ONNX model (opset kOnnxExportOpset) that passes the ONNX checker.
std::string export_onnx(const Graph& g);

// A TensorProto file (as the ONNX test data ships, input_0.pb) to a Tensor, and back.
Tensor read_tensor_proto(const std::string& bytes, std::string* name = nullptr);
std::string write_tensor_proto(const Tensor& t, const std::string& name);

}  // namespace retort
