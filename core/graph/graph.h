// The tensor computation graph: inputs, constants (initializers), nodes in topological order,
// and outputs. Values are named; a node refers to its inputs and outputs by name, as ONNX does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/graph/functions.h"
#include "core/graph/value_types.h"
#include "core/ops/attrs.h"
#include "core/tensor/tensor.h"

namespace retort {

// An op the registry does not know, kept from an imported model so that it survives a round
// trip: its ONNX domain (and that domain's opset version) and the output types the model declared.
struct OpaqueInfo {
  std::string domain;
  int version = 0;  // the model's opset version for the domain; 0 when unknown
  std::vector<TensorType> output_types;
  bool operator==(const OpaqueInfo&) const = default;
};

struct Node {
  std::string name;
  std::string op;                   // registry name, or the ONNX op_type of an opaque node
  std::vector<std::string> inputs;  // "" marks an omitted optional input
  std::vector<std::string> outputs;
  Attrs attrs;
  std::optional<OpaqueInfo> opaque;

  bool is_opaque() const { return opaque.has_value(); }
};

struct ValueInfo {
  std::string name;
  TensorType type;
};

struct Constant {
  std::string name;
  Tensor value;
  // How .rtg wrote it ("random(seed=3)", "fill(0.5)"); printed back instead of the literal
  // values while it still produces them. Empty: print the values.
  std::string init_text;
};

struct Graph {
  std::string name = "main";
  std::vector<ValueInfo> inputs;
  std::vector<Constant> constants;
  std::vector<Node> nodes;
  std::vector<std::string> outputs;
  // HirFuzz's functions and the calls that cover inlined nodes (core/graph/functions.h); empty
  // for most graphs.
  std::vector<Function> functions;
  std::vector<Call> calls;

  // Filled by infer_graph(): the type of every value, and who produces it.
  ValueTypes types;

  const TensorType& type_of(const std::string& value) const;  // throws Error if unknown
  const Constant* find_constant(const std::string& name) const;
  const ValueInfo* find_input(const std::string& name) const;
  const Node* find_node(const std::string& name) const;
  const Node* producer(const std::string& value) const;  // nullptr for inputs and constants
  bool defines(const std::string& value) const;          // input, constant or node output
  size_t op_count() const { return nodes.size(); }
};

// Validates the graph and infers every value's type: names unique and defined, no cycles
// (nodes are put in topological order), ops known (or opaque with declared types), attributes
// normalised against the registry, inference run for each node, functions and calls checked
// (check_functions). Errors name the node.
void infer_graph(Graph& g);

// The types of a node's inputs as its op's inference sees them: an omitted optional input is
// TensorType{}, and trailing omitted ones are left out. g must hold the types (infer_graph).
std::vector<TensorType> input_types(const Graph& g, const Node& node);

// A fresh value name with the given stem not yet used in g ("t", "t_1", ...).
std::string fresh_value_name(const Graph& g, const std::string& stem);

}  // namespace retort
