// The element types ONNX's op schemas allow, asked of libonnx's schema registry.
#include <algorithm>

#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>

#include "core/io/onnx_io.h"

namespace retort {

namespace {

bool formal_takes_bf16(const onnx::OpSchema::FormalParameter& formal) {
  static const onnx::DataType kBf16 = onnx::Utils::DataTypeUtils::ToType("tensor(bfloat16)");
  return formal.GetTypes().count(kBf16) > 0;
}

// The formal parameter that the value at ONNX position `pos` binds (a variadic last one takes
// the rest); null past the end.
const onnx::OpSchema::FormalParameter* formal_at(
    const std::vector<onnx::OpSchema::FormalParameter>& formals, size_t pos) {
  if (formals.empty()) return nullptr;
  if (pos < formals.size()) return &formals[pos];
  return formals.back().GetOption() == onnx::OpSchema::Variadic ? &formals.back() : nullptr;
}

// The ONNX input position of each of the node's inputs: attributes that ONNX passes as inputs
// (OnnxMapping::attr_inputs) take their own positions between them, as export writes them.
std::vector<size_t> onnx_input_positions(const OpDef& op, size_t count) {
  std::vector<size_t> positions;
  for (size_t pos = 0; positions.size() < count; ++pos)
    if (std::none_of(op.onnx.attr_inputs.begin(), op.onnx.attr_inputs.end(),
                     [&](const OnnxAttrInput& a) { return static_cast<size_t>(a.index) == pos; }))
      positions.push_back(pos);
  return positions;
}

}  // namespace

bool onnx_takes_bf16(const OpDef& op, const std::vector<TensorType>& inputs,
                     const std::vector<TensorType>& outputs) {
  auto is_bf16 = [](const TensorType& t) { return t.dtype == DType::bf16; };
  if (op.onnx.op_type.empty() || (std::none_of(inputs.begin(), inputs.end(), is_bf16) &&
                                  std::none_of(outputs.begin(), outputs.end(), is_bf16)))
    return true;
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(op.onnx.op_type, kOnnxExportOpset, "");
  if (!schema) return true;  // export names the missing op itself
  std::vector<size_t> positions = onnx_input_positions(op, inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto* formal = formal_at(schema->inputs(), positions[i]);
    if (is_bf16(inputs[i]) && formal && !formal_takes_bf16(*formal)) return false;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto* formal = formal_at(schema->outputs(), i);
    if (is_bf16(outputs[i]) && formal && !formal_takes_bf16(*formal)) return false;
  }
  return true;
}

}  // namespace retort
