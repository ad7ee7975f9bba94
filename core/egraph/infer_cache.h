// Memoised registry type inference. An op's inference is a pure function of the e-node's op,
// attributes and output index and of its children's types, and a saturation asks the same
// question over and over (every rewrite that builds an add of two f32[4,4] operands re-infers
// it), so each answer, or the Error it gave, is kept.
#pragma once

#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/egraph/enode.h"
#include "core/tensor/tensor.h"

namespace retort {

class InferCache {
 public:
  // infer_op_type(node, child_types), or the same Error it threw the first time.
  const TensorType& infer(const ENode& node, std::span<const TensorType> child_types);
  size_t size() const { return answers_.size(); }
  size_t bytes() const;  // an estimate of the heap it holds

 private:
  struct KeyHash {
    size_t operator()(const std::vector<uint32_t>& key) const noexcept;
  };
  struct Answer {
    TensorType type;
    std::optional<Error> error;
  };

  uint32_t type_id(const TensorType& t);

  std::unordered_map<TensorType, uint32_t, TensorTypeHash> type_ids_;
  std::vector<uint32_t> key_;  // the lookup key, reused so that a hit allocates nothing
  std::unordered_map<std::vector<uint32_t>, Answer, KeyHash> answers_;
};

// The type a registry op e-node would have over children of the given types, computed by the
// registry (uncached). Throws Error; special ops need the e-graph (EGraph::infer).
TensorType infer_op_type(const ENode& node, std::span<const TensorType> child_types);

}  // namespace retort
