#include "core/compare/undefined_check.h"

#include <fmt/format.h>

#include "core/ops/registry.h"
#include "core/ops/value_domain.h"

namespace retort {

std::string UndefinedUse::str() const {
  return fmt::format("node '{}' ({}) input {} '{}' needs {} values: [{}] = {:.7g}", node, op,
                     input_index, value, domain.str(), element, element_value);
}

std::optional<UndefinedUse> find_undefined(const Graph& g, const TensorMap& values) {
  const OpRegistry& reg = OpRegistry::instance();
  for (const Node& node : g.nodes) {
    if (node.is_opaque()) continue;
    const OpDef* op = reg.find(node.op);
    if (!op) continue;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (op->domain_of_input(i) == ValueDomain::Any || node.inputs[i].empty()) continue;
      auto it = values.find(node.inputs[i]);
      if (it == values.end()) continue;
      InputDomain domain = op->domain_of_input(i, input_types(g, node), node.attrs);
      const Tensor& t = it->second;
      if (t.dtype() == DType::boolean) continue;
      for (int64_t k = 0; k < t.numel(); ++k) {
        double v = t.get(k);
        if (in_domain(v, domain)) continue;
        return UndefinedUse{.node = node.name,
                            .op = node.op,
                            .value = node.inputs[i],
                            .input_index = i,
                            .domain = domain,
                            .element = k,
                            .element_value = v};
      }
    }
  }
  return std::nullopt;
}

}  // namespace retort
