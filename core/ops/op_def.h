// The definition of one op: everything Retort knows about it lives here, and every other part
// (parsers, printers, ONNX mapping, interpreter, input generation, e-graph analysis, generator)
// asks the registry for it instead of keeping its own table.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/ops/attrs.h"
#include "core/tensor/tensor.h"
#include "core/tensor/value_domain.h"

namespace retort {

struct AttrSpec {
  std::string name;
  AttrKind kind = AttrKind::Int;
  std::optional<AttrValue> default_value;  // filled in when the node does not give it
  bool required = false;                   // no default, and the node must give it
  std::string doc;
  bool onnx = true;  // false: not an ONNX attribute (carried as an input, or Retort-only)
};

// An attribute that ONNX (opset 13+) passes as a constant input tensor instead.
struct OnnxAttrInput {
  enum class Form {
    I64List,         // 1-D int64 tensor (shape, axes, pads, starts, repeats...)
    ScalarOfInput0,  // a 0-D tensor of the first input's dtype (clip min/max, pad value)
    I64Scalar,       // a 0-D int64 tensor (cumsum's axis)
  };
  std::string attr;
  int index = 1;  // ONNX input position
  Form form = Form::I64List;
  // Set when the input is computed rather than copied (clip's bounds): the tensor export writes
  // from the node's attributes and its first input's dtype, also when the attribute is absent.
  std::function<Tensor(const Attrs&, DType input0)> to_onnx = nullptr;
  // Set when ONNX gives an absent input a meaning of its own (clip: the dtype's lowest and
  // largest values): the attribute import sets then, if any, given the first input's dtype.
  std::function<std::optional<AttrValue>(DType input0)> onnx_absent = nullptr;
};

struct OnnxMapping {
  std::string op_type;   // ONNX op_type in the default domain
  int since_opset = 13;  // the opset version whose definition this mapping follows
  std::vector<OnnxAttrInput> attr_inputs;
};

using InferFn = std::function<std::vector<TensorType>(const std::vector<TensorType>& inputs,
                                                      const Attrs& attrs, size_t num_outputs)>;
using KernelFn =
    std::function<std::vector<Tensor>(const std::vector<const Tensor*>& inputs, const Attrs& attrs,
                                      const std::vector<TensorType>& outputs)>;

// Fills attributes whose default depends on the input types, so that every node states them.
using CompleteAttrsFn = std::function<void(Attrs& attrs, const std::vector<TensorType>& inputs)>;

struct OpDef {
  std::string name;  // Retort's name, snake_case: "reduce_sum"
  std::string doc;   // one or two lines for `help op NAME`
  std::vector<std::string> input_names;
  int min_inputs = 1;
  int max_inputs = 1;   // -1: any number (variadic)
  int num_outputs = 1;  // -1: given by the node (split)
  std::vector<AttrSpec> attrs;
  InferFn infer;    // dtype and shape inference; throws Error on bad input
  KernelFn kernel;  // the reference semantics
  // Optional. Run by infer_graph after normalising: rewrite-rule patterns match stated
  // attributes only (`(transpose ?x :perm ?p)` must match a transpose that left perm out).
  CompleteAttrsFn complete_attrs;
  OnnxMapping onnx;
  // Per input; missing entries mean Any, except that a variadic op's last entry covers every
  // later input (einsum's operands).
  std::vector<ValueDomain> input_domains;
  std::vector<std::string> tags;  // "elementwise", "unary", "binary", "reduce", ...

  const AttrSpec* find_attr(const std::string& attr) const;
  bool has_tag(const std::string& tag) const;
  ValueDomain domain_of_input(size_t i) const;
  // The same for a node with these input types and (normalised) attributes. Throws Error when
  // they do not give the axis that an AxisIndex input indexes.
  InputDomain domain_of_input(size_t i, const std::vector<TensorType>& inputs,
                              const Attrs& attrs) const;
};

}  // namespace retort
