// Ops of the e-graph, interned to small ids. Every registry op has an id (assigned in name order
// when the table is first used, so ids and their order do not depend on history), plus four
// special ops of the computation expression (POLYJUICE Fig. 5):
//   input     attrs {name}: a graph input; its type comes from the e-graph's metadata
//   const     attrs {name}: a constant tensor held in the e-graph's metadata
//   opaque    attrs {opaque: index into EGraph::opaque_op}: an op the registry does not model
//             (POLYJUICE's `other`), kept with its ONNX op_type, domain, attrs and output types
//   graph_out no attrs; children are the graph's output classes, in order
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/egraph/ids.h"
#include "core/ops/op_def.h"

namespace retort {

namespace special_ops {
inline constexpr OpId kInput{0};
inline constexpr OpId kConst{1};
inline constexpr OpId kOpaque{2};
inline constexpr OpId kGraphOut{3};
}  // namespace special_ops

// The id of a registry op or special op; throws Error (with suggestions) for an unknown name.
OpId op_id(std::string_view name);
std::optional<OpId> find_op_id(std::string_view name);
const std::string& op_name(OpId op);
// The registry definition, or nullptr for the special ops.
const OpDef* op_def(OpId op);
bool is_special_op(OpId op);
// Inputs and constants: the e-nodes without children that cost nothing to extract.
bool is_leaf_op(OpId op);

}  // namespace retort
