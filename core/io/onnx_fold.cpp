#include "core/io/onnx_fold.h"

#include <vector>

#include "core/base/error.h"
#include "core/exec/interpreter.h"
#include "core/ops/registry.h"

namespace retort {

ImportFolder::ImportFolder(const Graph& g, ValueFn value_of, OpaqueTypeFn opaque_type)
    : g_(g), value_of_(std::move(value_of)), opaque_type_(std::move(opaque_type)) {}

const Node* ImportFolder::producer(const std::string& value) {
  for (; indexed_ < g_.nodes.size(); ++indexed_)
    for (const auto& o : g_.nodes[indexed_].outputs)
      if (!o.empty()) producer_[o] = indexed_;
  auto it = producer_.find(value);
  return it == producer_.end() ? nullptr : &g_.nodes[it->second];
}

// Unused optional outputs are still unnamed during import; the subgraph needs names for them.
Node ImportFolder::copy_for_subgraph(const Node& n) const {
  Node copy = n;
  for (size_t i = 0; i < copy.outputs.size(); ++i)
    if (copy.outputs[i].empty()) copy.outputs[i] = fmt::format("{}:unused{}", n.name, i);
  if (copy.is_opaque()) {
    copy.opaque->output_types.clear();
    for (const auto& o : n.outputs) copy.opaque->output_types.push_back(opaque_type_(n, o));
  }
  return copy;
}

// Types come from Retort's own inference over the value's ancestors, stopping at values whose
// type is already known.
TensorType ImportFolder::type_of(const std::string& value) {
  auto known = [&](const std::string& v) -> std::optional<TensorType> {
    if (auto t = types_.find(v); t != types_.end()) return t->second;
    if (const Tensor* t = value_of_(v)) return t->type();
    if (const ValueInfo* in = g_.find_input(v)) return in->type;
    return std::nullopt;
  };
  if (auto t = known(value)) return *t;
  Graph sub;
  std::set<std::string> seen{value}, producers;
  std::vector<std::string> stack{value};
  while (!stack.empty()) {
    std::string v = stack.back();
    stack.pop_back();
    if (auto t = known(v)) {
      sub.inputs.push_back({v, *t});
      continue;
    }
    const Node* p = producer(v);
    if (!p) fail("value '{}' is not defined before it is used", v);
    if (!producers.insert(p->name).second) continue;
    sub.nodes.push_back(copy_for_subgraph(*p));
    for (const auto& in : p->inputs)
      if (!in.empty() && seen.insert(in).second) stack.push_back(in);
  }
  sub.outputs = {value};
  infer_graph(sub);
  types_.insert(sub.types.begin(), sub.types.end());
  return sub.types.at(value);
}

std::optional<Tensor> ImportFolder::fold(const std::string& value) {
  if (const Tensor* t = value_of_(value)) return *t;
  const OpRegistry& registry = OpRegistry::instance();
  Graph sub;
  std::set<std::string> by_value, by_type;  // values needed, and values only typed
  std::set<std::string> producers;
  std::vector<std::string> stack{value};
  by_value.insert(value);
  while (!stack.empty()) {
    std::string v = stack.back();
    stack.pop_back();
    if (const Tensor* t = value_of_(v)) {
      sub.constants.push_back({v, *t, ""});
      continue;
    }
    const Node* p = producer(v);
    if (!p || p->is_opaque()) return std::nullopt;
    if (!producers.insert(p->name).second) continue;
    sub.nodes.push_back(copy_for_subgraph(*p));
    const OpDef* op = registry.find(p->op);
    bool type_only = op && op->has_tag(kTypeOnlyTag);
    for (const auto& in : p->inputs) {
      if (in.empty()) continue;
      if (type_only)
        by_type.insert(in);
      else if (by_value.insert(in).second)
        stack.push_back(in);
    }
  }
  // A value only typed is fed zeros of its type, unless it is at hand or computed anyway.
  TensorMap feeds;
  for (const auto& v : by_type) {
    if (by_value.count(v)) continue;
    if (const Tensor* t = value_of_(v)) {
      sub.constants.push_back({v, *t, ""});
      continue;
    }
    TensorType type = type_of(v);
    sub.inputs.push_back({v, type});
    feeds[v] = Tensor(type);
  }
  sub.outputs = {value};
  infer_graph(sub);
  return evaluate(sub, feeds).at(value);
}

}  // namespace retort
