#include "core/graph/graph_dot.h"

#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/base/dot_text.h"
#include "core/base/words.h"

namespace retort {

std::string dot_input_id(const std::string& name) {
  return "in:" + name;
}
std::string dot_constant_id(const std::string& name) {
  return "const:" + name;
}
std::string dot_node_id(const std::string& name) {
  return "node:" + name;
}
std::string dot_output_id(const std::string& name) {
  return "out:" + name;
}
std::string dot_region_id(const std::string& region) {
  return "region:" + region;
}

std::string operand_call(const Node& n) {
  std::string out = n.op + "(";
  for (size_t k = 0; k < n.inputs.size(); ++k)
    out += (k ? ", " : "") + (n.inputs[k].empty() ? std::string("_") : n.inputs[k]);
  return out + ")";
}

std::string node_title(const Node& n) {
  std::string out;
  for (const auto& o : n.outputs) out += (out.empty() ? "" : ", ") + o;
  return out.empty() ? n.name : out;
}

const Node* node_titled(const Graph& g, const std::string& title) {
  for (const auto& n : g.nodes)
    if (node_title(n) == title) return &n;
  return nullptr;
}

std::string node_ref(const Node& n) {
  return node_ref(node_title(n), n.op);
}

std::string node_ref(const std::string& title, const std::string& op) {
  return fmt::format("node '{}' ({})", title, op);
}

std::string value_ref(const Graph& g, const std::string& value) {
  if (const Node* n = g.producer(value))
    return n->outputs.size() == 1 ? node_ref(*n)
                                  : fmt::format("value '{}' of {}", value, node_ref(*n));
  return fmt::format("{} '{}'", g.find_constant(value) ? "constant" : "input", value);
}

std::string with_node_titles(std::string_view message, const Graph& g) {
  std::set<std::string> values, node_names;
  for (const auto& in : g.inputs) values.insert(in.name);
  for (const auto& c : g.constants) values.insert(c.name);
  for (const auto& n : g.nodes) {
    values.insert(n.outputs.begin(), n.outputs.end());
    node_names.insert(n.name);
  }
  std::map<std::string, std::string> titles;
  for (const auto& n : g.nodes) {
    std::string title = node_title(n);
    if (title != n.name && !values.count(n.name) && !node_names.count(title))
      titles.emplace(n.name, std::move(title));
  }
  return replace_whole_words(message, titles);
}

namespace {

std::string type_text(const Graph& g, const std::string& value) {
  auto it = g.types.find(value);
  return it == g.types.end() ? "" : it->second.str();
}

std::string node_label(const Graph& g, const Node& n, bool show_attrs) {
  std::string label = fmt::format("{}\n{}", node_title(n), operand_call(n));
  if (show_attrs) {
    for (const auto& [key, value] : n.attrs)
      label += fmt::format(" {}={}", key, attr_value_str(value));
  }
  for (const auto& out : n.outputs) {
    std::string type = type_text(g, out);
    if (!type.empty()) label += fmt::format("\n{}: {}", out, type);
  }
  return label;
}

class DotWriter {
 public:
  DotWriter(const Graph& g, const GraphDotOptions& options) : g_(g), options_(options) {}

  std::string write() {
    for (const auto& in : g_.inputs)
      vertex(dot_input_id(in.name), fmt::format("{}\n{}", in.name, in.type.str()), "ellipse", "");
    if (options_.show_constants) {
      for (const auto& c : g_.constants)
        vertex(dot_constant_id(c.name), fmt::format("{}\n{}", c.name, c.value.type().str()), "note",
               "");
    }
    for (const auto& n : g_.nodes) {
      auto fill = options_.fill.find(n.name);
      if (!options_.collapse.count(n.name))
        vertex(dot_node_id(n.name), node_label(g_, n, options_.show_attrs), "box",
               fill == options_.fill.end() ? "" : fill->second);
      // Operand positions on the edges of a node with several inputs: mul(a, s) and mul(s, a)
      // (POLYJUICE Fig. 7) must not draw the same.
      auto colors = options_.operand_colors.find(n.name);
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        std::string color = colors == options_.operand_colors.end() || k >= colors->second.size()
                                ? ""
                                : colors->second[k];
        edge_from_value(n.inputs[k], node_end(n.name),
                        n.inputs.size() > 1 ? std::optional<size_t>(k) : std::nullopt, color);
      }
    }
    for (const auto& out : g_.outputs) {
      auto mark = options_.output_marks.find(out);
      if (mark == options_.output_marks.end())
        vertex(dot_output_id(out), out, "doubleoctagon", "");
      else
        vertex(dot_output_id(out), fmt::format("{}\n{}", out, mark->second.second), "doubleoctagon",
               mark->second.first);
      edge_from_value(out, dot_output_id(out), std::nullopt, "");
    }
    regions();
    calls();
    if (!options_.cluster.empty()) {
      return fmt::format("  subgraph \"cluster_{}\" {{\n    label=\"{}\";\n{}{}  }}\n",
                         dot_escape(options_.cluster), dot_escape(options_.cluster), body_, edges_);
    }
    return fmt::format(
        "digraph \"{}\" {{\n  rankdir=TB;\n  node [fontname=\"monospace\", "
        "fontsize=10];\n{}{}{}}}\n",
        dot_escape(g_.name), kDotEdgeDefaults, body_, edges_);
  }

