// The e-graph: a hashcons of e-nodes, a union-find over e-class ids (union_find.h) with deferred
// congruence closure (egg's rebuild with parent lists), an e-class analysis (tensor type and
// known constant value) checked on every merge, and a proof forest for explanations
// (proof_forest.h; explain.cpp walks it).
//
// Usage pattern (equality saturation): search matches on a clean e-graph, then add the
// right-hand sides and merge, then rebuild() once. add(), merge() and find() work at any time;
// class member lists (eclass().nodes) and classes_with_op() are canonical only after rebuild().
//
// Ids are terms: add() returns the id of the exact e-node it was given (children as passed), so
// that explanations can name the terms a rule matched and produced. Pass those ids to merge():
// for a rule, the id of the LHS instance (add() of the matched e-node returns it) and the id of
// the RHS instance. Use find() for the canonical class.
//
// Not thread-safe: find() compresses paths even through a const EGraph.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/egraph/enode.h"
#include "core/egraph/explanation.h"
#include "core/egraph/id_table.h"
#include "core/egraph/ids.h"
#include "core/egraph/inline_vec.h"
#include "core/egraph/justification.h"
#include "core/egraph/proof_forest.h"
#include "core/egraph/selection.h"
#include "core/egraph/type_table.h"
#include "core/egraph/union_find.h"
#include "core/graph/graph.h"
#include "core/tensor/tensor.h"

namespace retort {

// An op the registry does not model, as the imported model declared it: a graph's opaque node
// (op type, attributes and its OpaqueInfo) held once by the e-graph for all its e-nodes.
struct OpaqueOp {
  std::string op_type;
  Attrs attrs;
  OpaqueInfo info;
  bool operator==(const OpaqueOp&) const = default;
};

// One heap block of 64 bytes per class: most classes hold one e-node and a few parents, so both
// lists keep their first elements inside the record (inline_vec.h) and take a block of their own
// only beyond that (issue 24: bytes per e-node).
struct EClass {
  EClassId id;                     // canonical id
  TypeId type;                     // kNoType for the graph_out class (see EGraph::type)
  InlineVec<ENode, 1> nodes;       // after rebuild(): canonical, no duplicates, enode_less order
  InlineVec<EClassId, 3> parents;  // terms that have this class among their children
  const Constant* constant = nullptr;  // the known value, when a const e-node is a member
};

// Estimated heap and object bytes of an e-graph, by part.
struct MemoryUsage {
  size_t nodes = 0;       // the term table (one e-node per id)
  size_t hashcons = 0;    // canonical and exact-term lookup tables
  size_t classes = 0;     // class records, member lists and parent lists
  size_t union_find = 0;  // union-find parents
  size_t proofs = 0;      // proof forest and justifications
  size_t types = 0;       // the type table and the inference cache
  size_t total() const { return nodes + hashcons + classes + union_find + proofs + types; }
};

class EGraph {
 public:
  EGraph();
  EGraph(EGraph&&) noexcept;
  EGraph& operator=(EGraph&&) noexcept;
  EGraph(const EGraph&) = delete;
  EGraph& operator=(const EGraph&) = delete;
  ~EGraph();

  // --- adding ----------------------------------------------------------------------------------
  // Registers a graph input (the same name again must have the same type) and adds its e-node.
  EClassId add_input(const std::string& name, const TensorType& type);
  // Registers a constant tensor (the same name again must hold the same value) and adds it.
  EClassId add_const(const Constant& constant);
  // Adds output `out` of an op the registry does not model.
  EClassId add_opaque(const OpaqueOp& op, std::vector<EClassId> children, unsigned out);
  // The root: one e-node whose children are the graph's output classes.
  EClassId add_graph_out(std::vector<EClassId> outputs);

  // Adds an e-node (children: any ids) and returns the id of that exact term. Infers its type
  // first; throws Error when the node is ill-typed or names an unregistered input or constant.
  EClassId add(const ENode& node);
  // As add(), for a registry op e-node whose type the caller already inferred with infer_op()
  // over its children's class types: the node is not inferred again.
  EClassId add(const ENode& node, TypeId type);
  // As add(), but an ill-typed node is not added: returns nullopt and, when `reason` is given,
  // the inference error message. Rules use it to reject an RHS whose parameters do not type.
  std::optional<EClassId> try_add(const ENode& node, std::string* reason = nullptr);
  // The canonical class that already holds the node (children may be any ids), if any.
  std::optional<EClassId> lookup(const ENode& node) const;
  // The type the node would have; throws Error when ill-typed.
  TensorType infer(const ENode& node) const;
  // The type a registry op e-node would have over children of the given types (for checking a
  // whole rule right-hand side before adding any of it); memoised. Throws Error.
  TypeId infer_op(const ENode& node, std::span<const TypeId> child_types) const;

  // --- merging ---------------------------------------------------------------------------------
  // Puts the classes of terms a and b together (a: the rule's LHS instance, b: its RHS).
  // Returns false when they were already one class. A type or constant mismatch throws Error
  // naming both terms, their types and the justification, and leaves the e-graph unchanged.
  bool merge(EClassId a, EClassId b, const Justification& why);
  // Restores the invariants after merges: congruence closure (merging parents that became
  // equal), canonical duplicate-free member lists, the per-op class index. Returns the number
  // of congruence merges it made.
  size_t rebuild();
  bool clean() const { return pending_.empty() && dirty_.empty(); }

