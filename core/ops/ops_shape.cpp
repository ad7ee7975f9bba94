#include "core/ops/ops_shape.h"

namespace retort {

OpDef shape_family_op(std::string name, std::string doc, std::string onnx_type,
                      std::vector<std::string> input_names) {
  OpDef op;
  op.name = std::move(name);
  op.doc = std::move(doc);
  op.input_names = std::move(input_names);
  op.min_inputs = op.max_inputs = static_cast<int>(op.input_names.size());
  op.onnx = {std::move(onnx_type), 13, {}};
  op.tags = {"shape"};
  return op;
}

void add_ints_input_attr(OpDef& op, std::string name, int index, bool required, std::string doc) {
  op.onnx.attr_inputs.push_back({.attr = name, .index = index});
  AttrSpec spec;
  spec.name = std::move(name);
  spec.kind = AttrKind::Ints;
  spec.required = required;
  spec.doc = std::move(doc);
  spec.onnx = false;
  op.attrs.push_back(std::move(spec));
}

void register_shape_ops(OpRegistry& r) {
  register_reshape_ops(r);
  register_transpose_op(r);
  register_concat_split_ops(r);
  register_slice_op(r);
  register_pad_op(r);
  register_gather_op(r);
  register_element_index_ops(r);
  register_broadcast_ops(r);
  register_shape_op(r);
}

}  // namespace retort
