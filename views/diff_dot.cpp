#include "views/diff_dot.h"

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
                 const std::map<std::string, DiffStatus>& statuses) {
  GraphDotOptions options;
  options.cluster = name;
  options.id_prefix = prefix;
  for (const auto& [node, status] : statuses)
    if (status != DiffStatus::Same) options.fill[node] = color_of(status);
  return graph_dot(g, options);
}

std::string legend(const GraphDiff& d) {
  std::string out = "  subgraph cluster_legend {\n    label=\"legend\";\n";
  for (DiffStatus s : {DiffStatus::Removed, DiffStatus::Added, DiffStatus::Rewritten})
    out += fmt::format(
        "    \"legend:{}\" [label=\"{} ({})\", shape=box, style=filled, "
        "fillcolor=\"{}\"];\n",
        diff_status_name(s), diff_status_name(s), d.count(s), color_of(s));
  return out + "  }\n";
}

}  // namespace

std::string diff_dot(const Graph& a, const std::string& name_a, const Graph& b,
                     const std::string& name_b, const GraphDiff& diff) {
  std::string second = name_b == name_a ? name_b + " (2)" : name_b;
  return fmt::format(
      "digraph \"diff\" {{\n  rankdir=TB;\n  label=\"{} vs {}\";\n  labelloc=t;\n"
      "  node [fontname=\"monospace\", fontsize=10];\n{}{}{}}}\n",
      dot_escape(name_a), dot_escape(second), side(a, name_a, "a:", diff.a),
      side(b, second, "b:", diff.b), legend(diff));
}

}  // namespace retort
