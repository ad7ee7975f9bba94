#include "core/egraph/type_table.h"

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

TypeTable::TypeTable() {
  types_.emplace_back();  // kNoType: the graph_out class, which is not a tensor
}

TypeId TypeTable::intern(const TensorType& t) {
  auto [it, inserted] = index_.try_emplace(t, TypeId(static_cast<uint32_t>(types_.size())));
  if (inserted) types_.push_back(t);
  return it->second;
}

const TensorType& TypeTable::at(TypeId id) const {
  if (id == kNoType) fail("the graph's output list is not a tensor");
  if (id.value >= types_.size()) fail("invalid type id {}", id.value);
  return types_[id.value];
}

size_t TypeTable::KeyHash::operator()(const std::vector<uint32_t>& key) const noexcept {
  size_t h = key.size();
  for (uint32_t w : key) h = (h ^ w) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

TypeId TypeTable::infer(const ENode& node, std::span<const TypeId> child_types) {
  key_.clear();
  key_.push_back(node.op.value);
  key_.push_back(node.attrs.value);
  key_.push_back(static_cast<uint32_t>(node.out) << 16 | node.n_out);
  for (TypeId t : child_types) key_.push_back(t.value);
  auto it = answers_.find(key_);
  if (it == answers_.end()) {
    Answer a;
    try {
      std::vector<TensorType> in;
      in.reserve(child_types.size());
      for (TypeId t : child_types) in.push_back(at(t));
      a.type = intern(infer_op_type(node, in));
    } catch (const Error& e) {
      a.error = e;
    }
    it = answers_.emplace(key_, std::move(a)).first;
  }
  if (it->second.error) throw *it->second.error;
  return it->second.type;
}

size_t TypeTable::bytes() const {
  // Node-based hash maps: a node per entry plus the bucket array.
  size_t total = (index_.size() + answers_.size()) * 4 * sizeof(void*) +
                 (index_.bucket_count() + answers_.bucket_count()) * sizeof(void*);
  for (const TensorType& t : types_) total += sizeof(TensorType) + t.shape.size() * 8 * 2;
  for (const auto& [key, a] : answers_) total += key.capacity() * 4 + sizeof(Answer);
  return total;
}

}  // namespace retort
