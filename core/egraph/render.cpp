#include "core/egraph/render.h"

#include "core/base/dot_text.h"
#include "core/base/error.h"

#include <algorithm>
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
    const ENode* n = sel.find(eg.find(id));
    if (!n) return fmt::format("e{}?", id.value);
    return sexpr(eg, *n, go);
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

// What the legend explains beyond the highlights' colours: only the styles a picture draws.
struct LegendNeeds {
  bool striped = false;  // an e-node chosen by several highlights
  bool stubs = false;    // a class left out, drawn as a dashed "eN"
};

// The legend's entries as DOT statements (`attrs` adds to each, e.g. positions): the highlights'
// colours, striped e-nodes, the dashed e-class box, left-out classes and operand positions.
std::vector<std::string> legend_entries(const std::vector<DotHighlight>& highlights,
                                        const LegendNeeds& needs, bool compact) {
  std::vector<std::string> out;
  for (size_t i = 0; i < highlights.size(); ++i)
    out.push_back(fmt::format("legend_{} [label=\"chosen by {}\", style=filled, fillcolor=\"{}\"",
                              i, dot_escape(highlights[i].label), dot_escape(highlights[i].color)));
  if (needs.striped) {
    std::string colors;
    for (const DotHighlight& h : highlights)
      colors += (colors.empty() ? "" : ":") + dot_escape(h.color);
    out.push_back(fmt::format(
        "legend_striped [label=\"striped: chosen by each\\nvariant whose colour it shows\", "
        "style=striped, fillcolor=\"{}\", fontsize=10",
        colors));
  }
  if (compact)
    out.push_back(
        "legend_class [label=\"e3 : type\\none box per e-class,\\na line per e-node\", "
        "fontsize=10");
  else
    out.push_back(
        "legend_class [label=\"dashed box: an e-class,\\nits e-nodes compute equal values\", "
        "style=dashed, fontsize=10");
  if (needs.stubs)
    out.push_back(
        "legend_stub [label=\"eN: a class not drawn\", shape=ellipse, style=dashed, "
        "fontsize=10");
  out.push_back(
      "legend_edge [label=\"arrows: operand -> user\\n0, 1: operand position\", "
      "shape=plaintext, fontsize=10");
  return out;
}

