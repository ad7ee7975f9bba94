#include "core/egraph/egraph.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/egraph/render.h"

namespace retort {

// Terms are stored once, in `nodes`; the exact-term index holds their ids (IdTable), so looking
// a term up costs no second copy of each e-node. Most terms are added with canonical children
// and start a class: the hashcons (memo_) already holds them under their own e-node, so the index
// holds only the others (TermTable::find looks in both). That halves the lookup tables' memory
// (issue 24). A term leaves the memo only in union_classes, which moves it into the index then.
struct EGraph::TermTable {
  std::vector<ENode> nodes;
  IdTable index;

  // The term whose e-node is exactly `n` (whose hash is `hash`), if any: in the index, or in
  // the memo under its own e-node.
  std::optional<EClassId> find(const ENode& n, size_t hash, const IdTable& memo) const {
    auto is_term = [&](uint32_t t) { return nodes[t] == n; };
    auto t = index.find(hash, is_term);
    if (!t) t = memo.find(hash, is_term);
    if (!t) return std::nullopt;
    return EClassId(*t);
  }
};

static_assert(sizeof(EClass) == 64, "a class record is 64 bytes");

// A small e-graph (POLYJUICE stops at 100 e-nodes) should not spend its time growing tables.
constexpr size_t kInitialTerms = 128;

EGraph::EGraph() : terms_(std::make_unique<TermTable>()) {
  terms_->nodes.reserve(kInitialTerms);
  terms_->index.reserve(kInitialTerms);
  memo_.reserve(kInitialTerms);
  uf_.reserve(kInitialTerms);
  proofs_.reserve(kInitialTerms);
  classes_.reserve(kInitialTerms);
}
EGraph::EGraph(EGraph&&) noexcept = default;
EGraph& EGraph::operator=(EGraph&&) noexcept = default;
EGraph::~EGraph() {
  TypeTable::give_back(std::move(types_));
}

const ENode& EGraph::term(EClassId id) const {
  if (id.value >= terms_->nodes.size()) fail("no e-class e{}", id.value);
  return terms_->nodes[id.value];
}

// --- union-find --------------------------------------------------------------------------------

void EGraph::fail_no_class(EClassId id) {
  fail("no e-class e{}", id.value);
}

namespace {

// canonicalizes_to's test, in a function of its own so that the hashcons probe (memo_find)
// inlines it: every rule's right-hand side is looked up node by node.
inline bool same_canonical(const ENode& n, const ENode& canonical, const UnionFind& uf) {
  if (n.op != canonical.op || n.attrs != canonical.attrs || n.out != canonical.out ||
      n.n_out != canonical.n_out || n.children.size() != canonical.children.size())
    return false;
  // The spans are taken once: find() writes the union-find, so the compiler would reload an
  // IdList's storage after each call. A child equal to the canonical one is canonical already.
  std::span<const EClassId> have = n.children.span(), want = canonical.children.span();
  for (size_t i = 0; i < have.size(); ++i)
    if (have[i] != want[i] && EClassId(uf.find(have[i].value)) != want[i]) return false;
  return true;
}

}  // namespace

bool EGraph::canonicalizes_to(EClassId t, const ENode& canonical) const {
  return same_canonical(terms_->nodes[t.value], canonical, uf_);
}

std::optional<EClassId> EGraph::memo_find(const ENode& canonical) const {
  return memo_find(canonical, canonical.hash());
}

std::optional<EClassId> EGraph::memo_find(const ENode& canonical, size_t hash) const {
  const std::vector<ENode>& nodes = terms_->nodes;
  auto t = memo_.find(hash, [&](uint32_t id) { return same_canonical(nodes[id], canonical, uf_); });
  if (!t) return std::nullopt;
  return EClassId(*t);
}

ENode EGraph::canonicalize(const ENode& node) const {
  ENode c = node;
  for (EClassId& ch : c.children) ch = find(ch);
  return c;
}

// --- types -------------------------------------------------------------------------------------

void EGraph::check_ids(const ENode& node) const {
  for (EClassId c : node.children)
    if (c.value >= uf_.size())
      fail("'{}' e-node refers to unknown e-class e{}", op_name(node.op), c.value);
}

TypeId EGraph::infer_node(const ENode& node) const {
  check_ids(node);
  return infer_checked(node);
}

TypeId EGraph::infer_checked(const ENode& node) const {
  if (node.op == special_ops::kGraphOut) {
    if (node.children.empty()) fail("graph_out needs at least one output");
    return kNoType;
  }
  child_types_.clear();
  for (EClassId c : node.children) {
    TypeId t = classes_[find(c).value]->type;
    if (t == kNoType)
      fail("'{}' e-node takes the graph's output list as an operand", op_name(node.op));
    child_types_.push_back(t);
  }
  if (node.op == special_ops::kInput) {
    auto it = inputs_.find(leaf_name(node));
    if (it == inputs_.end()) fail("unknown graph input '{}'", leaf_name(node));
    return types_->intern(it->second);
  }
  if (node.op == special_ops::kConst) {
    const Constant* c = find_constant(leaf_name(node));
    if (!c) fail("unknown constant '{}'", leaf_name(node));
    return types_->intern(c->value.type());
  }
  if (node.op == special_ops::kOpaque)
    return types_->intern(opaque_op(node).info.output_types.at(node.out));
  return types_->infer(node, child_types_);
}

TypeId EGraph::infer_op(const ENode& node, std::span<const TypeId> child_types) const {
  return types_->infer(node, child_types);
}

TensorType EGraph::infer(const ENode& node) const {
  return types_->at(infer_node(node));
}

// --- adding ------------------------------------------------------------------------------------

EClassId EGraph::new_term(const ENode& node) {
  auto id = static_cast<uint32_t>(terms_->nodes.size());
  if (id == EClassId::kInvalid) fail("the e-graph is full ({} terms)", id);
  terms_->nodes.push_back(node);
  uf_.make_set();
  proofs_.add_term(EClassId(id));
  classes_.emplace_back();
  return EClassId(id);
}

EClassId EGraph::add(const ENode& node) {
  return add_node(node, nullptr);
}

EClassId EGraph::add(const ENode& node, TypeId type) {
  return add_node(node, &type);
}

EClassId EGraph::add_node(const ENode& node, const TypeId* known_type) {
  // Most nodes come with canonical children: then the node and its canonical form share a hash.
  size_t hash = node.hash();
  if (auto exact = terms_->find(node, hash, memo_)) return *exact;
  check_ids(node);
  ENode canon = canonicalize(node);
  bool canonical = node == canon;
  size_t canon_hash = canonical ? hash : canon.hash();
  if (auto found = memo_find(canon, canon_hash)) {
    // A new term congruent to a known one: it joins that class, and the proof forest records
    // why (congruence), so explanations can speak about this exact term. The memo keeps the
    // known term, so this one goes into the exact-term index.
    EClassId existing = *found;
    EClassId id = new_term(node);
    terms_->index.insert(id.value, hash);
    uf_.link(id.value, find(existing).value);
    proofs_.connect(id, existing, ProofForest::kCongruence);
    return id;
  }
  TypeId type = known_type ? *known_type : infer_checked(canon);
  const Constant* constant =
      node.op == special_ops::kConst ? find_constant(leaf_name(node)) : nullptr;
  EClassId id = new_term(node);
  EClass* cls;
  if (free_records_.empty()) {
    cls = &records_.emplace_back();
  } else {
    cls = free_records_.back();
    free_records_.pop_back();
  }
  cls->id = id;
  cls->type = type;
  cls->constant = constant;
  // Each child class lists the new term once, however often it appears among the children.
  for (size_t i = 0; i < canon.children.size(); ++i) {
    EClassId k = canon.children[i];
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = canon.children[j] == k;
    if (!seen) classes_[k.value]->parents.push_back(id);
  }
  memo_.insert(id.value, canon_hash);
  if (!canonical) terms_->index.insert(id.value, hash);
  cls->nodes.push_back(std::move(canon));
  classes_[id.value] = cls;
  ++class_count_;
  ++node_count_;
  by_op_stale_ = true;
  return id;
}

std::optional<EClassId> EGraph::try_add(const ENode& node, std::string* reason) {
  try {
    return add(node);
  } catch (const Error& e) {
    if (reason) *reason = e.message();
    return std::nullopt;
  }
}

std::optional<EClassId> EGraph::lookup(const ENode& node) const {
  // Rules look up their right-hand sides, whose children are mostly canonical already: such a
  // node is its own canonical form, and looking it up needs no copy of it.
  bool canonical = true;
  for (EClassId c : node.children.span()) {
    if (c.value >= uf_.size()) [[unlikely]]
      check_ids(node);  // throws, naming the node
    canonical = canonical && uf_.find(c.value) == c.value;
  }
  auto t = canonical ? memo_find(node) : memo_find(canonicalize(node));
  if (!t) return std::nullopt;
  return EClassId(uf_.find(t->value));
}

EClassId EGraph::add_input(const std::string& name, const TensorType& type) {
  auto [it, inserted] = inputs_.emplace(name, type);
  if (!inserted && it->second != type)
    fail("input '{}' is already {}, not {}", name, it->second.str(), type.str());
  return add(input_enode(name));
}

EClassId EGraph::add_const(const Constant& constant) {
  auto [it, inserted] = constants_.emplace(constant.name, constant);
  if (!inserted && !(it->second.value == constant.value))
    fail("constant '{}' is already defined with another value", constant.name);
  return add(const_enode(constant.name));
}

EClassId EGraph::add_opaque(const OpaqueOp& op, std::vector<EClassId> children, unsigned out) {
  if (op.op_type.empty()) fail("an opaque op needs its op type");
  if (out >= op.info.output_types.size())
    fail("opaque op '{}' declares {} output type(s); output {} does not exist", op.op_type,
         op.info.output_types.size(), out);
  if (op.info.output_types.size() > UINT16_MAX)
    fail("opaque op '{}' has too many outputs", op.op_type);
  auto found = std::find(opaque_ops_.begin(), opaque_ops_.end(), op);
  auto index = static_cast<int64_t>(found - opaque_ops_.begin());
  if (found == opaque_ops_.end()) opaque_ops_.push_back(op);
  ENode n;
  n.op = special_ops::kOpaque;
  n.attrs = intern_attrs({{"opaque", index}});
  n.out = static_cast<uint16_t>(out);
  n.n_out = static_cast<uint16_t>(op.info.output_types.size());
  n.children = IdList(children);
  return add(n);
}

EClassId EGraph::add_graph_out(std::vector<EClassId> outputs) {
  return add(graph_out_enode(std::move(outputs)));
}

// --- merging -----------------------------------------------------------------------------------

std::string EGraph::describe_term(EClassId id) const {
  const EClass& c = *classes_[find(id).value];
  std::string type = c.type == kNoType ? "graph outputs" : types_->at(c.type).str();
  return fmt::format("{} : {} (e{})", term_str(*this, id, 24), type, find(id).value);
}

void EGraph::check_merge(EClassId a, EClassId b, const Justification& why) const {
  const EClass& ca = *classes_[find(a).value];
  const EClass& cb = *classes_[find(b).value];
  if (ca.type != cb.type)
    fail("bug: {} tried to merge terms of different types:\n  {}\n  {}", why.str(),
         describe_term(a), describe_term(b));
  if (ca.constant && cb.constant && !(ca.constant->value == cb.constant->value))
    fail("bug: {} tried to merge different constants '{}' and '{}':\n  {}\n  {}", why.str(),
         ca.constant->name, cb.constant->name, describe_term(a), describe_term(b));
}

bool EGraph::merge(EClassId a, EClassId b, const Justification& why) {
  if (find(a) == find(b)) return false;
  check_merge(a, b, why);
  return union_classes(a, b, proofs_.intern(why));
}

bool EGraph::union_classes(EClassId a, EClassId b, uint32_t just) {
  EClassId ra = find(a), rb = find(b);
  if (ra == rb) return false;
  proofs_.connect(a, b, just);
  // The class with more parents stays canonical: only the other's parents need re-hashing.
  if (classes_[ra.value]->parents.size() < classes_[rb.value]->parents.size()) std::swap(ra, rb);
  EClass* gone = classes_[rb.value];
  classes_[rb.value] = nullptr;
  // Drop the parents' hashcons entries keyed by the id that stops being canonical; rebuild()
  // re-inserts them under their new canonical form.
  for (EClassId p : gone->parents) {
    ENode key = canonicalize(terms_->nodes[p.value]);
    size_t hash = key.hash();
    auto t = memo_find(key, hash);
    if (!t || find(*t) != find(p)) continue;
    memo_.erase(t->value, hash);
    // A term found exactly through this entry (its e-node is the key) needs an index entry now.
    // It has none yet: only terms that start a class enter the memo, and a term that was not
    // canonical when added can never equal a canonical key.
    if (terms_->nodes[t->value] == key) terms_->index.insert(t->value, hash);
  }
  uf_.link(rb.value, ra.value);
  EClass& keep = *classes_[ra.value];
  if (!keep.constant) keep.constant = gone->constant;
  pending_.insert(pending_.end(), gone->parents.begin(), gone->parents.end());
  keep.nodes.append_moved(gone->nodes);
  keep.parents.append(gone->parents.begin(), gone->parents.end());
  *gone = EClass{};  // frees its lists' heap blocks now
  free_records_.push_back(gone);
  dirty_.push_back(ra);
  --class_count_;
  by_op_stale_ = true;
  return true;
}

size_t EGraph::rebuild() {
  size_t merges = 0;
  while (!pending_.empty()) {
    std::vector<EClassId> todo;
    todo.swap(pending_);
    for (EClassId p : todo) {
      ENode key = canonicalize(terms_->nodes[p.value]);
      size_t hash = key.hash();
      std::optional<EClassId> known = memo_find(key, hash);
      if (!known) {
        memo_.insert(p.value, hash);
      } else if (find(*known) != find(p)) {
        check_merge(*known, p, Justification::congruence());
        merges += union_classes(*known, p, ProofForest::kCongruence);
      }
      dirty_.push_back(find(p));
    }
  }
  rebuild_classes();
  return merges;
}

void EGraph::rebuild_classes() {
  for (EClassId& d : dirty_) d = find(d);
  std::sort(dirty_.begin(), dirty_.end());
  dirty_.erase(std::unique(dirty_.begin(), dirty_.end()), dirty_.end());
  for (EClassId d : dirty_) {
    EClass& c = *classes_[d.value];
    size_t before = c.nodes.size();
    for (ENode& n : c.nodes)
      for (EClassId& ch : n.children) ch = find(ch);
    // Both lists are often in order already (a class whose members' children moved, or one
    // that only gained parents, all newer than its old ones): a check costs less than a sort.
    if (!std::is_sorted(c.nodes.begin(), c.nodes.end(), enode_less))
      std::sort(c.nodes.begin(), c.nodes.end(), enode_less);
    c.nodes.truncate(
        static_cast<size_t>(std::unique(c.nodes.begin(), c.nodes.end()) - c.nodes.begin()));
    node_count_ -= before - c.nodes.size();
    if (!std::is_sorted(c.parents.begin(), c.parents.end()))
      std::sort(c.parents.begin(), c.parents.end());
    c.parents.truncate(
        static_cast<size_t>(std::unique(c.parents.begin(), c.parents.end()) - c.parents.begin()));
  }
  dirty_.clear();
}

// --- queries -----------------------------------------------------------------------------------

std::vector<EClassId> EGraph::class_ids() const {
  std::vector<EClassId> ids;
  ids.reserve(class_count_);
  for (size_t i = 0; i < classes_.size(); ++i)
    if (classes_[i]) ids.emplace_back(static_cast<uint32_t>(i));
  return ids;
}

std::span<const EClassId> EGraph::classes_with_op(OpId op) const {
  if (by_op_stale_) {
    for (auto& list : by_op_) list.clear();
    for (size_t i = 0; i < classes_.size(); ++i) {
      if (!classes_[i]) continue;
      uint32_t last = UINT32_MAX;
      for (const ENode& n : classes_[i]->nodes) {
        if (n.op.value == last) continue;  // members are sorted by op after rebuild
        if (n.op.value >= by_op_.size()) by_op_.resize(n.op.value + 1);
        auto& list = by_op_[n.op.value];
        if (list.empty() || list.back().value != i) list.emplace_back(static_cast<uint32_t>(i));
        last = n.op.value;
      }
    }
    by_op_stale_ = false;
  }
  if (op.value >= by_op_.size()) return {};
  return by_op_[op.value];
}

const TensorType& EGraph::type(EClassId id) const {
  TypeId t = eclass(id).type;
  if (t == kNoType) fail("e-class e{} is the graph's output list, not a tensor", find(id).value);
  return types_->at(t);
}

bool EGraph::has_type(EClassId id) const {
  return eclass(id).type != kNoType;
}

const Constant* EGraph::constant(EClassId id) const {
  return eclass(id).constant;
}

const Constant* EGraph::find_constant(const std::string& name) const {
  auto it = constants_.find(name);
  return it == constants_.end() ? nullptr : &it->second;
}

const OpaqueOp& EGraph::opaque_op(const ENode& node) const {
  if (node.op != special_ops::kOpaque) fail("'{}' e-node is not opaque", op_name(node.op));
  int64_t index = attr_int(attrs_of(node.attrs), "opaque");
  if (index < 0 || static_cast<size_t>(index) >= opaque_ops_.size())
    fail("opaque e-node refers to unknown op {}", index);
  return opaque_ops_[static_cast<size_t>(index)];
}

EClassId EGraph::term_of(const ENode& canonical_node) const {
  auto t = memo_find(canonical_node);
  if (!t) fail("the e-node is not in the e-graph (rebuild first?)");
  return *t;
}

// --- memory ------------------------------------------------------------------------------------

namespace {
// malloc rounds small blocks up to 16 bytes and adds a header word.
size_t heap_block(size_t bytes) {
  return bytes == 0 ? 0 : ((bytes + 8 + 15) / 16) * 16;
}
}  // namespace

MemoryUsage EGraph::memory() const {
  MemoryUsage m;
  const auto& nodes = terms_->nodes;
  m.nodes = heap_block(nodes.capacity() * sizeof(ENode));
  for (const ENode& n : nodes) m.nodes += heap_block(n.children.heap_bytes());
  // Both lookup tables hold ids only (their keys are the terms above).
  m.hashcons = heap_block(terms_->index.bytes()) + heap_block(memo_.bytes());
  // Records sit in blocks of several (records_), so they cost no block header each.
  m.classes = heap_block(classes_.capacity() * sizeof(EClass*)) +
              heap_block(free_records_.capacity() * sizeof(EClass*)) +
              records_.size() * sizeof(EClass);
  for (const EClass* c : classes_) {
    if (!c) continue;
    m.classes += heap_block(c->nodes.heap_bytes()) + heap_block(c->parents.heap_bytes());
    for (const ENode& n : c->nodes) m.classes += heap_block(n.children.heap_bytes());
  }
  m.union_find = heap_block(uf_.capacity_bytes());
  m.proofs = heap_block(proofs_.links_bytes()) + heap_block(proofs_.justs_bytes());
  m.types = types_->bytes();
  return m;
}

}  // namespace retort
