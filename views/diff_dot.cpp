#include "views/diff_dot.h"

#include <set>
#include <vector>

#include <fmt/format.h>

#include "core/base/dot_text.h"
#include "core/graph/graph_dot.h"

namespace retort {

namespace {

std::string color_of(DiffStatus s) {
  switch (s) {
    case DiffStatus::Added:
      return kDiffAddedColor;
    case DiffStatus::Removed:
      return kDiffRemovedColor;
    case DiffStatus::Rewritten:
      return kDiffRewrittenColor;
    case DiffStatus::Same:
      break;
  }
  return "";
}

std::string side(const Graph& g, const std::string& name, const std::string& prefix,
                 const std::map<std::string, DiffStatus>& statuses,
                 const std::map<std::string, std::string>& collapse) {
  GraphDotOptions options;
  options.cluster = name;
  options.id_prefix = prefix;
  for (const auto& [node, status] : statuses)
    if (status != DiffStatus::Same) options.fill[node] = color_of(status);
  options.collapse = collapse;
  return graph_dot(g, options);
}

// The op nodes next to each op node: the producers of its inputs and the readers of its
// outputs.
std::map<std::string, std::set<std::string>> neighbours(const Graph& g) {
  std::map<std::string, std::set<std::string>> next;
  for (const auto& n : g.nodes)
    for (const auto& in : n.inputs)
      if (const Node* p = in.empty() ? nullptr : g.producer(in)) {
        next[n.name].insert(p->name);
        next[p->name].insert(n.name);
      }
  return next;
}

std::string legend(const GraphDiff& d) {
  std::string out = "  subgraph cluster_legend {\n    label=\"legend\";\n";
  for (DiffStatus s : {DiffStatus::Removed, DiffStatus::Added, DiffStatus::Rewritten})
    out += fmt::format(
        "    \"legend:{}\" [label=\"{} ({}){}\", shape=box, style=filled, "
        "fillcolor=\"{}\"];\n",
        diff_status_name(s), diff_status_name(s), d.count(s),
        s == DiffStatus::Rewritten ? ", pairs linked" : "", color_of(s));
  return out + "  }\n";
}

// Each node of A beside its counterpart in B (the same rank), and a rewritten pair joined by a
// dashed line that does not move the layout. Nodes drawn inside an unchanged box are left out.
std::string pairs(const GraphDiff& d, const std::map<std::string, std::string>& collapsed_a,
                  const std::map<std::string, std::string>& collapsed_b) {
  std::string out;
  for (const auto& [a, b] : d.counterpart) {
    if (collapsed_a.count(a) || collapsed_b.count(b)) continue;
    std::string ida = dot_escape("a:" + dot_node_id(a)), idb = dot_escape("b:" + dot_node_id(b));
    out += fmt::format("  {{ rank=same; \"{}\"; \"{}\"; }}\n", ida, idb);
    auto status = d.a.find(a);
    if (status != d.a.end() && status->second == DiffStatus::Rewritten)
      out += fmt::format(
          "  \"{}\" -> \"{}\" [style=dashed, color=\"goldenrod\", constraint=false, "
          "dir=none];\n",
          ida, idb);
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> unchanged_regions(
    const Graph& g, const std::map<std::string, DiffStatus>& status, size_t min_nodes) {
  auto same = [&](const std::string& n) {
    auto it = status.find(n);
    return it != status.end() && it->second == DiffStatus::Same;
  };
  std::map<std::string, std::set<std::string>> next = neighbours(g);
  std::set<std::string> quiet;  // same, and every neighbour same
  for (const auto& n : g.nodes) {
    bool all_same = same(n.name);
    for (const auto& m : next[n.name]) all_same = all_same && same(m);
    if (all_same) quiet.insert(n.name);
  }
  std::map<std::string, std::string> region;
  std::set<std::string> seen;
  size_t count = 0;
  for (const auto& n : g.nodes) {  // in graph order, so region numbers read top to bottom
    if (!quiet.count(n.name) || seen.count(n.name)) continue;
    std::vector<std::string> members, stack{n.name};
    seen.insert(n.name);
    while (!stack.empty()) {
      std::string at = stack.back();
      stack.pop_back();
      members.push_back(at);
      for (const auto& m : next[at])
        if (quiet.count(m) && seen.insert(m).second) stack.push_back(m);
    }
    if (members.size() < min_nodes) continue;
    std::string name = fmt::format("unchanged {}", ++count);
    for (const auto& m : members) region[m] = name;
  }
  return region;
}

std::string diff_dot(const Graph& a, const std::string& name_a, const Graph& b,
                     const std::string& name_b, const GraphDiff& diff, bool collapse,
                     const std::string& title) {
  std::string second = name_b == name_a ? name_b + " (2)" : name_b;
  std::map<std::string, std::string> collapse_a, collapse_b;
  if (collapse) {
    collapse_a = unchanged_regions(a, diff.a);
    collapse_b = unchanged_regions(b, diff.b);
  }
  return fmt::format(
      // newrank: a rank shared across the two clusters keeps each node inside its cluster.
      "digraph \"diff\" {{\n  rankdir=TB;\n  newrank=true;\n  label=\"{}\";\n  labelloc=t;\n"
      "  node [fontname=\"monospace\", fontsize=10];\n{}{}{}{}}}\n",
      dot_escape(title.empty() ? fmt::format("{} vs {}", name_a, second) : title),
      side(a, name_a, "a:", diff.a, collapse_a), side(b, second, "b:", diff.b, collapse_b),
      pairs(diff, collapse_a, collapse_b), legend(diff));
}

}  // namespace retort
