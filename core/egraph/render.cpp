#include "core/egraph/render.h"

#include "core/base/dot_text.h"
#include "core/base/error.h"

#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

namespace retort {

namespace {

struct HighlightLess {
  bool operator()(const std::pair<EClassId, ENode>& a, const std::pair<EClassId, ENode>& b) const {
    if (a.first != b.first) return a.first < b.first;
    return enode_less(a.second, b.second);
  }
};

// The op word and the attributes of a non-leaf e-node, as the s-expression shows them.
std::string head_of(const EGraph& eg, const ENode& n) {
  if (n.op == special_ops::kOpaque) return "opaque:" + eg.opaque_op(n).op_type;
  return op_name(n.op);
}

std::string attrs_of_node(const EGraph& eg, const ENode& n) {
  if (n.op != special_ops::kOpaque) return attrs_str(n.attrs);
  std::string out;
  for (const auto& [name, value] : eg.opaque_op(n).attrs) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{}={}", name, attr_value_str(value));
  }
  return out;
}

// Renders n with each child given by `child` (which may return "..." when out of budget).
std::string sexpr(const EGraph& eg, const ENode& n,
                  const std::function<std::string(EClassId)>& child) {
  if (is_leaf_op(n.op)) return leaf_name(n);
  std::string out = "(" + head_of(eg, n);
  for (EClassId c : n.children) out += " " + child(c);
  std::string attrs = attrs_of_node(eg, n);
  if (!attrs.empty()) out += " " + attrs;
  if (n.n_out > 1) out += fmt::format(" #{}/{}", n.out, n.n_out);
  return out + ")";
}

}  // namespace

std::string enode_str(const EGraph& eg, const ENode& node) {
  return sexpr(eg, node, [](EClassId c) { return fmt::format("e{}", c.value); });
}

std::string term_str(const EGraph& eg, EClassId term, size_t max_nodes) {
  size_t budget = max_nodes;
  std::function<std::string(EClassId)> go = [&](EClassId id) -> std::string {
    if (budget == 0) return "...";
    --budget;
    return sexpr(eg, eg.term(id), go);
  };
  return go(term);
}

std::string selection_str(const EGraph& eg, const Selection& sel, EClassId cls, size_t max_nodes) {
  size_t budget = max_nodes;
  std::function<std::string(EClassId)> go = [&](EClassId id) -> std::string {
    if (budget == 0) return "...";
    --budget;
    auto it = sel.chosen.find(eg.find(id));
    if (it == sel.chosen.end()) return fmt::format("e{}?", id.value);
    return sexpr(eg, it->second, go);
  };
  return go(cls);
}

namespace {

// Per highlighted e-node (canonical class, canonical node): the colours of the highlights that
// chose it, in the order the highlights were given.
std::map<std::pair<EClassId, ENode>, std::vector<std::string>, HighlightLess> chosen_colors(
    const EGraph& eg, const std::vector<DotHighlight>& highlights) {
  std::map<std::pair<EClassId, ENode>, std::vector<std::string>, HighlightLess> colors;
  for (const DotHighlight& h : highlights) {
    if (!h.selection) continue;
    for (const auto& [cls, node] : h.selection->chosen) {
      auto& list = colors[{eg.find(cls), eg.canonicalize(node)}];
      if (list.empty() || list.back() != h.color) list.push_back(h.color);
    }
  }
  return colors;
}

std::string fill_style(const std::vector<std::string>& colors) {
  if (colors.empty()) return "";
  std::string list;
  for (const auto& c : colors) list += (list.empty() ? "" : ":") + dot_escape(c);
  return fmt::format(", style=\"{}\", fillcolor=\"{}\"", colors.size() > 1 ? "striped" : "filled",
                     list);
}

std::string legend(const std::vector<DotHighlight>& highlights) {
  std::string out = "  subgraph cluster_legend {\n    label=\"legend\";\n    style=solid;\n";
  for (size_t i = 0; i < highlights.size(); ++i)
    out += fmt::format("    legend_{} [label=\"{}\", style=filled, fillcolor=\"{}\"];\n", i,
                       dot_escape(highlights[i].label), dot_escape(highlights[i].color));
  return out + "  }\n";
}

}  // namespace

