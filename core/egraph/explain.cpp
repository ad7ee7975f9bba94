// The proof forest (egg's explanations): every id is a term and a node of the forest; each union
// adds one edge between the two terms it was given, labelled with its justification, so the
// trees of the forest are exactly the e-classes and the unique path between two terms of a class
// is a proof that they are equal. A congruence edge is proved in turn by the paths between its
// two terms' children.
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/egraph/egraph.h"
#include "core/egraph/render.h"

namespace retort {

void EGraph::reroot_proof(EClassId term) {
  // Reverse the links on the path from `term` to its root, so `term` becomes the root.
  EClassId node = term;
  ProofLink carried{term, 0, true};
  while (true) {
    ProofLink old = proof_[node.value];
    proof_[node.value] = carried;
    if (old.next == node) break;
    carried = {node, old.just, !old.forward};
    node = old.next;
  }
}

void EGraph::proof_union(EClassId a, EClassId b, uint32_t just) {
  reroot_proof(a);
  proof_[a.value] = {b, just, true};
}

class ProofWalker {
 public:
  struct Edge {
    EClassId from, to;
    uint32_t just;
    bool backward;
  };

  explicit ProofWalker(const EGraph& eg) : eg_(eg) {}

  // The forest path from a to b, as edges in walking order.
  std::vector<Edge> path(EClassId a, EClassId b) const {
    const auto& links = eg_.proof_;
    std::unordered_map<uint32_t, size_t> pos_a;
    std::vector<EClassId> up_a{a};
    pos_a[a.value] = 0;
    for (EClassId x = a; links[x.value].next != x;) {
      x = links[x.value].next;
      pos_a[x.value] = up_a.size();
      up_a.push_back(x);
    }
    std::vector<EClassId> up_b{b};
    for (EClassId y = b; !pos_a.count(y.value);) {
      if (links[y.value].next == y) fail("e{} and e{} are not equal", a.value, b.value);
      y = links[y.value].next;
      up_b.push_back(y);
    }
    std::vector<Edge> edges;
    for (size_t i = 0; i < pos_a.at(up_b.back().value); ++i) {
      const auto& l = links[up_a[i].value];
      edges.push_back({up_a[i], up_a[i + 1], l.just, !l.forward});
    }
    for (size_t j = up_b.size() - 1; j-- > 0;) {
      const auto& l = links[up_b[j].value];
      edges.push_back({up_b[j + 1], up_b[j], l.just, l.forward});
    }
    return edges;
  }

  // The pairs of children a congruence edge rests on (identical children need no proof).
  std::vector<std::pair<EClassId, EClassId>> child_pairs(const Edge& e) const {
    const ENode& x = eg_.term(e.from);
    const ENode& y = eg_.term(e.to);
    std::vector<std::pair<EClassId, EClassId>> pairs;
    for (size_t i = 0; i < x.children.size() && i < y.children.size(); ++i)
      if (x.children[i] != y.children[i]) pairs.emplace_back(x.children[i], y.children[i]);
    return pairs;
  }

  void explain(EClassId a, EClassId b, int depth, const ExplainOptions& opt, Explanation& out) {
    if (!on_stack_.insert({a.value, b.value}).second) return;
    for (const Edge& e : path(a, b)) {
      if (out.steps.size() >= opt.max_steps || depth > kMaxDepth) {
        out.truncated = true;
        break;
      }
      out.steps.push_back({eg_.just_of(e.just), e.backward && e.just != 0, depth,
                           term_str(eg_, e.from, opt.max_term_nodes),
                           term_str(eg_, e.to, opt.max_term_nodes)});
      if (e.just == 0)
        for (auto [x, y] : child_pairs(e)) explain(x, y, depth + 1, opt, out);
    }
    on_stack_.erase({a.value, b.value});
  }

  void explain_selection(EClassId a, const Selection& sel, int depth, const ExplainOptions& opt,
                         Explanation& out) {
    EClassId cls = eg_.find(a);
    if (!proved_.insert({a.value, cls.value}).second) return;  // a shared subterm, proved once
    auto it = sel.chosen.find(cls);
    if (it == sel.chosen.end()) fail("the selection has no e-node for class e{}", cls.value);
    EClassId chosen = eg_.term_of(it->second);
    explain(a, chosen, depth, opt, out);
    for (EClassId child : eg_.term(chosen).children) {
      if (out.truncated) return;
      explain_selection(child, sel, depth + 1, opt, out);
    }
  }

  std::vector<uint32_t> steps(EClassId a, EClassId b) const {
    std::set<uint32_t> steps;
    std::set<std::pair<uint32_t, uint32_t>> seen{{a.value, b.value}};
    std::vector<std::pair<EClassId, EClassId>> work{{a, b}};
    while (!work.empty()) {
      auto [x, y] = work.back();
      work.pop_back();
      for (const Edge& e : path(x, y)) {
        if (e.just != 0) {
          steps.insert(eg_.justs_[e.just - 1].step);
          continue;
        }
        for (auto pair : child_pairs(e))
          if (seen.insert({pair.first.value, pair.second.value}).second) work.push_back(pair);
      }
    }
    return {steps.begin(), steps.end()};
  }

 private:
  static constexpr int kMaxDepth = 1000;
  const EGraph& eg_;
  std::set<std::pair<uint32_t, uint32_t>> on_stack_;
  std::set<std::pair<uint32_t, uint32_t>> proved_;  // (term, class) pairs explain_selection did
};

Explanation EGraph::explain(EClassId a, EClassId b, const ExplainOptions& options) const {
  if (find(a) != find(b))
    fail("{} and {} are not known to be equal", term_str(*this, a, options.max_term_nodes),
         term_str(*this, b, options.max_term_nodes));
  Explanation out;
  out.from = term_str(*this, a, options.max_term_nodes);
  out.to = term_str(*this, b, options.max_term_nodes);
  ProofWalker(*this).explain(a, b, 0, options, out);
  return out;
}

Explanation EGraph::explain_selection(EClassId a, const Selection& selection,
                                      const ExplainOptions& options) const {
  if (!selection.chosen.count(find(a)))
    fail("{} is not part of the extracted term", term_str(*this, a, options.max_term_nodes));
  Explanation out;
  out.from = term_str(*this, a, options.max_term_nodes);
  out.to = selection_str(*this, selection, find(a), options.max_term_nodes);
  ProofWalker(*this).explain_selection(a, selection, 0, options, out);
  return out;
}

std::vector<uint32_t> EGraph::proof_steps(EClassId a, EClassId b) const {
  if (find(a) != find(b)) fail("e{} and e{} are not equal", a.value, b.value);
  return ProofWalker(*this).steps(a, b);
}

std::string Explanation::str() const {
  std::string text = from + "\n";
  for (const ExplainStep& s : steps) {
    std::string indent(2 + 4 * static_cast<size_t>(s.depth), ' ');
    std::string why = s.why.str() + (s.backward ? ", right to left" : "");
    if (s.depth == 0)
      text += fmt::format("{}= {}    by {}\n", indent, s.to, why);
    else
      text += fmt::format("{}{} = {}    by {}\n", indent, s.from, s.to, why);
  }
  if (truncated) {
    text += "  ... (explanation truncated)\n";
    return text;
  }
  // A selection proof ends inside the children: state the whole term they add up to.
  const ExplainStep* last_top = nullptr;
  for (const ExplainStep& s : steps)
    if (s.depth == 0) last_top = &s;
  std::string_view reached = last_top ? std::string_view(last_top->to) : std::string_view(from);
  if (reached != to) text += fmt::format("  = {}    by congruence over the steps above\n", to);
  return text;
}

}  // namespace retort
