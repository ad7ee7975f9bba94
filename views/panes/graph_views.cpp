#include <functional>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/egraph/extract.h"
#include "core/egraph/rewrite_label.h"
#include "core/egraph/value_classes.h"
#include "core/graph/graph_diff.h"
#include "core/tensor/summary.h"
#include "views/panes/session_text.h"

namespace retort {

namespace {

// Forcing a right-hand side extracts the classes below it; beyond these sizes that would stall
// the screen after a long saturation, so only the last steps are shown.
constexpr size_t kMaxForcedSteps = 32;
constexpr size_t kMaxRewriteViewNodes = 20000;

std::map<std::string, std::string> value_summaries(const Session& s, const std::string& graph) {
  std::map<std::string, std::string> out;
  const auto& eval = s.last_eval();
  if (!eval || eval->graph != graph) return out;
  for (const auto& [name, tensor] : eval->values) out[name] = summarize_tensor(tensor, 4);
  return out;
}

// True when following the chosen e-nodes from the root never comes back to a class.
bool acyclic(const EGraph& eg, const Selection& sel) {
  std::map<EClassId, int> state;  // 1: on the path, 2: done
  std::function<bool(EClassId)> visit = [&](EClassId c) {
    int& st = state[c];
    if (st == 1) return false;
    if (st == 2) return true;
    st = 1;
    const ENode* n = sel.find(c);
    if (!n) return false;
    for (EClassId child : n->children)
      if (!visit(eg.find(child))) return false;
    state[c] = 2;
    return true;
  };
  return visit(sel.root);
}

// Chooses `node` for class `cls`, filling the classes below it from their min extraction.
bool force_choice(const EGraph& eg, Selection& sel, EClassId cls, const ENode& node) {
  Selection trial = sel;
  trial.set(cls, node);
  for (EClassId child : node.children) {
    EClassId c = eg.find(child);
    if (!trial.contains(c)) trial.fill_from(select(eg, c, {}));
  }
  if (!acyclic(eg, trial)) return false;
  sel = std::move(trial);
  return true;
}

}  // namespace

std::optional<GraphView> rewrite_view(const Session& s, size_t from) {
  if (!s.has_egraph()) return std::nullopt;
  const EGraphWork& w = s.egraph();
  if (from >= w.trace.steps.size() || !w.eg.clean() || w.eg.node_count() > kMaxRewriteViewNodes)
    return std::nullopt;
  from = std::max(from, w.trace.steps.size() - std::min(w.trace.steps.size(), kMaxForcedSteps));
  const EGraph& eg = w.eg;
  Selection plain = select(eg, w.meta.root, {});
  Selection sel = plain;
  size_t used = 0;
  for (size_t i = from; i < w.trace.steps.size(); ++i) {
    const TraceStep& step = w.trace.steps[i];
    EClassId cls = eg.find(step.eclass);
    if (eg.find(step.rhs) != cls) continue;
    used += force_choice(eg, sel, cls, eg.canonicalize(eg.term(step.rhs)));
  }
  GraphView view;
  view.graph = restore_graph(eg, w.meta, sel);
  Graph base = restore_graph(eg, w.meta, plain);
  view.highlighted = new_nodes(
      diff_graphs(base, view.graph, value_classes(eg, base), value_classes(eg, view.graph)));
  size_t steps = w.trace.steps.size() - from;
  view.label = steps == 1 ? "rewrite " + rewrite_label(from)
                          : fmt::format("rewrites {}..{}", rewrite_label(from),
                                        rewrite_label(w.trace.steps.size() - 1));
  view.note = fmt::format("{} of {} rewrite(s); added, rewritten marked", used, steps);
  return view;
}

RewriteStepGraphs rewrite_step_graphs(const Session& s, size_t step) {
  if (!s.has_egraph()) fail("no e-graph yet: `egraph`, then `apply` or `saturate`");
  const EGraphWork& w = s.egraph();
  if (w.trace.steps.empty()) fail("no rewrite yet: `apply RULE` or `saturate` first");
  if (step >= w.trace.steps.size())
    fail("there is no rewrite {}: the trace has #1..{}", rewrite_label(step),
         rewrite_label(w.trace.steps.size() - 1));
  if (!w.eg.clean()) fail("the e-graph is not rebuilt: run `step` or `saturate` first");
  const EGraph& eg = w.eg;
  const TraceStep& t = w.trace.steps[step];
  EClassId cls = eg.find(t.eclass);
  if (!t.node)
    fail("rewrite {} ({}) matched a bare class: nothing to draw before it", rewrite_label(step),
         t.rule);
  Selection plain = select(eg, w.meta.root, {});
  Selection before = plain, after = plain;
  if (!force_choice(eg, before, cls, eg.canonicalize(*t.node)) || eg.find(t.rhs) != cls ||
      !force_choice(eg, after, cls, eg.canonicalize(eg.term(t.rhs))))
    fail("rewrite {} ({}) cannot be drawn: its terms make the extracted graph cyclic",
         rewrite_label(step), t.rule);
  return {restore_graph(eg, w.meta, before), restore_graph(eg, w.meta, after), t.rule};
}

std::set<std::string> variant_new_nodes(const Session& s, const std::string& name) {
  const Graph& v = s.variant(name);
  if (!s.has_egraph()) return new_nodes(diff_graphs(s.graph(), v));
  const EGraphWork& w = s.egraph();
  if (!s.variant_info(name).extraction) return new_nodes(diff_graphs(w.start, v));
  return new_nodes(diff_graphs(w.start, v, value_classes(w.eg, w.start), value_classes(w.eg, v)));
}

std::vector<GraphView> graph_views(const Session& s, size_t rewrite_from) {
  std::vector<GraphView> views;
  if (!s.has_graph()) return views;
  views.push_back({"current graph", s.graph(), {}, value_summaries(s, ""), ""});
  try {
    if (auto rewrite = rewrite_view(s, rewrite_from)) views.push_back(std::move(*rewrite));
  } catch (const Error& e) {
    // The other graphs are still worth showing; the note says why this one is missing.
    views.push_back({"rewrites", s.graph(), {}, {}, fmt::format("cannot show: {}", e.what())});
  }
  for (const auto& [name, v] : s.variants())
    views.push_back({"variant " + name, v.graph, variant_new_nodes(s, name),
                     value_summaries(s, name), "added, rewritten since the original marked"});
  return views;
}

}  // namespace retort
