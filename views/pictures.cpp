#include "views/pictures.h"

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/egraph/render.h"
#include "core/egraph/rewrite_label.h"
#include "core/egraph/value_classes.h"
#include "core/graph/graph_diff.h"
#include "core/graph/graph_dot.h"
#include "core/io/json_graph.h"
#include "views/diff_dot.h"
#include "views/panes/session_text.h"

namespace retort {

namespace {

bool is_original(const std::string& name) {
  return name == "original" || name == "graph";
}

// Whether the graph's values are terms of the current e-graph, so classes can match them.
bool in_egraph(const Session& s, const std::string& name) {
  if (!s.has_egraph()) return false;
  if (is_original(name)) return graph_to_json(s.graph()) == graph_to_json(s.egraph().start);
  return s.variant_info(name).extraction.has_value();
}

std::string variant_color(const std::string& name, size_t& next_other) {
  static const char* const kOthers[] = {"lightblue", "plum", "khaki", "lightcyan", "wheat"};
  if (name == "min") return "palegreen";
  if (name == "max") return "lightsalmon";
  return kOthers[next_other++ % std::size(kOthers)];
}

}  // namespace

const Graph& named_graph(const Session& s, const std::string& name) {
  return is_original(name) ? s.graph() : s.variant(name);
}

std::string graph_picture(const Graph& g) {
  return graph_dot(g);
}

std::string failing_picture(const Graph& g, const std::map<std::string, std::string>& failing) {
  constexpr const char* kFailing = "tomato";
  GraphDotOptions options;
  for (const auto& [value, note] : failing) {
    options.output_marks[value] = {kFailing, note};
    if (const Node* n = g.producer(value)) options.fill[n->name] = kFailing;
  }
  return graph_dot(g, options);
}

std::string egraph_picture(const Session& s, const EGraphPictureOptions& o, std::string* note) {
  const EGraphWork& w = s.egraph();
  DotOptions options;
  size_t next_other = 0;
  for (const auto& [name, v] : s.variants())
    if (v.selection)
      options.highlights.push_back({&*v.selection, variant_color(name, next_other), name});
  if (o.variants_only) {
    options.only = classes_chosen(w.eg, options.highlights);
    if (options.only.empty()) fail("no variant is extracted from this e-graph: `extract` first");
  }
  if (o.around) {
    std::set<EClassId> near = classes_around(w.eg, *o.around, o.depth);
    if (o.variants_only)
      std::erase_if(options.only, [&](EClassId c) { return !near.count(c); });
    else
      options.only = std::move(near);
  }
  return egraph_dot(w.eg, options, note);
}

std::string diff_picture(const Session& s, const std::string& a, const std::string& b, bool full) {
  const Graph& ga = named_graph(s, a);
  const Graph& gb = named_graph(s, b);
  GraphDiff d =
      in_egraph(s, a) && in_egraph(s, b)
          ? diff_graphs(ga, gb, value_classes(s.egraph().eg, ga), value_classes(s.egraph().eg, gb))
          : diff_graphs(ga, gb);
  return diff_dot(ga, is_original(a) ? "original" : a, gb, is_original(b) ? "original" : b, d,
                  !full);
}

std::string rewrite_picture(const Session& s, std::optional<size_t> step, bool full) {
  size_t n = step ? *step : (s.has_egraph() ? s.egraph().trace.steps.size() : 1) - 1;
  RewriteStepGraphs g = rewrite_step_graphs(s, n);
  const EGraph& eg = s.egraph().eg;
  GraphDiff d =
      diff_graphs(g.before, g.after, value_classes(eg, g.before), value_classes(eg, g.after));
  return diff_dot(g.before, "before", g.after, "after", d, !full,
                  fmt::format("rewrite {}: {}", rewrite_label(n), g.rule));
}

}  // namespace retort
