#include "core/egraph/extract.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <span>
#include <unordered_map>

#include "core/base/error.h"
#include "core/base/rng.h"

namespace retort {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Extraction runs on a clean e-graph, whose class members are canonical: the children of every
// e-node it chooses among are canonical class ids already, and are used without find().

// The cost one e-node adds on top of its children.
class OpCost {
 public:
  explicit OpCost(const ExtractOptions& options) {
    if (options.mode != ExtractMode::Cost) return;
    for (const auto& [op, cost] : options.op_costs) {
      if (!(cost >= 0) || std::isinf(cost))
        fail("the cost of op '{}' must be a finite number >= 0, got {}", op, cost);
      costs_[op] = cost;
    }
  }

  double operator()(const EGraph& eg, const ENode& n) const {
    if (is_leaf_op(n.op) || n.op == special_ops::kGraphOut) return 0;
    if (costs_.empty()) return 1;
    const std::string& name =
        n.op == special_ops::kOpaque ? eg.opaque_op(n).op_type : op_name(n.op);
    auto it = costs_.find(name);
    return it == costs_.end() ? 1 : it->second;
  }

 private:
  std::map<std::string, double> costs_;
};

// `own` (the e-node's op cost) plus its children's class costs, added in child order.
double plus_children(double own, const ENode& n, const std::vector<double>& class_cost) {
  for (EClassId ch : n.children) own += class_cost[ch.value];
  return own;
}

double node_cost(const EGraph& eg, const ENode& n, const OpCost& op_cost,
                 const std::vector<double>& class_cost) {
  return plus_children(op_cost(eg, n), n, class_cost);
}

// The classes a choice reaches from the root, with their chosen e-nodes.
struct Reached {
  EClassId root;                   // canonical
  std::vector<EClassId> classes;   // in increasing id order
  std::vector<const ENode*> node;  // by class id: its chosen e-node, where reached
  std::vector<ENode> own;          // e-nodes `node` points to that are no class's members
  double cost = 0;                 // the extractor's cost of the root

  Selection selection() const {
    Selection sel;
    sel.root = root;
    sel.cost = cost;
    sel.chosen.reserve(classes.size());
    for (EClassId c : classes) sel.chosen.emplace_back(c, *node[c.value]);
    return sel;
  }
};

// Follows `pick` (class -> its e-node, or nullptr) from the root, depth first, children in
// order; random extraction draws in that order.
template <typename Pick>
Reached follow(const EGraph& eg, EClassId root, Pick&& pick) {
  Reached r;
  r.root = eg.find(root);
  r.node.assign(eg.term_count(), nullptr);
  // The reached ids, one bit each: reading them off in order costs less than sorting a list.
  std::vector<uint64_t> reached((eg.term_count() + 63) / 64);
  size_t count = 0;
  std::vector<EClassId> work{r.root};
  while (!work.empty()) {
    EClassId c = work.back();
    work.pop_back();
    if (r.node[c.value]) continue;
    const ENode* n = pick(c);
    if (!n) fail("e-class e{} has no term to extract", c.value);
    r.node[c.value] = n;
    reached[c.value / 64] |= uint64_t{1} << (c.value % 64);
    ++count;
    for (size_t k = n->children.size(); k-- > 0;) work.push_back(n->children[k]);
  }
  r.classes.reserve(count);
  for (size_t w = 0; w < reached.size(); ++w)
    for (uint64_t bits = reached[w]; bits; bits &= bits - 1)
      r.classes.emplace_back(static_cast<uint32_t>(64 * w + std::countr_zero(bits)));
  return r;
}

// Tree cost of the selection's term at `c` (shared subterms counted once per use).
double selection_cost(const EGraph& eg, const Reached& r, const OpCost& op_cost) {
  std::map<EClassId, double> memo;
  std::function<double(EClassId)> cost = [&](EClassId c) -> double {
    if (auto it = memo.find(c); it != memo.end()) return it->second;
    const ENode& n = *r.node[c.value];
    double total = op_cost(eg, n);
    for (EClassId ch : n.children) total += cost(eg.find(ch));
    return memo[c] = total;
  };
  return cost(r.root);
}

// Listing the outputs in another order costs nothing: where a reordered graph_out ties with the
// one `root` names (the graph's own), min and max keep the graph's order, and only random
// extraction reorders. Nothing points at the root class, so its choice stays acyclic.
void prefer_own_root(const EGraph& eg, EClassId root, const OpCost& op_cost,
                     const std::vector<double>& best, std::vector<const ENode*>& choice) {
  EClassId r = eg.find(root);
  ENode own = eg.canonicalize(eg.term(root));
  for (const ENode& n : eg.eclass(r).nodes)
    if (n == own && node_cost(eg, n, op_cost, best) == best[r.value]) choice[r.value] = &n;
}

Reached reach_min(const EGraph& eg, EClassId root, const OpCost& op_cost) {
  // Every class's members, in class then member order, with their op costs: each round of the
  // fixed point then reads one flat list.
  struct Member {
    const ENode* node;
    uint32_t cls;
    double own;
  };
  std::vector<Member> members;
  members.reserve(eg.node_count());
  for (EClassId c : eg.class_ids())
    for (const ENode& n : eg.eclass(c).nodes) members.push_back({&n, c.value, op_cost(eg, n)});
  std::vector<double> best(eg.term_count(), kInf);
  std::vector<const ENode*> choice(eg.term_count(), nullptr);
  // Fixed point (Algorithm 1, lines 7-13): costs only decrease, and only a strict decrease
  // changes a choice, so the choices never form a cycle.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Member& m : members) {
      double cost = plus_children(m.own, *m.node, best);
      if (cost < best[m.cls]) {
        best[m.cls] = cost;
        choice[m.cls] = m.node;
        changed = true;
      }
    }
  }
  prefer_own_root(eg, root, op_cost, best, choice);
  Reached r = follow(eg, root, [&](EClassId c) { return choice[c.value]; });
  r.cost = best[r.root.value];
  return r;
}

