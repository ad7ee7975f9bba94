// ONNX import and export through libonnx (the only place that includes it).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/exec/interpreter.h"
#include "core/graph/graph.h"
#include "core/ops/op_def.h"

namespace retort {

inline constexpr int kOnnxExportOpset = 17;
inline constexpr int kOnnxExportIrVersion = 8;
// The domain of the local functions export writes for a graph's functions (core/graph/functions.h).
inline constexpr std::string_view kOnnxFunctionDomain = "retort.functions";

// A model uses something Retort does not model (symbolic dimensions, an element type Retort
// lacks, subgraphs, a shape-defining input that is computed at run time). The conformance
// runner skips such models instead of failing them.
class OnnxUnsupported : public Error {
 public:
  using Error::Error;
};

struct OnnxImportOptions {
  // Values for graph inputs. They are used only where Retort needs a constant (an input that it
  // folds into an attribute, like Reshape's 'shape'); such an input leaves the graph's inputs
  // once nothing else reads it.
  TensorMap input_values;
};

struct OnnxImport {
  Graph graph;
  std::map<std::string, std::string> opaque_reasons;  // node name -> why it stayed opaque
};

// Imports a model; ops the registry knows become registry nodes (constant inputs that Retort
// keeps as attributes are folded in), others become opaque nodes. Errors name the file and node;
// OnnxUnsupported marks a feature Retort does not model.
OnnxImport import_onnx_model(const std::string& bytes, const std::string& file = "",
                             const OnnxImportOptions& options = {});
Graph import_onnx(const std::string& bytes, const std::string& file = "");
Graph import_onnx_file(const std::string& path);
// The model's graph inputs in order, initializers excluded (test data feeds them by position).
// Throws OnnxUnsupported when an input or output is not a tensor Retort can hold.
std::vector<std::string> onnx_graph_input_names(const std::string& bytes,
                                                const std::string& file = "");

// Serialises g as an ONNX model (opset kOnnxExportOpset) that passes the ONNX checker.
std::string export_onnx(const Graph& g);
// Serialises g as it stands, its types as g.types holds them, without inference or the checker:
// for graphs that break constraints on purpose (core/gen/relax.h). Throws Error only for what
// ONNX cannot carry at all.
std::string export_onnx_unchecked(const Graph& g);

// Whether the ONNX definition of `op` at kOnnxExportOpset takes bf16 wherever a node with these
// input and output types has one: many opset-17 ops take no bf16 (Sin, Conv, MaxPool, Round,
// TopK; most gained it in opset 22), though the reference computes them. True without bf16 and
// for ops without an ONNX form; every other dtype of a registry row is one ONNX takes
// (tests/core/io/onnx_export_check_test.cpp).
bool onnx_takes_bf16(const OpDef& op, const std::vector<TensorType>& inputs,
                     const std::vector<TensorType>& outputs);

// A TensorProto file (as the ONNX test data ships, input_0.pb) to a Tensor, and back.
Tensor read_tensor_proto(const std::string& bytes, std::string* name = nullptr);
Tensor read_tensor_proto_file(const std::string& path, std::string* name = nullptr);
std::string write_tensor_proto(const Tensor& t, const std::string& name);

}  // namespace retort
