// Conversions between libonnx protobuf messages and Retort values, shared by the ONNX importer,
// exporter and tensor files. The messages are only forward-declared here so that libonnx stays
// inside core/io's .cpp files.
#pragma once

#include <string>

#include "core/tensor/tensor.h"

namespace onnx {
class TensorProto;
}  // namespace onnx

namespace retort {

// The tensor a TensorProto holds; `what` names it in errors ("initializer 'w'"). Throws
// OnnxUnsupported for element types and storage Retort lacks, Error for malformed data.
Tensor tensor_from_proto(const onnx::TensorProto& proto, const std::string& what);
// Fills proto with t's dtype, dims and raw little-endian bytes.
void tensor_to_proto(const Tensor& t, const std::string& name, onnx::TensorProto& proto);

// The dtype for an ONNX element type code, or OnnxUnsupported naming the type and `what`.
DType dtype_for_onnx(int code, const std::string& what);
// A readable name for an ONNX element type code ("uint32").
std::string onnx_type_label(int code);

// Call inside a catch block: rethrows the Error being handled with the file and node filled in
// where it lacks them, keeping an OnnxUnsupported one an OnnxUnsupported.
[[noreturn]] void rethrow_located(const std::string& file, const std::string& node = "");

}  // namespace retort
