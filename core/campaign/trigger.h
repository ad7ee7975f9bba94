// OATest's trigger check (seeds/004, Section 4.4.2): did the pass a pattern targets fire when a
// compiler optimized the graph the pattern was woven into? The compiler reports the ops of its
// optimized graph (RunRequest::optimized_ops); the pass fired when fewer of the ops it removes
// survive from the woven-in nodes than were woven in.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/gen/graph_gen.h"
#include "core/gen/opt_pattern.h"
#include "core/graph/graph.h"

namespace retort {

enum class Trigger { Fired, NotFired, Unknown };

struct TriggerCheck {
  Trigger state = Trigger::Unknown;
  std::string message;  // unknown: why (the backend cannot say, a run failed)
};

// Runs seed and woven (the seed with pattern woven in: the same inputs) on the backend with
// inputs drawn from input_seed.
TriggerCheck check_trigger(Backend& backend, const Graph& seed, const Graph& woven,
                           const OptPattern& pattern, uint64_t input_seed);

// How often each pattern's pass fired, over cases woven like a campaign's (Section 5.2's
// trigger rate): case i weaves patterns[i mod n] into a graph generated from (seed, i).
struct TriggerTally {
  size_t fired = 0, not_fired = 0, unknown = 0;
  std::string first_unknown;  // why the first unknown case was unknown
  size_t known() const { return fired + not_fired; }
  double rate() const;  // fired / known, in percent; 0 when nothing is known
};
struct TriggerRates {
  std::map<std::string, TriggerTally> by_pattern;
  TriggerTally total;
  size_t cases = 0;  // run before the count or a cancel stopped it
};
struct TriggerRateOptions {
  size_t cases = 0;
  uint64_t seed = 0;
  GenOptions gen;                             // the seed graphs
  std::function<void(size_t done)> progress;  // after each case, if set
  const std::atomic<bool>* cancel = nullptr;  // stops before the next case
};
TriggerRates trigger_rates(Backend& backend, const std::vector<const OptPattern*>& patterns,
                           const TriggerRateOptions& options);

}  // namespace retort
