#include "core/exec/interpreter.h"

#include <set>

#include "core/base/error.h"
#include "core/ops/registry.h"

namespace retort {

namespace {
void check_inputs(const Graph& g, const TensorMap& inputs) {
  for (const auto& in : g.inputs) {
    auto it = inputs.find(in.name);
    if (it == inputs.end()) fail("no value given for input '{}'", in.name);
    if (it->second.type() != in.type)
      fail("input '{}' must be {}, got {}", in.name, in.type.str(), it->second.type().str());
  }
}

// For each value, the index of the last node that reads it, so that dead values can be freed.
std::map<std::string, size_t> last_uses(const Graph& g) {
  std::map<std::string, size_t> last;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& in : g.nodes[i].inputs)
      if (!in.empty()) last[in] = i;
  return last;
}
}  // namespace

TensorMap evaluate(const Graph& g, const TensorMap& inputs, const EvalOptions& options) {
  check_inputs(g, inputs);
  const OpRegistry& reg = OpRegistry::instance();
  TensorMap values;
  for (const auto& in : g.inputs) values[in.name] = inputs.at(in.name);
  for (const auto& c : g.constants) values[c.name] = c.value;
  std::set<std::string> wanted(g.outputs.begin(), g.outputs.end());
  auto last = last_uses(g);

  for (size_t idx = 0; idx < g.nodes.size(); ++idx) {
    const Node& node = g.nodes[idx];
    try {
      if (node.is_opaque())
        fail("op '{}' (domain '{}') is not supported by the reference interpreter", node.op,
             node.opaque->domain);
      const OpDef& op = reg.get(node.op);
      if (!op.kernel) fail("op '{}' has no reference kernel", op.name);
      std::vector<const Tensor*> args;
      for (const auto& in : node.inputs) args.push_back(in.empty() ? nullptr : &values.at(in));
      std::vector<TensorType> out_types;
      for (const auto& o : node.outputs) out_types.push_back(g.type_of(o));
      std::vector<Tensor> outs = op.kernel(args, node.attrs, out_types);
      if (outs.size() != node.outputs.size())
        fail("kernel of '{}' returned {} outputs, expected {}", op.name, outs.size(),
             node.outputs.size());
      for (size_t i = 0; i < outs.size(); ++i) {
        if (outs[i].type() != out_types[i])
          fail("kernel of '{}' produced {} where inference said {}", op.name,
               outs[i].type().str(), out_types[i].str());
        values[node.outputs[i]] = std::move(outs[i]);
      }
    } catch (const Error& e) {
      throw e.at_node(node.name);
    }
    if (!options.keep_intermediates) {
      for (const auto& in : node.inputs) {
        auto it = last.find(in);
        if (it != last.end() && it->second == idx && !wanted.count(in)) values.erase(in);
      }
    }
  }
  if (options.keep_intermediates) return values;
  TensorMap out;
  for (const auto& o : g.outputs) out[o] = values.at(o);
  return out;
}

}  // namespace retort
