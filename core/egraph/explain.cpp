// Explanations: the path between two terms in the proof forest (proof_forest.h), each
// congruence edge proved in turn by the paths between its two terms' children.
#include <set>
#include <unordered_set>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/egraph/egraph.h"
#include "core/egraph/render.h"

namespace retort {

class ProofWalker {
 public:
  using Edge = ProofForest::Edge;

  explicit ProofWalker(const EGraph& eg) : eg_(eg) {}

  std::vector<Edge> path(EClassId a, EClassId b) const { return eg_.proofs_.path(a, b); }

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
      out.steps.push_back({eg_.proofs_.justification(e.just),
                           e.backward && e.just != ProofForest::kCongruence, depth,
                           term_str(eg_, e.from, opt.max_term_nodes),
                           term_str(eg_, e.to, opt.max_term_nodes)});
      if (e.just == ProofForest::kCongruence)
        for (auto [x, y] : child_pairs(e)) explain(x, y, depth + 1, opt, out);
    }
    on_stack_.erase({a.value, b.value});
  }

  void explain_selection(EClassId a, const Selection& sel, int depth, const ExplainOptions& opt,
                         Explanation& out) {
    EClassId cls = eg_.find(a);
    if (!proved_.insert({a.value, cls.value}).second) return;  // a shared subterm, proved once
    EClassId chosen = eg_.term_of(sel.at(cls));
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
        if (e.just != ProofForest::kCongruence) {
          steps.insert(eg_.proofs_.step_of(e.just));
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
  if (!selection.contains(find(a)))
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
