#include "core/egraph/value_classes.h"

#include "core/base/error.h"

namespace retort {

ValueClasses value_classes(const EGraph& eg, const Graph& g) {
  ValueClasses classes;
  auto known = [&](const ENode& n, const std::string& value) {
    if (auto id = eg.lookup(n)) classes[value] = id->value;
  };
  for (const auto& in : g.inputs) known(input_enode(in.name), in.name);
  for (const auto& c : g.constants) known(const_enode(c.name), c.name);
  for (const Node& n : g.nodes) {  // topologically sorted: inputs are classified first
    if (n.is_opaque()) continue;
    std::vector<EClassId> children;
    bool complete = true;
    for (const auto& in : n.inputs) {
      auto it = classes.find(in);
      if (in.empty() || it == classes.end()) {
        complete = false;
        break;
      }
      children.push_back(EClassId(it->second));
    }
    if (!complete) continue;
    for (size_t out = 0; out < n.outputs.size(); ++out) {
      try {
        known(make_enode(n.op, n.attrs, children, static_cast<unsigned>(out),
                         static_cast<unsigned>(n.outputs.size())),
              n.outputs[out]);
      } catch (const Error&) {
        // Attributes the registry rejects: no e-node could hold this node, so it has no class.
      }
    }
  }
  return classes;
}

}  // namespace retort
