#include "core/egraph/type_table.h"

#include <atomic>

#include "core/egraph/attrs_scope.h"

namespace retort {

namespace {

// infer_op_type over operand types already in the vector the registry's inference takes.
TensorType infer_registry(const ENode& node, const std::vector<TensorType>& in) {
  const OpDef* def = op_def(node.op);
  if (!def) fail("'{}' is not a registry op", op_name(node.op));
  std::vector<TensorType> outs = def->infer(in, attrs_of(node.attrs), node.n_out);
  if (outs.size() != node.n_out)
    fail("op '{}' produces {} output(s), but the e-node says {}", def->name, outs.size(),
         node.n_out);
  if (outs[node.out].shape.size() > kMaxRank)
    fail("op '{}' would produce rank {}, above the maximum {}", def->name,
         outs[node.out].shape.size(), kMaxRank);
  return std::move(outs[node.out]);
}

}  // namespace

TensorType infer_op_type(const ENode& node, std::span<const TensorType> child_types) {
  return infer_registry(node, {child_types.begin(), child_types.end()});
}

TypeTable::TypeTable() {
  static std::atomic<uint64_t> made{0};
  serial_ = ++made;
  types_.emplace_back();  // kNoType: the graph_out class, which is not a tensor
}

namespace {

// The table the last e-graph of this thread gave back.
std::unique_ptr<TypeTable>& kept_table() {
  thread_local std::unique_ptr<TypeTable> kept;
  return kept;
}

}  // namespace

std::unique_ptr<TypeTable> TypeTable::lend() {
  if (std::unique_ptr<TypeTable>& kept = kept_table()) return std::move(kept);
  return std::make_unique<TypeTable>();
}

void TypeTable::give_back(std::unique_ptr<TypeTable> table) {
  if (!table || table->scoped_ || table->types_.size() > kKeptTypes ||
      table->answers_.size() > kKeptAnswers)
    return;
  std::unique_ptr<TypeTable>& kept = kept_table();
  if (!kept) kept = std::move(table);
}

TypeId TypeTable::intern(const TensorType& t) {
  auto [it, inserted] = index_.try_emplace(t, TypeId(static_cast<uint32_t>(types_.size())));
  if (inserted) types_.push_back(std::make_unique<const TensorType>(t));
  return it->second;
}

void TypeTable::fail_at(TypeId id) {
  if (id == kNoType) fail("the graph's output list is not a tensor");
  fail("invalid type id {}", id.value);
}

namespace {

// The question's words, in the order TypeTable::asks compares them.
size_t question_hash(const ENode& node, std::span<const TypeId> child_types) {
  uint64_t h = 0x9e3779b97f4a7c15ull * (child_types.size() + 1);
  auto word = [&](uint32_t w) { h = (h ^ w) * 0xff51afd7ed558ccdull; };
  word(node.op.value);
  word(node.attrs.value);
  word(static_cast<uint32_t>(node.out) << 16 | node.n_out);
  for (TypeId t : child_types) word(t.value);
  return static_cast<size_t>(h ^ (h >> 32));
}

}  // namespace

bool TypeTable::asks(const Answer& a, const ENode& node,
                     std::span<const TypeId> child_types) const {
  if (a.size != 3 + child_types.size()) return false;
  const uint32_t* k = keys_.data() + a.begin;
  if (k[0] != node.op.value || k[1] != node.attrs.value ||
      k[2] != (static_cast<uint32_t>(node.out) << 16 | node.n_out))
    return false;
  for (size_t i = 0; i < child_types.size(); ++i)
    if (k[3 + i] != child_types[i].value) return false;
  return true;
}

TypeId TypeTable::infer(const ENode& node, std::span<const TypeId> child_types) {
  size_t hash = question_hash(node, child_types);
  auto found =
      by_question_.find(hash, [&](uint32_t i) { return asks(answers_[i], node, child_types); });
  if (!found) {
    Answer a;
    a.begin = static_cast<uint32_t>(keys_.size());
    a.size = static_cast<uint32_t>(3 + child_types.size());
    try {
      // Assigned in place: a shape copied over one of the same rank allocates nothing.
      operands_.resize(child_types.size());
      for (size_t i = 0; i < child_types.size(); ++i) operands_[i] = at(child_types[i]);
      a.type = intern(infer_registry(node, operands_));
    } catch (const Error& e) {
      a.error = static_cast<uint32_t>(errors_.size());
      errors_.push_back(e);
    }
    scoped_ = scoped_ || attrs_scoped(node.attrs);
    keys_.push_back(node.op.value);
    keys_.push_back(node.attrs.value);
    keys_.push_back(static_cast<uint32_t>(node.out) << 16 | node.n_out);
    for (TypeId t : child_types) keys_.push_back(t.value);
    found = static_cast<uint32_t>(answers_.size());
    answers_.push_back(a);
    by_question_.insert(*found, hash);
  }
  const Answer& a = answers_[*found];
  if (a.error != kNoError) throw errors_[a.error];
  return a.type;
}

size_t TypeTable::bytes() const {
  // The type index is node-based: a node per entry plus the bucket array.
  size_t total = index_.size() * 4 * sizeof(void*) + index_.bucket_count() * sizeof(void*);
  total += types_.capacity() * sizeof(void*);
  for (const auto& t : types_)
    if (t) total += sizeof(TensorType) + t->shape.size() * 8 * 2;
  total += keys_.size() * sizeof(uint32_t) + answers_.size() * sizeof(Answer) +
           errors_.size() * sizeof(Error) + by_question_.bytes() +
           operands_.capacity() * sizeof(TensorType);
  return total;
}

}  // namespace retort
