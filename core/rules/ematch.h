// E-matching: finding where a rule's left-hand side occurs in an e-graph. A backtracking matcher
// over e-classes (patterns are small): the root op is looked up in the e-graph's per-op class
// index, and inside a class only the e-nodes of the wanted op are tried (class members are
// sorted by op). A match must also pass the rule's match-time clauses (docs/rules.md).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/base/pod_vec.h"
#include "core/egraph/egraph.h"
#include "core/rules/rule.h"

namespace retort {

struct Subst {
  std::vector<EClassId> classes;  // by VarTable::classes index (canonical when matched)
  std::vector<AttrValue> attrs;   // by VarTable::attrs index
};

struct Match {
  EClassId eclass;            // canonical class of the matched term
  std::optional<ENode> node;  // the matched root e-node; none when the LHS is a bare ?x
  Subst subst;
  std::vector<Value> params;  // the parameters bound by the match-time `let` clauses (they are
                              // numbered first; empty when there are none)
};

struct SearchOptions {
  size_t limit = SIZE_MAX;                    // stop after this many matches
  const std::atomic<bool>* cancel = nullptr;  // checked between candidate e-nodes
  // Stop searching after this moment (checked every few candidates); the default: never.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

// The matches of one rule, stored flat (bindings by id and by pointer into the attribute pool).
// Most matches a runner finds are never applied (caps, the node limit), so it keeps them in this
// form and builds a Match only for the ones it applies.
class MatchList {
 public:
  explicit MatchList(const Rule& rule);
  // Empties the list for a search of `rule`, keeping its storage: a runner searches every rule
  // each iteration, and would otherwise grow the same lists again each time.
  void reset(const Rule& rule);
  size_t size() const { return eclass_.size(); }
  Match at(size_t i) const;
  // Match i written over `m`, whose lists keep their storage: a runner applies its matches one
  // by one through one Match rather than allocating each match's lists anew.
  void get(size_t i, Match& m) const;
  // Room for n matches rooted in e-nodes of `arity` children, so that adding them does not
  // regrow the lists match by match.
  void reserve(size_t n, size_t arity);
  std::vector<Match> all() const;

  // Appends a match: `node` is the matched root e-node (none for a bare ?x), `classes` and
  // `attrs` the bindings by VarTable index, `params` the parameters the match-time `let`s
  // bind (empty when they bind none).
  void add(EClassId eclass, const ENode* node, std::span<const EClassId> classes,
           std::span<const AttrValue* const> attrs, std::span<const Value> params);

  // The working storage of the matcher that fills this list (ematch.cpp), kept with it so that
  // a runner's search of the same rule every iteration allocates none of it again.
  struct Scratch {
    std::vector<EClassId> regs;
    std::vector<std::span<const ENode>> cands;
    std::vector<EClassId> classes;
    std::vector<const AttrValue*> attrs;
  };
  Scratch& scratch() { return scratch_; }

 private:
  // The matched root e-node without its children, which are kept in `children_`.
  struct Root {
    OpId op;
    AttrsId attrs;
    uint16_t out, n_out;
    uint32_t first, count;
  };
  size_t n_classes_, n_attrs_, n_params_;
  PodVec<EClassId> eclass_;
  PodVec<Root> roots_;  // one per match when the rule has a root e-node
  PodVec<EClassId> children_;
  PodVec<EClassId> classes_;
  PodVec<const AttrValue*> attrs_;
  std::vector<Value> params_;
  Scratch scratch_;
};

// Every match of the rule in a clean (rebuilt) e-graph, in a deterministic order (classes by
// id, then their members' order). Expose and Reorder rules match each graph_out e-node.
MatchList find_matches(const EGraph& eg, const Rule& rule, const SearchOptions& options = {});
// The same, into `out` (reset first, its storage reused).
void find_matches(const EGraph& eg, const Rule& rule, const SearchOptions& options, MatchList& out);
// The same, each match built.
std::vector<Match> search(const EGraph& eg, const Rule& rule, const SearchOptions& options = {});
// The matches rooted in one e-class (any id of it).
std::vector<Match> search_class(const EGraph& eg, const Rule& rule, EClassId eclass,
                                const SearchOptions& options = {});

// Clause evaluation over one match: the rule's variables looked up in the e-graph's analysis.
// Each class's type is looked up once, as the clauses of a rule ask for the same ranks again and
// again (for the first kCachedTypes class variables: rules have few).
class MatchContext : public EvalContext {
 public:
  MatchContext(const EGraph& eg, const Subst& subst, const std::vector<Value>& params)
      : eg_(eg), classes_(subst.classes), attrs_(&subst.attrs), params_(params) {}
  // Bindings as the matcher holds them: attribute values by pointer.
  MatchContext(const EGraph& eg, std::span<const EClassId> classes,
               std::span<const AttrValue* const> attrs, const std::vector<Value>& params)
      : eg_(eg), classes_(classes), attr_ptrs_(attrs), params_(params) {}
  const TensorType& class_type(int v) const override {
    if (static_cast<size_t>(v) >= kCachedTypes) return eg_.type(classes_[v]);
    const TensorType*& t = types_[v];
    if (!t) t = &eg_.type(classes_[v]);
    return *t;
  }
  bool class_is_const(int v) const override { return eg_.constant(classes_[v]) != nullptr; }
  const AttrValue& attr(int v) const override { return attrs_ ? (*attrs_)[v] : *attr_ptrs_[v]; }
  const Value& param(int p) const override { return params_[p]; }

 private:
  static constexpr size_t kCachedTypes = 6;
  const EGraph& eg_;
  std::span<const EClassId> classes_;
  const std::vector<AttrValue>* attrs_ = nullptr;
  std::span<const AttrValue* const> attr_ptrs_;
  const std::vector<Value>& params_;
  mutable std::array<const TensorType*, kCachedTypes> types_{};
};

// The matched term with the substitution filled in, for `match RULE` listings:
// "(add I1 (transpose I2 perm=[1,0]))". Variables show a term of their class.
std::string match_str(const EGraph& eg, const Rule& rule, const Match& m, size_t max_nodes = 24);
// "?x = I1, ?y = (transpose I2 perm=[1,0]), ?p = [1,0]"
std::string subst_str(const EGraph& eg, const Rule& rule, const Subst& s, size_t max_nodes = 24);
// The bindings by e-class id, as short on a 10,000-node model as on a toy one:
// "?x=e1 ?y=e5 ?p=[1,0]".
std::string subst_ids_str(const Rule& rule, const Subst& s);

}  // namespace retort
