#include "core/campaign/trigger.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/exec/inputs.h"
#include "core/gen/weave.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

int64_t nodes_of(const Graph& g, const std::string& op) {
  return std::count_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return n.op == op; });
}

int64_t count_of(const std::map<std::string, int64_t>& ops, const std::string& op_type) {
  auto it = ops.find(op_type);
  return it == ops.end() ? 0 : it->second;
}

void count(TriggerTally& t, const TriggerCheck& c) {
  if (c.state == Trigger::Fired) ++t.fired;
  if (c.state == Trigger::NotFired) ++t.not_fired;
  if (c.state != Trigger::Unknown) return;
  if (t.unknown++ == 0) t.first_unknown = c.message;
}

// The salt of a trigger case's weaving rng, apart from the generator's use of the case seed.
constexpr uint64_t kWeaveSalt = 5;

}  // namespace

double TriggerTally::rate() const {
  return known() ? 100.0 * static_cast<double>(fired) / static_cast<double>(known()) : 0.0;
}

TriggerRates trigger_rates(Backend& backend, const std::vector<const OptPattern*>& patterns,
                           const TriggerRateOptions& options) {
  TriggerRates rates;
  for (size_t i = 0; i < options.cases && !patterns.empty(); ++i) {
    if (options.cancel && options.cancel->load()) break;
    uint64_t seed = mix_seed(options.seed, i);
    const OptPattern& pattern = *patterns[i % patterns.size()];
    TriggerCheck check;
    try {
      Graph base = generate_graph(options.gen, seed);
      Rng rng(mix_seed(seed, kWeaveSalt));
      Graph woven = weave_pattern(base, pattern, rng);
      check = check_trigger(backend, base, woven, pattern, seed);
    } catch (const Error& e) {
      check = {Trigger::Unknown, e.what()};
    }
    count(rates.by_pattern[pattern.name], check);
    count(rates.total, check);
    rates.cases = i + 1;
    if (options.progress) options.progress(rates.cases);
  }
  return rates;
}

TriggerCheck check_trigger(Backend& backend, const Graph& seed, const Graph& woven,
                           const OptPattern& pattern, uint64_t input_seed) {
  TensorMap inputs = generate_inputs(seed, input_seed, nullptr);
  RunResult ran[2];
  const Graph* graphs[2] = {&seed, &woven};
  for (int k = 0; k < 2; ++k) {
    RunRequest request;
    request.graph = graphs[k];
    request.inputs = inputs;
    request.optimized_ops = true;
    ran[k] = backend.run(request);
    if (ran[k].status != RunStatus::Ok)
      return {Trigger::Unknown, fmt::format("{} graph: {} ({})", k ? "woven" : "seed",
                                            run_status_name(ran[k].status), ran[k].message)};
    if (!ran[k].optimized_ops)
      return {Trigger::Unknown,
              fmt::format("{} does not report its optimized graph", backend.info().name)};
  }
  for (const std::string& op : pattern.fires) {
    const std::string& op_type = OpRegistry::instance().get(op).onnx.op_type;
    int64_t woven_in = nodes_of(woven, op) - nodes_of(seed, op);
    int64_t survived =
        count_of(*ran[1].optimized_ops, op_type) - count_of(*ran[0].optimized_ops, op_type);
    if (survived < woven_in) return {Trigger::Fired, ""};
  }
  return {Trigger::NotFired, ""};
}

}  // namespace retort
