#include "core/egraph/enode.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "core/base/error.h"
#include "core/egraph/attrs_scope.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

// Normalising against the registry builds a new attribute map, and rules build the same few
// attribute sets again and again (a transpose's perm), so the normalised set is kept per (op,
// attributes as given). Attributes the registry rejects are not kept: they throw every time.
// Inside an AttrsScope (a fuzz case) the ids of sets new to the process live as long as the
// scope, and so does this thread's memo of them.
AttrsId normalized_attrs(const OpDef& def, OpId op, const Attrs& given) {
  AttrsId given_id = intern_attrs(given);
  uint64_t key = uint64_t{op.value} << 32 | given_id.value;
  if (attrs_scoped(given_id)) {
    thread_local uint64_t generation = 0;
    thread_local std::unordered_map<uint64_t, AttrsId> scoped;
    if (generation != attrs_scope_generation()) {
      std::unordered_map<uint64_t, AttrsId>().swap(scoped);
      generation = attrs_scope_generation();
    }
    if (auto it = scoped.find(key); it != scoped.end()) return it->second;
    AttrsId normal = intern_attrs(OpRegistry::instance().normalize_attrs(def, given));
    scoped.emplace(key, normal);
    return normal;
  }
  static std::mutex mu;
  static std::unordered_map<uint64_t, AttrsId> memo;
  {
    std::lock_guard lock(mu);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  AttrsId normal = intern_attrs(OpRegistry::instance().normalize_attrs(def, given));
  std::lock_guard lock(mu);
  if (!attrs_scoped(normal)) memo.emplace(key, normal);
  return normal;
}

// Most nodes come without attributes (add, mul, matmul): their normal set depends on the op
// alone, and each thread keeps it by op id, which spares the shared memo's lock and hash (about
// 190 instructions a node in add_graph). Only sets outside any scope are kept.
AttrsId normalized_no_attrs(const OpDef& def, OpId op) {
  thread_local std::vector<uint32_t> by_op;  // the set's id + 1, or 0 when not known yet
  if (op.value < by_op.size() && by_op[op.value] != 0) return AttrsId(by_op[op.value] - 1);
  AttrsId normal = normalized_attrs(def, op, Attrs{});
  if (!attrs_scoped(normal)) {
    if (op.value >= by_op.size()) by_op.resize(op.value + 1, 0);
    by_op[op.value] = normal.value + 1;
  }
  return normal;
}

}  // namespace

int compare_enodes(const ENode& a, const ENode& b) {
  // Op ids are assigned in a fixed order (op_table.h), so comparing them is deterministic.
  if (a.op != b.op) return a.op < b.op ? -1 : 1;
  if (int c = compare_attrs(a.attrs, b.attrs)) return c;
  if (a.out != b.out) return a.out < b.out ? -1 : 1;
  if (a.n_out != b.n_out) return a.n_out < b.n_out ? -1 : 1;
  auto ca = a.children.span(), cb = b.children.span();
  auto [ia, ib] = std::mismatch(ca.begin(), ca.end(), cb.begin(), cb.end());
  if (ia == ca.end()) return ib == cb.end() ? 0 : -1;
  if (ib == cb.end()) return 1;
  return *ia < *ib ? -1 : 1;
}

ENode make_enode(std::string_view op, const Attrs& attrs, std::vector<EClassId> children,
                 unsigned out, unsigned n_out) {
  return make_enode(op_id(op), attrs, children, out, n_out);
}

ENode make_enode(OpId op, const Attrs& attrs, std::span<const EClassId> children, unsigned out,
                 unsigned n_out) {
  const OpDef* def = op_def(op);
  if (!def)
    fail("'{}' is a special op: use add_input, add_const, add_opaque or add_graph_out",
         op_name(op));
  int n_in = static_cast<int>(children.size());
  if (n_in < def->min_inputs || (def->max_inputs >= 0 && n_in > def->max_inputs)) {
    if (def->max_inputs < 0)
      fail("op '{}' takes at least {} inputs, got {}", def->name, def->min_inputs, n_in);
    if (def->min_inputs == def->max_inputs)
      fail("op '{}' takes {} input(s), got {}", def->name, def->min_inputs, n_in);
    fail("op '{}' takes {} to {} inputs, got {}", def->name, def->min_inputs, def->max_inputs,
         n_in);
  }
  if (n_out == 0) {
    if (def->num_outputs < 0)
      fail("op '{}' has a variable number of outputs: give the count", def->name);
    n_out = static_cast<unsigned>(def->num_outputs);
  } else if (def->num_outputs >= 0 && n_out != static_cast<unsigned>(def->num_outputs)) {
    fail("op '{}' has {} output(s), not {}", def->name, def->num_outputs, n_out);
  }
  if (n_out > UINT16_MAX) fail("op '{}' cannot have {} outputs", def->name, n_out);
  if (out >= n_out) fail("output {} of op '{}' does not exist (it has {})", out, def->name, n_out);
  ENode n;
  n.op = op;
  n.attrs = attrs.empty() ? normalized_no_attrs(*def, op) : normalized_attrs(*def, op, attrs);
  n.out = static_cast<uint16_t>(out);
  n.n_out = static_cast<uint16_t>(n_out);
  n.children = IdList(children);
  return n;
}

namespace {
ENode leaf(OpId op, const std::string& name) {
  if (name.empty()) fail("an {} needs a name", op_name(op));
  ENode n;
  n.op = op;
  n.attrs = intern_attrs({{"name", name}});
  return n;
}
}  // namespace

ENode input_enode(const std::string& name) {
  return leaf(special_ops::kInput, name);
}
ENode const_enode(const std::string& name) {
  return leaf(special_ops::kConst, name);
}

ENode graph_out_enode(std::vector<EClassId> outputs) {
  if (outputs.empty()) fail("graph_out needs at least one output");
  ENode n;
  n.op = special_ops::kGraphOut;
  n.children = IdList(outputs);
  return n;
}

const std::string& leaf_name(const ENode& n) {
  if (!is_leaf_op(n.op)) fail("'{}' e-node has no name", op_name(n.op));
  return attr_string(attrs_of(n.attrs), "name");
}

}  // namespace retort