  // --- queries ---------------------------------------------------------------------------------
  EClassId find(EClassId id) const {
    if (id.value >= uf_.size()) [[unlikely]]
      fail_no_class(id);
    return EClassId(uf_.find(id.value));
  }
  bool same(EClassId a, EClassId b) const { return find(a) == find(b); }
  // The canonical node: children replaced by their canonical ids.
  ENode canonicalize(const ENode& node) const;
  // Canonical class ids in increasing order.
  std::vector<EClassId> class_ids() const;
  const EClass& eclass(EClassId id) const { return *classes_[find(id).value]; }  // any id of it
  // Canonical ids of the classes that hold an e-node with this op (valid after rebuild()).
  std::span<const EClassId> classes_with_op(OpId op) const;

  size_t class_count() const { return class_count_; }
  size_t node_count() const { return node_count_; }  // e-nodes in class member lists
  size_t term_count() const { return uf_.size(); }   // ids handed out
  MemoryUsage memory() const;

  // --- analysis --------------------------------------------------------------------------------
  // The tensor type of a class; throws Error for the graph_out class, which is not a tensor.
  const TensorType& type(EClassId id) const;
  bool has_type(EClassId id) const;
  // The interned type of a class (kNoType for the graph_out class), and an interned type.
  TypeId type_id(EClassId id) const { return eclass(id).type; }
  const TensorType& type_of(TypeId t) const { return types_->at(t); }
  // The serial of the table the type ids are of (TypeTable::serial).
  uint64_t types_serial() const { return types_->serial(); }
  // The class's value when it holds a const e-node, else nullptr.
  const Constant* constant(EClassId id) const;

  // --- metadata --------------------------------------------------------------------------------
  const std::map<std::string, TensorType>& inputs() const { return inputs_; }
  const std::map<std::string, Constant>& constants() const { return constants_; }
  const Constant* find_constant(const std::string& name) const;
  const OpaqueOp& opaque_op(const ENode& opaque_node) const;

  // --- terms and explanations (explain.cpp) ----------------------------------------------------
  // The e-node of a term id exactly as it was added (children are term ids).
  const ENode& term(EClassId id) const;
  // True when term `t`'s e-node, its children made canonical, is `canonical` (no copy of the
  // term is made).
  bool canonicalizes_to(EClassId t, const ENode& canonical) const;
  // The id of a term whose e-node canonicalises to this class member (for proofs about it).
  EClassId term_of(const ENode& canonical_node) const;
  // Proves that terms a and b are equal; throws Error when their classes differ.
  Explanation explain(EClassId a, EClassId b, const ExplainOptions& options = {}) const;
  // Proves that term a equals the term a selection (an extraction) gives a's class: the chain
  // from a to a term with the chosen e-node, then, one level deeper, the same for each child
  // whose term is not yet the selection's. Explanation::to is the selection's whole term.
  Explanation explain_selection(EClassId a, const Selection& selection,
                                const ExplainOptions& options = {}) const;
  // The trace steps used by the proof that a equals b (sorted, unique).
  std::vector<uint32_t> proof_steps(EClassId a, EClassId b) const;

 private:
  friend class ProofWalker;
  struct TermTable;

  // find() and eclass() are inline for the matcher and the hashcons; their error is not.
  [[noreturn]] static void fail_no_class(EClassId id);
  void check_ids(const ENode& node) const;
  // The memo's term for a canonical node, if any.
  std::optional<EClassId> memo_find(const ENode& canonical) const;
  std::optional<EClassId> memo_find(const ENode& canonical, size_t hash) const;
  // The node's type, kNoType for graph_out (not a tensor); throws Error when ill-typed.
  TypeId infer_node(const ENode& node) const;
  // infer_node for a node whose children check_ids has accepted.
  TypeId infer_checked(const ENode& node) const;
  EClassId new_term(const ENode& node);
  // add() with the node's type, or nullptr to infer it.
  EClassId add_node(const ENode& node, const TypeId* type);
  void check_merge(EClassId a, EClassId b, const Justification& why) const;
  bool union_classes(EClassId a, EClassId b, uint32_t just);
  void rebuild_classes();
  std::string describe_term(EClassId id) const;

  // The term table (one e-node per id, as added) and its exact-term index.
  std::unique_ptr<TermTable> terms_;
  // Canonical node -> a term id whose node canonicalises to it: the table holds the term ids,
  // keyed by their terms' canonical forms. A key changes only when a child class stops being
  // canonical, and union_classes takes those entries out before it does.
  IdTable memo_;
  UnionFind uf_;
  // Class records by canonical id (null for merged-away ids). They live in `records_`, which
  // never moves them, and a merge hands the record of the class that goes to the next class
  // made: one allocation per many classes instead of one per class.
  std::vector<EClass*> classes_;
  std::deque<EClass> records_;
  std::vector<EClass*> free_records_;
  size_t class_count_ = 0;
  size_t node_count_ = 0;
  std::vector<EClassId> pending_;  // terms whose canonical form may have changed
  std::vector<EClassId> dirty_;    // classes whose member lists need canonicalising
  // By op id; rebuilt when asked after a change, each list keeping its storage.
  mutable std::vector<std::vector<EClassId>> by_op_;
  mutable bool by_op_stale_ = true;

  // Interning a type and memoising inference do not change what the e-graph means.
  std::unique_ptr<TypeTable> types_ = TypeTable::lend();  // given back when the e-graph goes
  mutable std::vector<TypeId> child_types_;               // scratch for infer_node

  std::map<std::string, TensorType> inputs_;
  std::map<std::string, Constant> constants_;
  std::vector<OpaqueOp> opaque_ops_;

  ProofForest proofs_;
};

}  // namespace retort
