// Ops that ONNX defines only above the exported opset (GroupNormalization-21 beside opset 17),
// written in ops of that opset. Export writes such an op's node as a call of a model-local
// function of the domain kOnnxOpsDomain named as its ONNX op_type, whose inputs are the op's
// input_names and whose attributes are its ONNX attributes; import reads the call as the op.
// Frameworks that know the op convert the call (docs/backend-protocol.md), the others run or
// inline the body.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops/attrs.h"

namespace retort {

inline constexpr std::string_view kOnnxOpsDomain = "retort.ops";

// One node of a function body: attributes as written, and in `refs` those taken from the calling
// node's attribute of that name (ONNX's ref_attr_name).
struct OnnxBodyNode {
  std::string op_type;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  Attrs attrs;
  std::map<std::string, std::string> refs;  // this node's attribute -> the op's attribute
};

struct OnnxFunction {
  std::vector<OnnxBodyNode> nodes;
  std::vector<std::string> outputs;
};

// The function of the registry op named `op`, or nullptr when the op is exported as itself.
const OnnxFunction* onnx_function(std::string_view op);

}  // namespace retort