// The fixed point of reach_min over lexicographic costs (e-nodes outside the preferred set,
// minus preferred e-nodes): as few foreign e-nodes as possible, then as many preferred ones, so
// a class takes a preferred e-node even where a foreign subterm below it costs as much as the
// class's cheapest term. Along a chosen edge the first component never rises, so a cycle of
// choices could only run through preferred e-nodes, which the caller's acyclic, one-per-class
// preferred set rules out; the round limit turns a broken promise into an Error.
Selection select_preferring(const EGraph& eg, EClassId root,
                            const std::function<bool(const ENode&)>& preferred) {
  using Cost = std::pair<double, double>;
  std::vector<EClassId> ids = eg.class_ids();
  std::vector<Cost> best(eg.term_count(), Cost{kInf, 0});
  std::vector<const ENode*> choice(eg.term_count(), nullptr);
  std::unordered_map<const ENode*, Cost> own;
  for (EClassId c : ids)
    for (const ENode& n : eg.eclass(c).nodes)
      own[&n] = is_leaf_op(n.op) || n.op == special_ops::kGraphOut ? Cost{0, 0}
                : preferred(n)                                     ? Cost{0, -1}
                                                                   : Cost{1, 0};
  size_t rounds = 0;
  for (bool changed = true; changed;) {
    if (++rounds > 4 * ids.size() + 8) fail("the preferred e-nodes form a cycle");
    changed = false;
    for (EClassId c : ids)
      for (const ENode& n : eg.eclass(c).nodes) {
        Cost cost = own.at(&n);
        for (EClassId ch : n.children) {
          const Cost& b = best[ch.value];
          cost.first += b.first;
          cost.second += b.second;
        }
        if (cost.first < kInf && cost < best[c.value]) {
          best[c.value] = cost;
          choice[c.value] = &n;
          changed = true;
        }
      }
  }
  Reached r = follow(eg, root, [&](EClassId c) { return choice[c.value]; });
  r.cost = best[r.root.value].first;
  return r.selection();
}

