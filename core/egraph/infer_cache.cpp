#include "core/egraph/infer_cache.h"

namespace retort {

TensorType infer_op_type(const ENode& node, std::span<const TensorType> child_types) {
  const OpDef* def = op_def(node.op);
  if (!def) fail("'{}' is not a registry op", op_name(node.op));
  std::vector<TensorType> in(child_types.begin(), child_types.end());
  std::vector<TensorType> outs = def->infer(in, attrs_of(node.attrs), node.n_out);
  if (outs.size() != node.n_out)
    fail("op '{}' produces {} output(s), but the e-node says {}", def->name, outs.size(),
         node.n_out);
  if (outs[node.out].shape.size() > kMaxRank)
    fail("op '{}' would produce rank {}, above the maximum {}", def->name,
         outs[node.out].shape.size(), kMaxRank);
  return outs[node.out];
}

size_t InferCache::KeyHash::operator()(const std::vector<uint32_t>& key) const noexcept {
  size_t h = key.size();
  for (uint32_t w : key) h = (h ^ w) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

uint32_t InferCache::type_id(const TensorType& t) {
  auto it = type_ids_.find(t);
  if (it != type_ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(type_ids_.size());
  type_ids_.emplace(t, id);
  return id;
}

const TensorType& InferCache::infer(const ENode& node, std::span<const TensorType> child_types) {
  key_.clear();
  key_.push_back(node.op.value);
  key_.push_back(node.attrs.value);
  key_.push_back(static_cast<uint32_t>(node.out) << 16 | node.n_out);
  for (const TensorType& t : child_types) key_.push_back(type_id(t));
  auto it = answers_.find(key_);
  if (it == answers_.end()) {
    Answer a;
    try {
      a.type = infer_op_type(node, child_types);
    } catch (const Error& e) {
      a.error = e;
    }
    it = answers_.emplace(key_, std::move(a)).first;
  }
  if (it->second.error) throw *it->second.error;
  return it->second.type;
}

size_t InferCache::bytes() const {
  // Node-based hash maps: a node per entry plus the bucket array.
  size_t total = (type_ids_.size() + answers_.size()) * 4 * sizeof(void*) +
                 (type_ids_.bucket_count() + answers_.bucket_count()) * sizeof(void*);
  for (const auto& [t, id] : type_ids_) total += sizeof(TensorType) + t.shape.size() * 8;
  for (const auto& [key, a] : answers_)
    total += key.capacity() * 4 + sizeof(Answer) + a.type.shape.size() * 8;
  return total;
}

}  // namespace retort