std::string legend(const std::vector<DotHighlight>& highlights, const LegendNeeds& needs) {
  std::string out = "  subgraph cluster_legend {\n    label=\"legend\";\n    style=solid;\n";
  std::vector<std::string> ids;
  for (const std::string& entry : legend_entries(highlights, needs, false)) {
    out += "    " + entry + "];\n";
    ids.push_back(entry.substr(0, entry.find(' ')));
  }
  return out + dot_column(ids) + "  }\n";
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

namespace {

using Colors = std::map<std::pair<EClassId, ENode>, std::vector<std::string>, HighlightLess>;

// The node that says a picture was cut, and how to draw a part instead.
std::string cut_note(size_t shown, size_t drawable, const std::string& more_attrs = "") {
  return fmt::format(
      "  note [shape=note, label=\"{} of {} e-classes shown: draw a part with\\n"
      "render egraph --around eN --depth D, or --variants\"{}];\n",
      shown, drawable, more_attrs);
}

// The label line of e-node n in a compact class box: its s-expression over class ids, and the
// highlights that chose it.
std::string compact_line(const EGraph& eg, EClassId c, const ENode& n,
                         const std::vector<DotHighlight>& highlights, const Colors& colors) {
  std::string line = enode_str(eg, n);
  auto chosen = colors.find({c, n});
  if (chosen == colors.end()) return line;
  std::string names;
  for (const DotHighlight& h : highlights)
    if (std::find(chosen->second.begin(), chosen->second.end(), h.color) != chosen->second.end())
      names += (names.empty() ? "" : ",") + h.label;
  return line + "  <- " + names;
}

// Where each box of the compact picture goes, computed here rather than by a Graphviz layout
// search (which takes seconds past a few hundred boxes): classes in layers by the longest path
// down to a leaf (a back edge of a cycle is not followed), left to right in id order (a layer
// wider than kRowWidth wraps), each box as wide and tall as its label in the monospace font.
// Points, y upward, leaves in the lowest layer (compact_dot turns them upside down).
struct Placement {
  std::map<EClassId, std::pair<double, double>> at;
  double top = 0;  // above the highest layer
};

constexpr double kRowWidth = 2400;  // points

double label_width(const std::vector<std::string>& lines) {
  size_t chars = 0;
  for (const auto& l : lines) chars = std::max(chars, l.size());
  return 8.5 * static_cast<double>(chars) + 24;
}

double label_height(const std::vector<std::string>& lines) {
  return 17.0 * static_cast<double>(lines.size()) + 12;
}

Placement place(const std::vector<EClassId>& ids,
                const std::map<EClassId, std::vector<EClassId>>& below,
                const std::map<EClassId, std::vector<std::string>>& lines) {
  std::map<EClassId, int> layer;  // -1: being visited
  std::function<int(EClassId)> depth = [&](EClassId c) -> int {
    auto [it, fresh] = layer.emplace(c, -1);
    if (!fresh) return it->second;
    int d = 0;
    for (EClassId child : below.at(c)) {
      int cd = depth(child);
      if (cd >= 0) d = std::max(d, cd + 1);
    }
    return layer[c] = d;
  };
  std::map<int, std::vector<EClassId>> rows;
  for (EClassId c : ids) rows[depth(c)].push_back(c);
  Placement p;
  for (const auto& [d, row] : rows) {
    double x = 0, height = 0;
    for (EClassId c : row) {
      double w = label_width(lines.at(c)), h = label_height(lines.at(c));
      if (x > 0 && x + w > kRowWidth) {  // a wide layer wraps onto more rows
        p.top += height + 30;
        x = height = 0;
      }
      p.at[c] = {x + w / 2, p.top + h / 2};
      x += w + 30;
      height = std::max(height, h);
    }
    p.top += height + 60;
  }
  return p;
}

std::string pos(double x, double y) {
  return fmt::format("pos=\"{:.0f},{:.0f}\"", x, y);
}

std::string compact_dot(const EGraph& eg, const DotOptions& options,
                        const std::vector<EClassId>& ids, const std::set<EClassId>& shown, bool cut,
                        size_t drawable, const Colors& colors) {
  std::map<EClassId, std::vector<std::string>> lines;
  std::map<EClassId, std::vector<EClassId>> below;  // drawn child classes
  std::map<EClassId, std::vector<std::string>> fills;
  std::set<EClassId> stubs;
  std::string edges;
  for (EClassId c : ids) {
    const EClass& cls = eg.eclass(c);
    std::string type = eg.has_type(c) ? eg.type(c).str() : "outputs";
    lines[c].push_back(fmt::format("e{} : {}", c.value, type));
    std::set<EClassId> children;
    for (const ENode& n : cls.nodes) {
      lines[c].push_back(compact_line(eg, c, n, options.highlights, colors));
      if (auto chosen = colors.find({c, n}); chosen != colors.end())
        for (const std::string& color : chosen->second)
          if (std::find(fills[c].begin(), fills[c].end(), color) == fills[c].end())
            fills[c].push_back(color);
      for (EClassId child : n.children) children.insert(eg.find(child));
    }
    below[c];
    for (EClassId child : children) {
      if (shown.count(child)) {
        below[c].push_back(child);
        edges += fmt::format("  c{} -> c{};\n", child.value, c.value);
      } else if (!options.only.empty() && !cut) {
        stubs.insert(child);
        edges += fmt::format("  s{} -> c{} [style=dashed];\n", child.value, c.value);
      }
    }
  }
  Placement p = place(ids, below, lines);
  // Positions are given, so Graphviz only draws (layout=nop2, straight edges): well under a
  // second for the 500 classes a picture may have. The layers are drawn upside down (y = -y),
  // operands above their users, so that arrows run down in dataflow direction.
  std::string out =
      "digraph egraph {\n  layout=nop2; splines=false;\n"
      "  node [shape=box, fontname=\"monospace\"];\n";
  bool striped = false;
  for (EClassId c : ids) {
    std::string label;
    for (const std::string& l : lines[c]) label += dot_escape(l) + "\\l";
    auto [x, y] = p.at[c];
    out += fmt::format("  c{} [label=\"{}\", {}{}];\n", c.value, label, pos(x, -y),
                       fill_style(fills[c]));
    striped = striped || fills[c].size() > 1;
  }
  double x = 0;
  for (EClassId s : stubs) {  // a row above the first layer
    out += fmt::format("  s{0} [shape=ellipse, style=dashed, label=\"e{0}\", {1}];\n", s.value,
                       pos(x + 30, 60));
    x += 90;
  }
  x = 0;
  for (const std::string& entry :  // the legend, a row on top
       legend_entries(options.highlights, {.striped = striped, .stubs = !stubs.empty()}, true)) {
    out += fmt::format("  {}, {}];\n", entry, pos(x + 90, 140));
    x += 220;
  }
  out += edges;
  if (cut) out += cut_note(options.max_classes, drawable, ", " + pos(x + 200, 140));
  return out + "}\n";
}

}  // namespace

std::string egraph_dot(const EGraph& eg, const DotOptions& options, std::string* note) {
  std::vector<EClassId> ids = options.only.empty()
                                  ? eg.class_ids()
                                  : std::vector<EClassId>(options.only.begin(), options.only.end());
  size_t drawable = ids.size();
  bool cut = ids.size() > options.max_classes;
  if (cut) ids.resize(options.max_classes);
  std::set<EClassId> shown(ids.begin(), ids.end());
  auto colors = chosen_colors(eg, options.highlights);
  size_t enodes = 0;
  for (EClassId c : ids) enodes += eg.eclass(c).nodes.size();
  bool compact = enodes > options.max_detailed_enodes;
  if (note) {
    note->clear();
    if (compact)
      *note = fmt::format(
          "{} e-nodes: drawn compact, one box per e-class listing its e-nodes (over {} e-nodes "
          "the detailed picture takes Graphviz seconds; --around eN or --variants draw a part)",
          enodes, options.max_detailed_enodes);
    if (cut)
      *note += fmt::format("{}{} of {} e-classes shown", note->empty() ? "" : "; ",
                           options.max_classes, drawable);
  }
  if (compact) return compact_dot(eg, options, ids, shown, cut, drawable, colors);

  std::set<EClassId> stubs;  // children of drawn classes that are left out of a focused picture

  std::string out =
      "digraph egraph {\n  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n" +
      std::string(kDotEdgeDefaults);
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
      // Arrows run in dataflow direction, from each operand's class to the e-node that reads
      // it, as in the graph pictures.
      for (size_t k = 0; k < n.children.size(); ++k) {
        EClassId child = eg.find(n.children[k]);
        std::string label = n.children.size() > 1 ? fmt::format(", label=\"{}\"", k) : "";
        if (!shown.count(child)) {
          if (options.only.empty() || cut) continue;
          stubs.insert(child);
          edges +=
              fmt::format("  s{} -> n{}_{} [style=dashed{}];\n", child.value, c.value, i, label);
          continue;
        }
        std::string tail = child == c ? "" : fmt::format("ltail=cluster_e{}", child.value);
        if (tail.empty() && !label.empty()) label.erase(0, 2);
        edges += fmt::format("  n{}_0 -> n{}_{} [{}{}];\n", child.value, c.value, i, tail, label);
      }
    }
    out += "  }\n";
  }
  for (EClassId s : stubs)
    out += fmt::format("  s{0} [shape=ellipse, style=dashed, label=\"e{0}\"];\n", s.value);
  bool striped = false;
  for (const auto& [node, list] : colors) striped = striped || list.size() > 1;
  out += legend(options.highlights, {.striped = striped, .stubs = !stubs.empty()});
  out += edges;
  if (cut) out += cut_note(options.max_classes, drawable);
  return out + "}\n";
}

}  // namespace retort
