#include "views/diff_dot.h"

#include <algorithm>
#include <iterator>
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
                 const std::map<std::string, std::string>& collapse,
                 const std::map<std::string, std::vector<std::string>>& operand_colors) {
  GraphDotOptions options;
  options.operand_colors = operand_colors;
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

// What names operand `value` of a node the same way in A and in B: its producer's counterpart
// (B's node name) and output position, or the input's or constant's name.
std::string operand_key(const Graph& g, const std::string& value,
                        const std::map<std::string, std::string>* counterpart) {
  if (value.empty()) return "_";
  const Node* p = g.producer(value);
  if (!p) return "leaf:" + value;
  size_t out = 0;
  while (p->outputs[out] != value) ++out;
  std::string node = p->name;
  if (counterpart) {
    auto it = counterpart->find(p->name);
    node = it == counterpart->end() ? "only in A:" + p->name : it->second;
  }
  return fmt::format("node:{}#{}", node, out);
}

// Colours for the operands that moved, the same on both sides: red for the first, blue for the
// second, ...
constexpr const char* kMovedColors[] = {"red3", "blue", "darkgreen", "darkorange3", "purple"};

}  // namespace

MovedOperands moved_operands(const Graph& a, const Graph& b, const GraphDiff& d) {
  MovedOperands moved;
  for (const auto& [name_a, name_b] : d.counterpart) {
    auto status = d.a.find(name_a);
    if (status == d.a.end() || status->second != DiffStatus::Rewritten) continue;
    const Node* x = a.find_node(name_a);
    const Node* y = b.find_node(name_b);
    if (!x || !y || x->op != y->op || x->attrs != y->attrs || x->inputs.size() != y->inputs.size())
      continue;
    std::vector<std::string> ka, kb;
    for (const auto& in : x->inputs) ka.push_back(operand_key(a, in, &d.counterpart));
    for (const auto& in : y->inputs) kb.push_back(operand_key(b, in, nullptr));
    std::vector<std::string> sa = ka, sb = kb;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    if (ka == kb || sa != sb) continue;  // not a reordering of the same operands
    std::vector<std::string> ca(ka.size()), cb(kb.size());
    size_t next = 0;
    for (size_t i = 0; i < ka.size(); ++i) {
      if (ka[i] == kb[i]) continue;
      for (size_t j = 0; j < kb.size(); ++j)
        if (kb[j] == ka[i] && ka[j] != kb[j] && cb[j].empty()) {
          ca[i] = cb[j] = kMovedColors[next++ % std::size(kMovedColors)];
          break;
        }
    }
    moved.a[name_a] = std::move(ca);
    moved.b[name_b] = std::move(cb);
  }
  return moved;
}

namespace {

// Every style the picture uses, and only those, in a column: the fills of the statuses present
// with their counts (a rewritten pair counts once), the link between a pair, an operand that
// moved, an unchanged region.
std::string legend(const GraphDiff& d, bool moved, bool collapsed) {
  std::vector<std::pair<std::string, std::string>> entries;  // id, attributes
  for (DiffStatus s : {DiffStatus::Removed, DiffStatus::Added, DiffStatus::Rewritten}) {
    size_t n = d.count(s);
    if (n == 0) continue;
    std::string what =
        s != DiffStatus::Rewritten
            ? fmt::format("{} ({})", diff_status_name(s), n)
            : fmt::format("rewritten ({} pair{}):\\nthe same value computed another way", n,
                          n == 1 ? "" : "s");
    entries.push_back({fmt::format("legend:{}", diff_status_name(s)),
                       fmt::format("label=\"{}\", shape=box, style=filled, fillcolor=\"{}\"", what,
                                   color_of(s))});
  }
  if (entries.empty())
    entries.push_back({"legend:none", "label=\"no node changed\", shape=plaintext"});
  if (d.count(DiffStatus::Rewritten) > 0)
    entries.push_back({"legend:pair",
                       "label=\"- - -  joins a rewritten node\\nto its counterpart\", "
                       "shape=plaintext, fontcolor=\"goldenrod4\""});
  if (moved)
    entries.push_back(
        {"legend:moved",
         fmt::format(
             "label=<<font point-size=\"20\" color=\"{}\">0</font> <font "
             "point-size=\"20\" color=\"{}\">1</font>  an operand that moved:<br/>its "
             "colour follows the value,<br/>its digit is its new position>, shape=plaintext",
             kMovedColors[0], kMovedColors[1])});
  if (collapsed)
    entries.push_back({"legend:unchanged",
                       "label=\"unchanged: nodes the same on both\\nsides, drawn as one box\", "
                       "shape=box, style=dashed"});
  std::string out = "  subgraph cluster_legend {\n    label=\"legend\";\n";
  std::vector<std::string> ids;
  for (const auto& [id, attrs] : entries) {
    out += fmt::format("    \"{}\" [{}];\n", id, attrs);
    ids.push_back(id);
  }
  return out + dot_column(ids) + "  }\n";
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
  MovedOperands moved = moved_operands(a, b, diff);
  return fmt::format(
      // newrank: a rank shared across the two clusters keeps each node inside its cluster.
      "digraph \"diff\" {{\n  rankdir=TB;\n  newrank=true;\n  label=\"{}\";\n  labelloc=t;\n"
      "  node [fontname=\"monospace\", fontsize=10];\n{}{}{}{}{}}}\n",
      dot_escape(title.empty() ? fmt::format("{} vs {}", name_a, second) : title), kDotEdgeDefaults,
      side(a, name_a, "a:", diff.a, collapse_a, moved.a),
      side(b, second, "b:", diff.b, collapse_b, moved.b), pairs(diff, collapse_a, collapse_b),
      legend(diff, !moved.a.empty(), !collapse_a.empty() || !collapse_b.empty()));
}

}  // namespace retort
