// The shape/layout op family. ops_shape.cpp registers it; each ops_shape_*.cpp file defines a
// few related ops. Everything here moves elements without computing on them.
#pragma once

#include <string>
#include <vector>

#include "core/ops/registry.h"

namespace retort {

void register_reshape_ops(OpRegistry& r);        // reshape, flatten, squeeze, unsqueeze
void register_transpose_op(OpRegistry& r);       // transpose
void register_concat_split_ops(OpRegistry& r);   // concat, split
void register_slice_op(OpRegistry& r);           // slice
void register_pad_op(OpRegistry& r);             // pad
void register_gather_op(OpRegistry& r);          // gather
void register_element_index_ops(OpRegistry& r);  // gather_elements, scatter_elements
void register_broadcast_ops(OpRegistry& r);      // expand, tile
void register_shape_op(OpRegistry& r);           // shape

// The fields every op of the family shares: a fixed input list, the ONNX opset-13 op, tag "shape".
OpDef shape_family_op(std::string name, std::string doc, std::string onnx_type,
                      std::vector<std::string> input_names);

// Adds an Ints attribute that ONNX opset 13+ passes as a 1-D int64 input at `index`.
void add_ints_input_attr(OpDef& op, std::string name, int index, bool required, std::string doc);

}  // namespace retort
