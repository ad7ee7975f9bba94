// The workload every saturation benchmark measures: graph -> e-graph, the rules run to the
// limits, then extraction of the most simplified (min) and the most complex (max) variant.
// Shared by rules_bench.cpp (Google Benchmark) and saturate_profile.cpp (a fixed number of
// runs, for callgrind instruction counts), which both keep a RunnerCarry from run to run in the
// options, as a campaign does from case to case; search_reuse.cpp steps the same saturation.
#pragma once

#include <charconv>
#include <string_view>

#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "core/rules/runner.h"

namespace retort::bench {

struct SaturateResult {
  size_t nodes = 0, iterations = 0, rewrites = 0, min_ops = 0, max_ops = 0;
};

inline SaturateResult build_saturate_extract(const Graph& g, const RuleSet& rules,
                                             const RunnerOptions& opts) {
  ExtractOptions min, max;
  min.collect_steps = max.collect_steps = false;
  max.mode = ExtractMode::Max;
  EGraph eg;
  GraphMeta meta = add_graph(eg, g);
  RewriteTrace trace;
  RunReport rep = Runner(eg, rules, opts).run(trace);
  Extraction lo = extract(eg, meta, min);
  Extraction hi = extract(eg, meta, max);
  return {eg.node_count(), rep.iterations.size(), trace.steps.size(), lo.op_count, hi.op_count};
}

// POLYJUICE's own limits: 2 iterations, 100 e-nodes (seed 1, no time limit).
inline RunnerOptions polyjuice_limits() {
  RunnerOptions opts;
  opts.iter_limit = 2;
  opts.node_limit = 100;
  opts.time_limit_seconds = 0;
  opts.seed = 1;
  return opts;
}

// POLYJUICE's limits, or with a node limit those of RulesSaturate10k and 100k (10 iterations,
// the simple scheduler): the workloads of the command-line drivers (saturate_profile.cpp,
// search_reuse.cpp).
inline RunnerOptions limits_for(size_t node_limit) {
  RunnerOptions opts = polyjuice_limits();
  if (node_limit) {
    opts.iter_limit = 10;
    opts.node_limit = node_limit;
    opts.scheduler = SchedulerKind::Simple;
  }
  return opts;
}

// A count given on the command line: digits only.
inline bool parse_count(std::string_view text, size_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace retort::bench
