// Structured choices the generator makes for one node: attribute values consistent with the
// operand types (axes, perms, reshape targets, split sizes, slice bounds, window geometry), and
// the operands whose types or values are structured (conv weights, gather indices). Choosers are
// keyed by attribute and input names as the registry declares them.
#pragma once

#include <optional>
#include <vector>

#include "core/base/rng.h"
#include "core/gen/graph_gen.h"
#include "core/ops/op_def.h"

namespace retort {

struct NodeContext {
  const OpDef& op;
  const std::vector<TensorType>& inputs;  // the operand types chosen so far
  size_t num_outputs = 1;
  const GenOptions& options;
};

// Attributes for the node: every required one, and each optional one about half of the time.
Attrs choose_attrs(const NodeContext& ctx, Rng& rng);

// The type input `slot` must have given the earlier operands, when the op's input is structured
// (a conv weight or bias); nullopt: any type the generic proposals offer.
std::optional<TensorType> structured_operand_type(const NodeContext& ctx, size_t slot, Rng& rng);

// A constant for input `slot` when only some values are valid there (gather indices must lie in
// range); nullopt: any values.
std::optional<Tensor> structured_operand_value(const NodeContext& ctx, size_t slot, Rng& rng);

}  // namespace retort
