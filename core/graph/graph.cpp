#include "core/graph/graph.h"

#include <algorithm>

#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/graph/graph_dot.h"
#include "core/ops/registry.h"
#include "core/tensor/value_budget.h"

namespace retort {

const TensorType& Graph::type_of(const std::string& value) const {
  auto it = types.find(value);
  if (it == types.end()) fail("unknown value '{}'", value);
  return it->second;
}

const Constant* Graph::find_constant(const std::string& n) const {
  for (const auto& c : constants)
    if (c.name == n) return &c;
  return nullptr;
}

const ValueInfo* Graph::find_input(const std::string& n) const {
  for (const auto& i : inputs)
    if (i.name == n) return &i;
  return nullptr;
}

const Node* Graph::find_node(const std::string& n) const {
  for (const auto& node : nodes)
    if (node.name == n) return &node;
  return nullptr;
}

const Node* Graph::producer(const std::string& value) const {
  for (const auto& node : nodes)
    for (const auto& o : node.outputs)
      if (o == value) return &node;
  return nullptr;
}

bool Graph::defines(const std::string& value) const {
  return find_input(value) || find_constant(value) || producer(value);
}

namespace {

// Checked at inference so the error names the value before anything is allocated for it.
void within_budget(const TensorType& type, std::string_view kind, const std::string& name) {
  try {
    check_value_budget(type.dtype, type.shape);
  } catch (const Error& e) {
    fail("{} '{}': {}", kind, name, e.message());
  }
}

// Orders nodes so that each comes after the producers of its inputs; reports a cycle by naming
// the nodes on it.
std::vector<Node> topological_order(const std::vector<Node>& nodes,
                                    const std::set<std::string>& sources) {
  std::unordered_map<std::string, size_t> producer_of;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& o : nodes[i].outputs) producer_of[o] = i;

  enum class Mark { None, Active, Done };
  std::vector<Mark> mark(nodes.size(), Mark::None);
  std::vector<Node> order;
  order.reserve(nodes.size());
  std::vector<size_t> path;

  // Iterative depth-first search: deep chains must not overflow the stack.
  for (size_t root = 0; root < nodes.size(); ++root) {
    if (mark[root] != Mark::None) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    mark[root] = Mark::Active;
    path.assign(1, root);
    while (!stack.empty()) {
      auto& [n, next_input] = stack.back();
      if (next_input < nodes[n].inputs.size()) {
        const std::string& in = nodes[n].inputs[next_input++];
        if (in.empty() || sources.count(in)) continue;
        auto it = producer_of.find(in);
        if (it == producer_of.end())
          throw Error(fmt::format("input '{}' is not defined", in), {}, nodes[n].name);
        size_t p = it->second;
        if (mark[p] == Mark::Active) {
          std::vector<std::string> cycle;
          bool on = false;
          for (size_t k : path) {
            if (k == p) on = true;
            if (on) cycle.push_back(nodes[k].name);
          }
          cycle.push_back(nodes[p].name);
          fail("the graph has a cycle: {}", fmt::join(cycle, " -> "));
        }
        if (mark[p] == Mark::None) {
          mark[p] = Mark::Active;
          stack.push_back({p, 0});
          path.push_back(p);
        }
      } else {
        mark[n] = Mark::Done;
        order.push_back(nodes[n]);
        stack.pop_back();
        path.pop_back();
      }
    }
  }
  return order;
}

// A name from a model file reaches the terminal in every command that shows the graph (info,
// eval, compare, hirfuzz calls, the panes): one that a terminal would act on (an escape sequence,
// a line break, a bidirectional override) is refused here, where every graph passes, and shown
// escaped by the one printer of names (core/base/terminal_text.h).
void check_printable(const std::string& name, std::string_view what) {
  bool plain = std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
  if (!plain && terminal_name(name) != name)
    fail(
        "{} '{}' holds characters a terminal would act on (shown escaped); names must print as "
        "they are",
        what, terminal_name(name));
}

void check_unique_names(const Graph& g) {
  check_printable(g.name, "the graph name");
  std::set<std::string> seen;
  auto claim = [&](const std::string& name, const std::string& what) {
    if (name.empty()) fail("{} has an empty name", what);
    check_printable(name, what);
    if (!seen.insert(name).second) fail("value '{}' is defined twice", name);
  };
  for (const auto& i : g.inputs) claim(i.name, "an input");
  for (const auto& c : g.constants) claim(c.name, "a constant");
  std::set<std::string> node_names;
  for (const auto& n : g.nodes) {
    check_printable(n.name, "a node name");
    check_printable(n.op, "an op name");
    for (const auto& i : n.inputs) check_printable(i, "an input of a node");
    if (!node_names.insert(n.name).second) fail("node name '{}' is used twice", n.name);
    for (const auto& o : n.outputs) claim(o, fmt::format("an output of node '{}'", n.name));
  }
  for (const auto& o : g.outputs) check_printable(o, "a graph output");
  for (const auto& f : g.functions) check_printable(f.name, "a function name");
}

// A node's input types, each found by `type_of`. Trailing omitted optional inputs are not passed
// at all, so inference can tell "absent" from an f32 scalar.
template <class TypeOf>
std::vector<TensorType> node_input_types(const Node& node, const TypeOf& type_of) {
  std::vector<TensorType> types;
  for (const auto& in : node.inputs) types.push_back(in.empty() ? TensorType{} : type_of(in));
  for (size_t n = node.inputs.size(); n > 0 && node.inputs[n - 1].empty(); --n) types.pop_back();
  return types;
}

// The types infer_graph has found so far, by value name (views of the graph's own names, which
// stay where they are while it runs), handed to Graph::types in one batch at the end.
class InferredTypes {
 public:
  explicit InferredTypes(size_t values) {
    entries_.reserve(values);
    index_.reserve(values);
  }