// The graph's own structure with equal values shared: every class takes the e-node of its
// earliest term. A term's children were added before it, so along every chosen edge the earliest
// term id strictly decreases and the choice is acyclic. Where the root is the graph as it was
// added, this is the original graph minus the duplicates that hash-consing and rewrites merged.
Reached reach_earliest(const EGraph& eg, EClassId root) {
  // From the last term to the first, so each class ends up with its first.
  std::vector<EClassId> earliest(eg.term_count());
  for (uint32_t t = static_cast<uint32_t>(eg.term_count()); t-- > 0;)
    earliest[eg.find(EClassId{t}).value] = EClassId{t};
  std::vector<ENode> picked;
  picked.reserve(eg.class_count());  // one per reached class: the pointers into it stay valid
  Reached r = follow(eg, root, [&](EClassId c) -> const ENode* {
    picked.push_back(eg.canonicalize(eg.term(earliest[c.value])));
    return &picked.back();
  });
  r.own = std::move(picked);  // a move keeps the elements where they are
  return r;
}

// The order of e-nodes equal but for `out`, for counting the graph nodes they stand for.
bool op_less(const ENode* a, const ENode* b) {
  if (a->op != b->op) return a->op < b->op;
  if (a->attrs != b->attrs) return a->attrs < b->attrs;
  if (a->n_out != b->n_out) return a->n_out < b->n_out;
  return std::lexicographical_compare(a->children.begin(), a->children.end(), b->children.begin(),
                                      b->children.end());
}

bool same_op(const ENode* a, const ENode* b) {
  return a->op == b->op && a->attrs == b->attrs && a->n_out == b->n_out &&
         a->children == b->children;
}

// The number of graph nodes the choice restores to: non-leaf e-nodes, with the e-nodes of one
// multi-output op (equal but for `out`) counted once. The chosen e-nodes are canonical and the
// e-graph is clean, so two classes never choose equal e-nodes: only those of a multi-output op
// can stand for one node.
size_t op_count(const Reached& r) {
  size_t ops = 0;
  std::vector<const ENode*> multi;
  for (EClassId c : r.classes) {
    const ENode* n = r.node[c.value];
    if (is_leaf_op(n->op) || n->op == special_ops::kGraphOut) continue;
    if (n->n_out > 1)
      multi.push_back(n);
    else
      ++ops;
  }
  std::sort(multi.begin(), multi.end(), op_less);
  return ops +
         static_cast<size_t>(std::unique(multi.begin(), multi.end(), same_op) - multi.begin());
}

// Tree cost overcounts shared subterms, so the tree-cheapest choice can restore to more nodes
// than the graph had; the graph's own (deduplicated) structure is kept when it is smaller.
Selection select_fewest_ops(const EGraph& eg, EClassId root, const OpCost& op_cost) {
  Reached tree = reach_min(eg, root, op_cost);
  Reached earliest = reach_earliest(eg, root);
  if (op_count(earliest) < op_count(tree)) {
    earliest.cost = selection_cost(eg, earliest, op_cost);
    return earliest.selection();
  }
  return tree.selection();
}

struct AcyclicView {
  std::vector<EClassId> order;        // classes in position order (children first)
  std::vector<const ENode*> members;  // the kept e-nodes, grouped by class in `order`
  std::vector<std::pair<uint32_t, uint32_t>> range;  // by class id: its run of `members`

  std::span<const ENode* const> kept(EClassId c) const {
    return {members.data() + range[c.value].first, members.data() + range[c.value].second};
  }
};

