#include "core/exec/inputs.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/rng.h"
#include "core/ops/registry.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

struct Requirement {
  InputDomain domain;
  std::string op;
};

// Whether every value of domain `inner` also lies in domain `outer` (set inclusion).
bool domain_within(const InputDomain& inner, const InputDomain& outer) {
  using D = ValueDomain;
  if (inner == outer || outer.kind == D::Any) return true;
  switch (inner.kind) {
    case D::Positive:
      return outer.kind == D::NonNegative || outer.kind == D::NonZero;
    case D::AtLeastOne:
      return outer.kind == D::Positive || outer.kind == D::NonNegative || outer.kind == D::NonZero;
    case D::Probability:
      return outer.kind == D::NonNegative || outer.kind == D::UnitClosed;
    case D::AxisIndex:  // the indices of a shorter axis are indices of a longer one
      return outer.kind == D::AxisIndex && inner.axis_size <= outer.axis_size;
    default:
      return false;
  }
}

// The domains that the ops reading `input` directly need, in node order, one per op and domain.
std::vector<Requirement> requirements_of(const Graph& g, const std::string& input) {
  const OpRegistry& reg = OpRegistry::instance();
  std::vector<Requirement> reqs;
  for (const Node& node : g.nodes) {
    if (node.is_opaque()) continue;
    const OpDef* op = reg.find(node.op);
    if (!op) continue;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i] != input) continue;
      if (op->domain_of_input(i) == ValueDomain::Any) continue;
      InputDomain d = op->domain_of_input(i, input_types(g, node), node.attrs);
      bool seen = false;
      for (const auto& r : reqs) seen |= r.domain == d && r.op == op->name;
      if (!seen) reqs.push_back({d, op->name});
    }
  }
  return reqs;
}

std::string describe(const InputDomain& d) {
  std::string name = d.str();
  if (name.starts_with('[')) return fmt::format("values in {}", name);
  if (name.starts_with('>') || name.starts_with('<')) return fmt::format("values {}", name);
  return fmt::format("{} values", name);
}

std::string ops_needing(const std::vector<Requirement>& reqs, const InputDomain& d) {
  std::vector<std::string> ops;
  for (const auto& r : reqs)
    if (domain_within(d, r.domain) && std::find(ops.begin(), ops.end(), r.op) == ops.end())
      ops.push_back(r.op);
  return fmt::format("{} {}", fmt::join(ops, ", "), ops.size() == 1 ? "needs them" : "need them");
}

// Picks the narrowest required domain that satisfies all the others; when none does (positive
// and [-1, 1], say), the first one wins and the note says which needs are not guaranteed.
InputDomain choose_domain(const std::string& input, const std::vector<Requirement>& reqs,
                          std::vector<std::string>* notes) {
  for (const auto& candidate : reqs) {
    bool covers_all = true;
    for (const auto& r : reqs) covers_all &= domain_within(candidate.domain, r.domain);
    if (!covers_all) continue;
    if (notes)
      notes->push_back(fmt::format("{}: {} ({})", input, describe(candidate.domain),
                                   ops_needing(reqs, candidate.domain)));
    return candidate.domain;
  }
  InputDomain chosen = reqs.front().domain;
  if (notes) {
    std::vector<std::string> unmet;
    for (const auto& r : reqs)
      if (!domain_within(chosen, r.domain))
        unmet.push_back(fmt::format("{} for {}", describe(r.domain), r.op));
    notes->push_back(fmt::format("{}: {} ({}); not guaranteed: {}", input, describe(chosen),
                                 ops_needing(reqs, chosen), fmt::join(unmet, ", ")));
  }
  return chosen;
}

}  // namespace

TensorMap generate_inputs(const Graph& g, uint64_t seed, std::vector<std::string>* notes) {
  TensorMap inputs;
  for (const ValueInfo& in : g.inputs) {
    InputDomain domain;
    std::vector<Requirement> reqs = requirements_of(g, in.name);
    if (!reqs.empty() && in.type.dtype != DType::boolean)
      domain = choose_domain(in.name, reqs, notes);
    Rng rng(mix_seed(seed, stable_hash(in.name)));
    inputs[in.name] = random_tensor(in.type, rng, domain);
  }
  return inputs;
}

}  // namespace retort