  // Names are unique (check_unique_names), so each is added once.
  void add(const std::string& name, TensorType type) {
    index_.emplace(name, entries_.size());
    entries_.emplace_back(name, std::move(type));
  }

  const TensorType& type_of(const std::string& value) const {
    auto it = index_.find(value);
    if (it == index_.end()) fail("unknown value '{}'", value);
    return entries_[it->second].second;
  }

  void move_into(ValueTypes& types) {
    types.assign(std::move(entries_));
    entries_.clear();
    index_.clear();
  }

 private:
  std::vector<ValueTypes::value_type> entries_;
  std::unordered_map<std::string_view, size_t> index_;  // name -> its entry
};

void infer_node(InferredTypes& known, Node& node) {
  std::vector<TensorType> in_types = node_input_types(
      node, [&](const std::string& v) -> const TensorType& { return known.type_of(v); });
  std::vector<TensorType> out_types;
  if (node.is_opaque()) {
    out_types = node.opaque->output_types;
    if (out_types.size() != node.outputs.size())
      fail("opaque op '{}' declares {} output types for {} outputs", node.op, out_types.size(),
           node.outputs.size());
  } else {
    const OpRegistry& reg = OpRegistry::instance();
    const OpDef& op = reg.get(node.op);
    int n_in = static_cast<int>(node.inputs.size());
    if (n_in < op.min_inputs || (op.max_inputs >= 0 && n_in > op.max_inputs)) {
      if (op.max_inputs < 0)
        fail("op '{}' takes at least {} inputs, got {}", op.name, op.min_inputs, n_in);
      if (op.min_inputs == op.max_inputs)
        fail("op '{}' takes {} input(s), got {}", op.name, op.min_inputs, n_in);
      fail("op '{}' takes {} to {} inputs, got {}", op.name, op.min_inputs, op.max_inputs, n_in);
    }
    for (int i = 0; i < std::min(n_in, op.min_inputs); ++i)
      if (node.inputs[i].empty()) fail("required input {} of op '{}' is missing", i, op.name);
    if (op.num_outputs >= 0 && static_cast<int>(node.outputs.size()) != op.num_outputs)
      fail("op '{}' has {} output(s), but {} name(s) were given", op.name, op.num_outputs,
           node.outputs.size());
    node.attrs = reg.normalize_attrs(op, node.attrs);
    if (op.complete_attrs) op.complete_attrs(node.attrs, in_types);
    out_types = op.infer(in_types, node.attrs, node.outputs.size());
    if (out_types.size() != node.outputs.size())
      fail("op '{}' produces {} output(s), but {} name(s) were given", op.name, out_types.size(),
           node.outputs.size());
  }
  for (size_t i = 0; i < out_types.size(); ++i) {
    if (out_types[i].shape.size() > kMaxRank)
      fail("output '{}' would have rank {}, above the maximum {}", node.outputs[i],
           out_types[i].shape.size(), kMaxRank);
    within_budget(out_types[i], "output", node.outputs[i]);
    known.add(node.outputs[i], std::move(out_types[i]));
  }
}

// The bytes every value of a run takes together (each is within the budget per value, so
// this sum of at most a few million terms cannot overflow).
uint64_t all_values_bytes(const Graph& g) {
  uint64_t total = 0;
  for (const auto& [name, type] : g.types) total += value_bytes(type.dtype, type.shape).value_or(0);
  return total;
}

}  // namespace

std::vector<TensorType> input_types(const Graph& g, const Node& node) {
  return node_input_types(node,
                          [&](const std::string& v) -> const TensorType& { return g.type_of(v); });
}

void infer_graph(Graph& g) {
  check_unique_names(g);
  g.types.clear();
  size_t values = g.inputs.size() + g.constants.size();
  for (const auto& node : g.nodes) values += node.outputs.size();
  InferredTypes known(values);
  std::set<std::string> sources;
  for (const auto& i : g.inputs) {
    if (i.type.shape.size() > kMaxRank)
      fail("input '{}' has rank {}, above the maximum {}", i.name, i.type.shape.size(), kMaxRank);
    within_budget(i.type, "input", i.name);
    known.add(i.name, i.type);
    sources.insert(i.name);
  }
  for (const auto& c : g.constants) {
    known.add(c.name, c.value.type());
    sources.insert(c.name);
  }
  g.nodes = topological_order(g.nodes, sources);
  for (auto& node : g.nodes) {
    try {
      infer_node(known, node);
    } catch (const Error& e) {
      known.move_into(g.types);  // those found before the failing node stay readable
      throw e.at_node(node_title(node));
    }
  }
  known.move_into(g.types);
  check_total_value_budget(all_values_bytes(g));
  if (g.outputs.empty()) fail("the graph has no output");
  std::set<std::string> seen_outputs;
  for (const auto& o : g.outputs) {
    if (!g.types.count(o)) fail("output '{}' is not defined", o);
    if (!seen_outputs.insert(o).second) fail("output '{}' is listed twice", o);
  }
  check_functions(g);
}

std::string fresh_value_name(const Graph& g, const std::string& stem) {
  std::set<std::string> used;
  for (const auto& i : g.inputs) used.insert(i.name);
  for (const auto& c : g.constants) used.insert(c.name);
  for (const auto& n : g.nodes) {
    used.insert(n.name);
    for (const auto& o : n.outputs) used.insert(o);
  }
  if (!used.count(stem)) return stem;
  for (int i = 1;; ++i) {
    std::string name = fmt::format("{}_{}", stem, i);
    if (!used.count(name)) return name;
  }
}

}  // namespace retort
