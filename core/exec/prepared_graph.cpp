#include "core/exec/prepared_graph.h"

#include <optional>
#include <set>
#include <unordered_map>

#include "core/base/error.h"
#include "core/graph/graph_dot.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

// The op a node runs, or the Error that running it raises (raised in order at run time, after
// the inputs are checked, as a plain run of the nodes would).
const OpDef* kernel_op(const Node& node) {
  if (node.is_opaque()) return nullptr;
  const OpDef* op = OpRegistry::instance().find(node.op);
  return op && op->kernel ? op : nullptr;
}

[[noreturn]] void no_kernel(const Node& node) {
  if (node.is_opaque())
    fail("op '{}' (domain '{}') is not supported by the reference interpreter", node.op,
         node.opaque->domain);
  const OpDef& op = OpRegistry::instance().get(node.op);
  fail("op '{}' has no reference kernel", op.name);
}

}  // namespace

PreparedGraph::PreparedGraph(const Graph& g) : g_(g) {
  std::unordered_map<std::string, size_t> slot;
  auto add_slot = [&](const std::string& name, const Tensor* constant) {
    auto [it, fresh] = slot.emplace(name, names_.size());
    if (fresh) {
      names_.push_back(name);
      constants_.push_back(constant);
    } else {
      constants_[it->second] = constant;
    }
    return it->second;
  };
  for (const auto& in : g.inputs) input_slots_.push_back(add_slot(in.name, nullptr));
  for (const auto& c : g.constants) add_slot(c.name, &c.value);

  std::vector<size_t> last_use;
  for (const Node& node : g.nodes) {
    Step step{&node, {}, {}, {}, {}, {}};
    for (const auto& in : node.inputs) {
      auto it = in.empty() ? slot.end() : slot.find(in);
      step.args.push_back(it == slot.end() ? kNone : it->second);
    }
    for (const auto& o : node.outputs) {
      step.outs.push_back(add_slot(o, nullptr));
      step.out_types.push_back(g.type_of(o));
    }
    steps_.push_back(std::move(step));
  }
  for (const auto& o : g.outputs) output_slots_.push_back(slot.at(o));

  // Dead values are freed after their last reader, unless they are graph outputs.
  std::set<size_t> wanted(output_slots_.begin(), output_slots_.end());
  std::vector<size_t> last(names_.size(), kNone);
  for (size_t i = 0; i < steps_.size(); ++i)
    for (size_t a : steps_[i].args)
      if (a != kNone) last[a] = i;
  for (size_t s = 0; s < last.size(); ++s)
    if (last[s] != kNone && !wanted.count(s) && !constants_[s]) steps_[last[s]].frees.push_back(s);

  for (Step& step : steps_) {
    const OpDef* op = kernel_op(*step.node);
    const PrepareFn* prepare = op ? find_prepare(op->name) : nullptr;
    if (!prepare) continue;
    std::vector<const Tensor*> constant;
    for (size_t a : step.args) constant.push_back(a == kNone ? nullptr : constants_[a]);
    try {
      step.prepared =
          (*prepare)(constant, input_types(g, *step.node), step.node->attrs, step.out_types);
    } catch (const Error&) {
      // The plain kernel raises the same error when the node runs, in the order of a run.
    }
  }
}

TensorMap PreparedGraph::run(const TensorMap& inputs, const EvalOptions& options) const {
  std::vector<const Tensor*> value(constants_);
  for (size_t i = 0; i < g_.inputs.size(); ++i) {
    const ValueInfo& in = g_.inputs[i];
    auto it = inputs.find(in.name);
    if (it == inputs.end()) fail("no value given for input '{}'", in.name);
    if (it->second.type() != in.type)
      fail("input '{}' must be {}, got {}", in.name, in.type.str(), it->second.type().str());
    value[input_slots_[i]] = &it->second;
  }
  std::vector<std::optional<Tensor>> made(names_.size());
  std::vector<const Tensor*> args;
  for (const Step& step : steps_) {
    const Node& node = *step.node;
    try {
      const OpDef* op = kernel_op(node);
      if (!op) no_kernel(node);
      args.clear();
      for (size_t a : step.args) {
        if (a != kNone && !value[a]) fail("value '{}' is not defined", names_[a]);
        args.push_back(a == kNone ? nullptr : value[a]);
      }
      std::vector<Tensor> outs =
          step.prepared ? step.prepared(args) : op->kernel(args, node.attrs, step.out_types);
      if (options.adjust) options.adjust(node, args, outs);
      if (outs.size() != node.outputs.size())
        fail("kernel of '{}' returned {} outputs, expected {}", op->name, outs.size(),
             node.outputs.size());
      for (size_t i = 0; i < outs.size(); ++i) {
        if (outs[i].type() != step.out_types[i])
          fail("kernel of '{}' produced {} where inference said {}", op->name, outs[i].type().str(),
               step.out_types[i].str());
        made[step.outs[i]] = std::move(outs[i]);
        value[step.outs[i]] = &*made[step.outs[i]];
      }
    } catch (const Error& e) {
      throw e.at_node(node_title(node));
    }
    if (!options.keep_intermediates)
      for (size_t s : step.frees) {
        made[s].reset();
        value[s] = nullptr;
      }
  }
  TensorMap out;
  if (options.keep_intermediates) {
    for (size_t s = 0; s < names_.size(); ++s)
      if (value[s]) out.emplace(names_[s], made[s] ? std::move(*made[s]) : *value[s]);
    return out;
  }
  for (size_t s : output_slots_) out.emplace(names_[s], made[s] ? *made[s] : *value[s]);
  return out;
}

}  // namespace retort
