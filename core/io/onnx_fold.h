// Import-time evaluation of values that Retort keeps as attributes but that a model computes
// (Shape -> Gather -> Concat feeding Reshape, Constant -> Cast feeding Slice, ...). Only
// constants, bound input values and static shapes may feed such a value; the registry's kernels
// compute it with the reference interpreter.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/graph/graph.h"

namespace retort {

// Registry tag of an op whose outputs depend only on its inputs' types (shape): folding needs
// their static types, not their values.
inline constexpr const char* kTypeOnlyTag = "type_only";

class ImportFolder {
 public:
  // The value of a constant or bound input, or nullptr.
  using ValueFn = std::function<const Tensor*(const std::string& value)>;
  // The type of an output of an opaque node (from the model's declarations).
  using OpaqueTypeFn = std::function<TensorType(const Node& node, const std::string& output)>;

  // g holds the nodes imported so far (in ONNX order, so producers come first); it may grow
  // between calls.
  ImportFolder(const Graph& g, ValueFn value_of, OpaqueTypeFn opaque_type);

  // value computed from constants, bound values and static shapes, or nullopt when it depends
  // on a value unknown at import (an unbound input, an opaque op). Kernel errors propagate.
  std::optional<Tensor> fold(const std::string& value);

 private:
  const Node* producer(const std::string& value);
  TensorType type_of(const std::string& value);
  Node copy_for_subgraph(const Node& n) const;

  const Graph& g_;
  ValueFn value_of_;
  OpaqueTypeFn opaque_type_;
  std::map<std::string, size_t> producer_;  // value -> index in g_.nodes
  size_t indexed_ = 0;                      // nodes of g_ already in producer_
  std::map<std::string, TensorType> types_;
};

}  // namespace retort