// Algorithm 1, line 1: a depth-first search from the root orders the classes by the time they
// finish, and an e-node is kept only when all its children finished before its class (an edge
// to a class still on the stack is a back edge). A class that finishes without any e-node over
// finished children is not placed yet; it is placed as soon as one of its e-nodes' children all
// are, so a class with a finite term always keeps one (plain back-edge removal can lose every
// term of a class).
AcyclicView acyclic_view(const EGraph& eg, EClassId root) {
  const size_t n_ids = eg.term_count();
  std::vector<int32_t> pos(n_ids, -1);
  enum : uint8_t { kWhite, kGray, kFinished };
  std::vector<uint8_t> state(n_ids, kWhite);
  std::vector<const EClass*> eclass(n_ids, nullptr);  // by class id, once the search reaches it
  AcyclicView view;
  view.range.assign(n_ids, {0, 0});
  view.order.reserve(eg.class_count());
  view.members.reserve(eg.node_count());

  auto placed = [&](const ENode& n) {
    for (EClassId ch : n.children)
      if (pos[ch.value] < 0) return false;
    return true;
  };
  auto can_place = [&](EClassId c) {
    const auto& nodes = eclass[c.value]->nodes;
    return std::any_of(nodes.begin(), nodes.end(), placed);
  };
  // Places c, then every finished class that was waiting for it. Only finished classes are
  // placed, so some class waits exactly when more have finished than are placed; without one
  // (an acyclic choice's common case) the parents need no look.
  std::vector<EClassId> work;
  size_t finished = 0;
  auto place = [&](EClassId first) {
    work.push_back(first);
    while (!work.empty()) {
      EClassId c = work.back();
      work.pop_back();
      if (pos[c.value] >= 0) continue;
      pos[c.value] = static_cast<int32_t>(view.order.size());
      view.order.push_back(c);
      if (finished == view.order.size()) continue;
      for (EClassId p : eclass[c.value]->parents) {
        EClassId q = eg.find(p);
        if (state[q.value] == kFinished && pos[q.value] < 0 && can_place(q)) work.push_back(q);
      }
    }
  };

  // Iterative DFS over (class, member, child) positions; a frame holds its class's members and
  // the current member's children.
  struct Frame {
    EClassId cls;
    std::span<const ENode> nodes;
    std::span<const EClassId> children;  // of nodes[node], while node < nodes.size()
    size_t node = 0, child = 0;
  };
  std::vector<Frame> stack;
  auto enter = [&](EClassId c) {
    state[c.value] = kGray;
    eclass[c.value] = &eg.eclass(c);
    std::span<const ENode> nodes(eclass[c.value]->nodes.begin(), eclass[c.value]->nodes.end());
    stack.push_back(
        {c, nodes, nodes.empty() ? std::span<const EClassId>() : nodes[0].children.span()});
  };
  enter(eg.find(root));
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.child < f.children.size()) {
      EClassId d = f.children[f.child++];
      if (state[d.value] == kWhite) enter(d);
      continue;
    }
    if (++f.node < f.nodes.size()) {
      f.children = f.nodes[f.node].children.span();
      f.child = 0;
      continue;
    }
    EClassId c = f.cls;
    stack.pop_back();
    state[c.value] = kFinished;
    ++finished;
    if (can_place(c)) place(c);
  }

  for (EClassId c : view.order) {
    auto begin = static_cast<uint32_t>(view.members.size());
    for (const ENode& n : eclass[c.value]->nodes) {
      auto children = n.children.span();
      if (std::all_of(children.begin(), children.end(),
                      [&](EClassId ch) { return pos[ch.value] < pos[c.value]; }))
        view.members.push_back(&n);
    }
    view.range[c.value] = {begin, static_cast<uint32_t>(view.members.size())};
  }
  return view;
}

Selection select_max(const EGraph& eg, EClassId root, const OpCost& op_cost) {
  AcyclicView view = acyclic_view(eg, root);
  std::vector<double> best(eg.term_count(), -kInf);
  std::vector<const ENode*> choice(eg.term_count(), nullptr);
  // Children come earlier in `order`, so one pass reaches the fixed point.
  for (EClassId c : view.order)
    for (const ENode* n : view.kept(c)) {
      double cost = node_cost(eg, *n, op_cost, best);
      if (cost > best[c.value]) {
        best[c.value] = cost;
        choice[c.value] = n;
      }
    }
  prefer_own_root(eg, root, op_cost, best, choice);
  Reached r = follow(eg, root, [&](EClassId c) { return choice[c.value]; });
  r.cost = best[r.root.value];
  return r.selection();
}

Selection select_random(const EGraph& eg, EClassId root, uint64_t seed, const OpCost& op_cost) {
  AcyclicView view = acyclic_view(eg, root);
  Rng rng(seed);
  Reached r = follow(eg, root, [&](EClassId c) -> const ENode* {
    auto options = view.kept(c);
    if (options.empty()) return nullptr;
    auto k = rng.uniform_int(0, static_cast<int64_t>(options.size()) - 1);
    return options[static_cast<size_t>(k)];
  });
  r.cost = selection_cost(eg, r, op_cost);
  return r.selection();
}