 private:
  std::string id(const std::string& raw) const { return dot_escape(options_.id_prefix + raw); }

  // The DOT id an edge to or from op node `name` attaches to: its region's box when collapsed.
  std::string node_end(const std::string& name) const {
    auto it = options_.collapse.find(name);
    return it == options_.collapse.end() ? dot_node_id(name) : dot_region_id(it->second);
  }

  // HirFuzz's calls: each call's nodes in a rounded box labelled with the function it calls.
  void calls() {
    for (size_t k = 0; k < g_.calls.size(); ++k) {
      const Call& c = g_.calls[k];
      std::string members;
      for (const auto& n : c.nodes)
        if (!options_.collapse.count(n))
          members += fmt::format("      \"{}\";\n", id(dot_node_id(n)));
      if (members.empty()) continue;
      body_ += fmt::format(
          "    subgraph \"{}\" {{\n      label=\"call {}\";\n      style=rounded;\n{}    }}\n",
          dot_escape(fmt::format("cluster_{}call_{}", options_.id_prefix, k)),
          dot_escape(c.function), members);
    }
  }

  // One dashed box per collapsed region: "7 unchanged nodes" and its ops with counts.
  void regions() {
    std::map<std::string, std::map<std::string, int>> ops;
    std::map<std::string, int> sizes;
    for (const auto& n : g_.nodes)
      if (auto it = options_.collapse.find(n.name); it != options_.collapse.end()) {
        ++ops[it->second][n.op];
        ++sizes[it->second];
      }
    for (const auto& [region, counts] : ops) {
      std::string label = fmt::format("{} ({} nodes)", region, sizes[region]);
      for (const auto& [op, k] : counts)
        label += k > 1 ? fmt::format("\n{} x{}", op, k) : "\n" + op;
      body_ += fmt::format("    \"{}\" [label=\"{}\", shape=box, style=dashed];\n",
                           id(dot_region_id(region)), dot_escape(label));
    }
  }

  void vertex(const std::string& raw_id, const std::string& label, const char* shape,
              const std::string& fill) {
    body_ += fmt::format(
        "    \"{}\" [label=\"{}\", shape={}{}];\n", id(raw_id), dot_escape(label), shape,
        fill.empty() ? "" : fmt::format(", style=filled, fillcolor=\"{}\"", dot_escape(fill)));
  }

  // An edge from the value's source to `to`: labelled with the operand's position when the
  // node has several, in large coloured digits when the operand moved (operand_colors).
  void edge_from_value(const std::string& value, const std::string& to,
                       std::optional<size_t> operand, const std::string& color) {
    if (value.empty()) return;  // an omitted optional input
    std::string from;
    if (const Node* p = g_.producer(value)) {
      from = node_end(p->name);
    } else if (g_.find_input(value)) {
      from = dot_input_id(value);
    } else if (g_.find_constant(value) && options_.show_constants) {
      from = dot_constant_id(value);
    } else {
      return;
    }
    // Inside a region, and a second time between the same two ends of a region, an edge says
    // nothing more.
    bool region_end = from.starts_with("region:") || to.starts_with("region:");
    if (region_end && (from == to || !region_edges_.insert({from, to}).second)) return;
    std::string attrs;
    if (operand && !region_end) attrs = fmt::format("label=\"{}\"", *operand);
    if (!color.empty() && !region_end)
      attrs += fmt::format("{}color=\"{}\", fontcolor=\"{}\", fontsize=20, penwidth=2.5",
                           attrs.empty() ? "" : ", ", dot_escape(color), dot_escape(color));
    edges_ += fmt::format("    \"{}\" -> \"{}\"{};\n", id(from), id(to),
                          attrs.empty() ? "" : " [" + attrs + "]");
  }

  const Graph& g_;
  const GraphDotOptions& options_;
  std::string body_, edges_;
  std::set<std::pair<std::string, std::string>> region_edges_;
};

}  // namespace

std::string graph_dot(const Graph& g, const GraphDotOptions& options) {
  return DotWriter(g, options).write();
}

}  // namespace retort
