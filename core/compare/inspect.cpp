#include "core/compare/inspect.h"

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/egraph/enode.h"
#include "core/io/onnx_io.h"
#include "core/tensor/summary.h"

namespace retort {

namespace {

std::optional<EClassId> class_of_node_output(const EGraph& eg, const Node& node, size_t k,
                                             const std::map<std::string, EClassId>& classes) {
  std::vector<EClassId> children;
  for (const auto& in : node.inputs) {
    auto it = classes.find(in);
    if (it == classes.end()) return std::nullopt;
    children.push_back(it->second);
  }
  try {
    ENode n = make_enode(node.op, node.attrs, children, static_cast<unsigned>(k),
                         static_cast<unsigned>(node.outputs.size()));
    return eg.lookup(n);
  } catch (const Error&) {
    return std::nullopt;  // attributes the registry rejects: the e-graph cannot hold the node
  }
}

RunResult run_side(const InspectSide& side, const std::vector<std::string>& values,
                   const TensorMap& inputs) {
  RunRequest request{.graph = side.graph, .onnx = {}, .inputs = inputs, .outputs = values};
  request.mutations = side.mutations;
  try {
    request.onnx = export_onnx(*side.graph);
  } catch (const Error& e) {
    RunResult r;
    r.status = RunStatus::Error;
    r.message = fmt::format("no ONNX model: {}", e.what());
    return r;
  }
  return side.backend->run(request);
}

}  // namespace

std::map<std::string, EClassId> value_classes(const EGraph& eg, const Graph& g) {
  std::map<std::string, EClassId> classes;
  for (const auto& in : g.inputs)
    if (auto c = eg.lookup(input_enode(in.name))) classes[in.name] = eg.find(*c);
  for (const auto& c : g.constants)
    if (auto id = eg.lookup(const_enode(c.name))) classes[c.name] = eg.find(*id);
  for (const Node& node : g.nodes) {
    if (node.is_opaque()) continue;
    for (size_t k = 0; k < node.outputs.size(); ++k)
      if (auto c = class_of_node_output(eg, node, k, classes))
        classes[node.outputs[k]] = eg.find(*c);
  }
  return classes;
}

std::vector<ValuePair> pair_by_classes(const EGraph& eg, const Graph& a, const Graph& b) {
  std::map<std::string, EClassId> ca = value_classes(eg, a), cb = value_classes(eg, b);
  std::map<EClassId, std::string> value_of_class_b;
  for (const Node& node : b.nodes)
    for (const auto& o : node.outputs)
      if (auto it = cb.find(o); it != cb.end()) value_of_class_b.emplace(it->second, o);
  std::vector<ValuePair> pairs;
  for (const Node& node : a.nodes)
    for (const auto& o : node.outputs) {
      auto it = ca.find(o);
      if (it == ca.end()) continue;
      auto match = value_of_class_b.find(it->second);
      if (match != value_of_class_b.end()) pairs.push_back({o, match->second});
    }
  return pairs;
}

const Node* first_rewritten_node(const Graph& a, const Graph& b,
                                 const std::vector<ValuePair>& pairs) {
  std::map<std::string, std::string> in_b;
  for (const auto& p : pairs) in_b.emplace(p.a, p.b);
  auto paired = [&](const std::string& v) -> std::string {
    if (!a.producer(v)) return b.find_input(v) || b.find_constant(v) ? v : "";
    auto it = in_b.find(v);
    return it == in_b.end() ? "" : it->second;
  };
  for (const Node& n : a.nodes) {
    const Node* m = n.outputs.empty() ? nullptr : b.producer(paired(n.outputs[0]));
    if (!m || m->op != n.op || m->attrs != n.attrs || m->inputs.size() != n.inputs.size())
      return &n;
    for (size_t i = 0; i < n.inputs.size(); ++i)
      if (paired(n.inputs[i]) != m->inputs[i]) return &n;
  }
  return nullptr;
}

std::vector<ValuePair> pair_by_names(const Graph& a, const Graph& b) {
  std::vector<ValuePair> pairs;
  for (const Node& node : a.nodes)
    for (const auto& o : node.outputs)
      if (b.producer(o)) pairs.push_back({o, o});
  return pairs;
}

std::set<std::string> verdict_outputs_a(const Finding& f) {
  std::set<std::string> out;
  for (const OutputDiff& d : f.outputs)
    if (d.verdict == f.verdict) out.insert(d.actual_name);
  return out;
}

std::set<std::string> verdict_outputs_b(const Finding& f) {
  std::set<std::string> out;
  for (const OutputDiff& d : f.outputs)
    if (d.verdict == f.verdict) out.insert(d.expected_name);
  return out;
}

std::set<std::string> values_upstream(const Graph& g, const std::set<std::string>& values) {
  std::set<std::string> seen = values;
  std::vector<std::string> todo(values.begin(), values.end());
  while (!todo.empty()) {
    const Node* n = g.producer(todo.back());
    todo.pop_back();
    if (!n) continue;
    for (const std::string& in : n->inputs)
      if (!in.empty() && seen.insert(in).second) todo.push_back(in);
  }
  return seen;
}

Graph fed_from_reference(const Graph& g,
                         const std::function<bool(const Graph&, const Node&)>& cut_here,
                         TensorMap& inputs) {
  TensorMap values = evaluate(g, inputs, {.keep_intermediates = true});
  Graph cut = g;
  std::erase_if(cut.nodes, [&](const Node& n) {
    if (!cut_here(g, n)) return false;
    for (const std::string& out : n.outputs) {
      if (out.empty()) continue;
      cut.inputs.push_back({out, g.types.at(out)});
      inputs.insert_or_assign(out, values.at(out));
    }
    return true;
  });
  infer_graph(cut);
  return cut;
}

InspectResult run_inspect(const InspectSide& a, const InspectSide& b,
                          const std::vector<ValuePair>& pairs, const TensorMap& inputs,
                          const ToleranceTable& tolerances) {
  InspectResult result;
  try {
    result.undefined =
        find_undefined(*a.graph, evaluate(*a.graph, inputs, {.keep_intermediates = true}));
  } catch (const Error& e) {
    result.failure = fmt::format("the reference failed on {}: {}", a.label, e.what());
    return result;
  }
  std::vector<std::string> values_a, values_b;
  for (const auto& p : pairs) {
    values_a.push_back(p.a);
    values_b.push_back(p.b);
  }
  RunResult ra = run_side(a, values_a, inputs);
  RunResult rb = run_side(b, values_b, inputs);
  for (const auto* side : {&a, &b}) {
    const RunResult& r = side == &a ? ra : rb;
    if (r.status == RunStatus::Ok) continue;
    result.failure = fmt::format("{}: {}: {}", side->label, run_status_name(r.status), r.message);
    return result;
  }
  for (const auto& p : pairs) {
    auto ta = ra.outputs.find(p.a);
    auto tb = rb.outputs.find(p.b);
    if (ta == ra.outputs.end() || tb == rb.outputs.end()) {
      result.failure =
          fmt::format("{} did not return '{}'", ta == ra.outputs.end() ? a.label : b.label,
                      ta == ra.outputs.end() ? p.a : p.b);
      return result;
    }
    ++result.pairs;
    OutputDiff d = diff_tensors(ta->second, tb->second, tolerances);
    if (d.verdict == Verdict::Pass) continue;
    d.actual_name = p.a;
    d.expected_name = p.b;
    const Node* na = a.graph->producer(p.a);
    const Node* nb = b.graph->producer(p.b);
    result.diverged = true;
    result.value_a = p.a;
    result.value_b = p.b;
    // A value no node makes is a graph input passed through to an output (a cut graph's).
    result.node_a = na ? na->name : "";
    result.op_a = na ? na->op : "";
    result.node_b = nb ? nb->name : "";
    result.op_b = nb ? nb->op : "";
    result.diff = std::move(d);
    result.summary_a = summarize_tensor(ta->second);
    result.summary_b = summarize_tensor(tb->second);
    return result;
  }
  return result;
}

}  // namespace retort