// The trace steps behind a selection: walking down from the root, each chosen e-node's term is
// proved equal to the term its parent's term has at that position (the original graph's term
// at the root), and the steps of all those proofs are collected.
std::vector<uint32_t> selection_steps(const EGraph& eg, const Selection& sel, EClassId root_term) {
  std::set<uint32_t> steps;
  std::set<std::pair<EClassId, EClassId>> seen;
  std::vector<std::pair<EClassId, EClassId>> work{{sel.root, root_term}};
  while (!work.empty()) {
    auto [c, anchor] = work.back();
    work.pop_back();
    if (!seen.insert({c, anchor}).second) continue;
    EClassId t = eg.term_of(sel.at(c));
    for (uint32_t s : eg.proof_steps(anchor, t)) steps.insert(s);
    const ENode& term = eg.term(t);
    for (EClassId child : term.children) work.push_back({eg.find(child), child});
  }
  return {steps.begin(), steps.end()};
}

}  // namespace

std::string_view extract_mode_name(ExtractMode m) {
  switch (m) {
    case ExtractMode::Min:
      return "min";
    case ExtractMode::Max:
      return "max";
    case ExtractMode::Random:
      return "random";
    case ExtractMode::Cost:
      return "cost";
  }
  return "?";
}

std::optional<ExtractMode> parse_extract_mode(std::string_view name) {
  for (ExtractMode m : {ExtractMode::Min, ExtractMode::Max, ExtractMode::Random, ExtractMode::Cost})
    if (extract_mode_name(m) == name) return m;
  return std::nullopt;
}

std::map<EClassId, std::vector<ENode>> acyclic_nodes(const EGraph& eg, EClassId root) {
  if (!eg.clean()) fail("the e-graph has pending merges: rebuild it before extracting");
  std::map<EClassId, std::vector<ENode>> out;
  AcyclicView view = acyclic_view(eg, root);
  for (EClassId c : view.order)
    for (const ENode* n : view.kept(c)) out[c].push_back(*n);
  return out;
}

Selection select(const EGraph& eg, EClassId root, const ExtractOptions& options) {
  if (!eg.clean()) fail("the e-graph has pending merges: rebuild it before extracting");
  OpCost op_cost(options);
  switch (options.mode) {
    case ExtractMode::Min:
      return select_fewest_ops(eg, root, op_cost);
    case ExtractMode::Cost:
      return reach_min(eg, root, op_cost).selection();
    case ExtractMode::Max:
      return select_max(eg, root, op_cost);
    case ExtractMode::Random:
      return select_random(eg, root, options.seed, op_cost);
  }
  fail("unknown extraction mode");
}

size_t graph_depth(const Graph& g) {
  // Keyed by views of the graph's own names: no string is copied.
  std::unordered_map<std::string_view, size_t> depth;
  depth.reserve(g.nodes.size());
  size_t deepest = 0;
  for (const Node& node : g.nodes) {  // topological after infer_graph
    size_t d = 0;
    for (const auto& in : node.inputs)
      if (auto it = depth.find(in); it != depth.end()) d = std::max(d, it->second);
    for (const auto& out : node.outputs) depth[out] = d + 1;
    deepest = std::max(deepest, d + 1);
  }
  return deepest;
}

Extraction extract(const EGraph& eg, const GraphMeta& meta, const ExtractOptions& options) {
  return restore_selection(eg, meta, select(eg, meta.root, options), options.collect_steps);
}

Extraction extract_preferring(const EGraph& eg, const GraphMeta& meta,
                              const std::function<bool(const ENode&)>& preferred) {
  if (!eg.clean()) fail("the e-graph has pending merges: rebuild it before extracting");
  return restore_selection(eg, meta, select_preferring(eg, meta.root, preferred), true);
}

Extraction restore_selection(const EGraph& eg, const GraphMeta& meta, Selection selection,
                             bool collect_steps) {
  Extraction ex;
  ex.selection = std::move(selection);
  RestoredGraph restored = restore_measured(eg, meta, ex.selection);
  ex.graph = std::move(restored.graph);
  ex.op_count = ex.graph.op_count();
  ex.depth = restored.depth;
  if (collect_steps) ex.steps = selection_steps(eg, ex.selection, meta.root);
  return ex;
}

}  // namespace retort
