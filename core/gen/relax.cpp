#include "core/gen/relax.h"

#include <fmt/format.h>

#include "core/base/dtype.h"
#include "core/graph/graph_dot.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

bool retype_input(Graph& g, Rng& rng, std::vector<std::string>& broken) {
  if (g.inputs.empty()) return false;
  ValueInfo& in = g.inputs[rng.below(g.inputs.size())];
  DType was = in.type.dtype;
  DType now = was;
  while (now == was) now = pick_from(rng, kDefaultDrawnDTypes);
  in.type.dtype = now;
  g.types[in.name] = in.type;
  broken.push_back(fmt::format("input '{}' declared {} (its readers expect {})", in.name,
                               dtype_name(now), dtype_name(was)));
  return true;
}

bool reshape_input(Graph& g, Rng& rng, std::vector<std::string>& broken) {
  if (g.inputs.empty()) return false;
  ValueInfo& in = g.inputs[rng.below(g.inputs.size())];
  TensorType was = in.type;
  Shape shape;
  do {
    shape.assign(static_cast<size_t>(rng.uniform_int(0, 4)), 0);
    for (auto& d : shape) d = rng.uniform_int(1, 4);
  } while (shape == was.shape);
  in.type.shape = shape;
  g.types[in.name] = in.type;
  broken.push_back(fmt::format("input '{}' declared {} (its readers expect {})", in.name,
                               in.type.str(), was.str()));
  return true;
}

// A node input now reads a value defined before the node whose type differs.
bool rewire(Graph& g, Rng& rng, std::vector<std::string>& broken) {
  if (g.nodes.empty()) return false;
  size_t at = rng.below(g.nodes.size());
  Node& n = g.nodes[at];
  if (n.inputs.empty() || n.is_opaque()) return false;
  size_t slot = rng.below(n.inputs.size());
  if (n.inputs[slot].empty()) return false;
  const TensorType& was = g.type_of(n.inputs[slot]);
  std::vector<std::string> earlier;
  auto consider = [&](const std::string& v) {
    if (!(g.type_of(v) == was)) earlier.push_back(v);
  };
  for (const auto& i : g.inputs) consider(i.name);
  for (const auto& c : g.constants) consider(c.name);
  for (size_t k = 0; k < at; ++k)
    for (const auto& o : g.nodes[k].outputs) consider(o);
  if (earlier.empty()) return false;
  const std::string& now = pick_from(rng, earlier);
  broken.push_back(fmt::format("{} input {} reads '{}' ({}) instead of {}", node_ref(n), slot, now,
                               g.type_of(now).str(), was.str()));
  n.inputs[slot] = now;
  return true;
}

// An integer (or integer list) attribute set to an arbitrary small value.
bool scramble_attribute(Graph& g, Rng& rng, std::vector<std::string>& broken) {
  if (g.nodes.empty()) return false;
  Node& n = g.nodes[rng.below(g.nodes.size())];
  const OpDef* op = n.is_opaque() ? nullptr : OpRegistry::instance().find(n.op);
  if (!op) return false;
  std::vector<const AttrSpec*> ints;
  for (const AttrSpec& a : op->attrs)
    if (a.kind == AttrKind::Int || a.kind == AttrKind::Ints) ints.push_back(&a);
  if (ints.empty()) return false;
  const AttrSpec& a = *pick_from(rng, ints);
  AttrValue value;
  if (a.kind == AttrKind::Int) {
    value = rng.uniform_int(-3, 8);
  } else {
    std::vector<int64_t> list(static_cast<size_t>(rng.uniform_int(0, 4)));
    for (auto& v : list) v = rng.uniform_int(-3, 8);
    value = list;
  }
  n.attrs[a.name] = value;
  broken.push_back(fmt::format("{} attribute {} = {}", node_ref(n), a.name, attr_value_str(value)));
  return true;
}

}  // namespace

RelaxedGraph relax_constraints(const Graph& g, Rng& rng, int violations) {
  using Breaker = bool (*)(Graph&, Rng&, std::vector<std::string>&);
  static constexpr Breaker kBreakers[] = {retype_input, reshape_input, rewire, scramble_attribute};
  RelaxedGraph out{g, {}};
  // A breaker can find nothing to break in a graph (no attribute, one type): try others.
  for (int tries = 0; static_cast<int>(out.broken.size()) < violations && tries < 8 * violations;
       ++tries)
    pick_from(rng, kBreakers)(out.graph, rng, out.broken);
  out.graph.name = g.name + "_relaxed";
  return out;
}

}  // namespace retort