std::set<EClassId> classes_around(const EGraph& eg, EClassId center, size_t depth) {
  if (center.value >= eg.term_count())
    fail("e{} is not an e-class of the e-graph (its ids run from e0 to e{})", center.value,
         eg.term_count() == 0 ? 0 : eg.term_count() - 1);
  std::vector<EClassId> all = eg.class_ids();
  center = eg.find(center);
  std::map<EClassId, std::set<EClassId>> next;  // each way: operands and users
  for (EClassId c : all)
    for (const ENode& n : eg.eclass(c).nodes)
      for (EClassId child : n.children) {
        next[c].insert(eg.find(child));
        next[eg.find(child)].insert(c);
      }
  std::set<EClassId> seen{center};
  std::vector<EClassId> frontier{center};
  for (size_t d = 0; d < depth && !frontier.empty(); ++d) {
    std::vector<EClassId> after;
    for (EClassId c : frontier)
      for (EClassId n : next[c])
        if (seen.insert(n).second) after.push_back(n);
    frontier = std::move(after);
  }
  return seen;
}

std::set<EClassId> classes_chosen(const EGraph& eg, const std::vector<DotHighlight>& highlights) {
  std::set<EClassId> out;
  for (const DotHighlight& h : highlights)
    if (h.selection)
      for (const auto& [cls, node] : h.selection->chosen) out.insert(eg.find(cls));
  return out;
}

std::string egraph_dot(const EGraph& eg, const DotOptions& options) {
  std::vector<EClassId> ids = options.only.empty()
                                  ? eg.class_ids()
                                  : std::vector<EClassId>(options.only.begin(), options.only.end());
  size_t drawable = ids.size();
  bool cut = ids.size() > options.max_classes;
  if (cut) ids.resize(options.max_classes);
  std::set<EClassId> shown(ids.begin(), ids.end());
  std::set<EClassId> stubs;  // children of drawn classes that are left out of a focused picture
  auto colors = chosen_colors(eg, options.highlights);

  std::string out =
      "digraph egraph {\n  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n";
  std::string edges;
  for (EClassId c : ids) {
    const EClass& cls = eg.eclass(c);
    std::string type = eg.has_type(c) ? eg.type(c).str() : "outputs";
    out += fmt::format("  subgraph cluster_e{} {{\n    style=dashed;\n    label=\"e{} : {}\";\n",
                       c.value, c.value, dot_escape(type));
    for (size_t i = 0; i < cls.nodes.size(); ++i) {
      const ENode& n = cls.nodes[i];
      std::string label = is_leaf_op(n.op) ? leaf_name(n) : head_of(eg, n);
      std::string attrs = is_leaf_op(n.op) ? "" : attrs_of_node(eg, n);
      if (!attrs.empty()) label += "\\n" + dot_escape(attrs);
      if (n.n_out > 1) label += fmt::format(" #{}/{}", n.out, n.n_out);
      auto chosen = colors.find({c, n});
      out += fmt::format("    n{}_{} [label=\"{}\"{}];\n", c.value, i,
                         is_leaf_op(n.op) ? dot_escape(label) : label,
                         chosen == colors.end() ? "" : fill_style(chosen->second));
      for (size_t k = 0; k < n.children.size(); ++k) {
        EClassId child = eg.find(n.children[k]);
        std::string label = n.children.size() > 1 ? fmt::format(", label=\"{}\"", k) : "";
        if (!shown.count(child)) {
          if (options.only.empty() || cut) continue;
          stubs.insert(child);
          edges +=
              fmt::format("  n{}_{} -> s{} [style=dashed{}];\n", c.value, i, child.value, label);
          continue;
        }
        std::string head = child == c ? "" : fmt::format("lhead=cluster_e{}", child.value);
        if (head.empty() && !label.empty()) label.erase(0, 2);
        edges += fmt::format("  n{}_{} -> n{}_0 [{}{}];\n", c.value, i, child.value, head, label);
      }
    }
    out += "  }\n";
  }
  for (EClassId s : stubs)
    out += fmt::format("  s{0} [shape=ellipse, style=dashed, label=\"e{0}\"];\n", s.value);
  if (!options.highlights.empty()) out += legend(options.highlights);
  out += edges;
  if (cut)
    out += fmt::format(
        "  note [shape=note, label=\"{} of {} e-classes shown: draw a part with\\n"
        "render egraph --around eN --depth D, or --variants\"];\n",
        options.max_classes, drawable);
  return out + "}\n";
}

}  // namespace retort
