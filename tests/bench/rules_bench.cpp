// Equality saturation benchmarks: graph -> e-graph, saturation with the POLYJUICE rules, then
// extraction of the most simplified and the most complex variant. Run:
//   ./build/bin/retort_bench --benchmark_filter=Rules
#include <benchmark/benchmark.h>

#include "tests/bench/saturate_workload.h"
#include "tests/support/random_graph.h"

namespace retort {
namespace {

const RuleSet& polyjuice_rules() {
  static const RuleSet rules = builtin_rules("polyjuice");
  return rules;
}

// Build + saturate (iter_limit, node_limit) + extract min and max, for a random graph of
// range(0) nodes.
void saturate_bench(benchmark::State& state, size_t iter_limit, size_t node_limit,
                    SchedulerKind scheduler) {
  Graph g = testing::random_op_graph(static_cast<size_t>(state.range(0)), 42);
  const RuleSet& rules = polyjuice_rules();
  RunnerOptions opts = bench::polyjuice_limits();
  opts.iter_limit = iter_limit;
  opts.node_limit = node_limit;
  opts.scheduler = scheduler;
  RunnerCarry carry;  // kept with the rules, as egg's side compiles its rewrites once
  opts.carry = &carry;
  // One run before the timed ones, as egg's side warms up each workload: the 100k workloads
  // time a single run, which would otherwise also time the carry's and the allocator's first
  // growth.
  bench::SaturateResult r = bench::build_saturate_extract(g, rules, opts);
  for (auto _ : state) {
    r = bench::build_saturate_extract(g, rules, opts);
    benchmark::DoNotOptimize(r);
  }
  state.counters["enodes"] = static_cast<double>(r.nodes);
  state.counters["iters"] = static_cast<double>(r.iterations);
  state.counters["rewrites"] = static_cast<double>(r.rewrites);
  state.counters["min_ops"] = static_cast<double>(r.min_ops);
  state.counters["max_ops"] = static_cast<double>(r.max_ops);
}

// The graph sizes every saturation benchmark runs: POLYJUICE's 5-15 nodes, and larger ones.
void graph_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t nodes : {5, 10, 15, 50, 200}) b->Arg(nodes);
}

// POLYJUICE's own limits: 2 iterations, 100 e-nodes.
void RulesSaturatePolyjuiceLimits(benchmark::State& s) {
  saturate_bench(s, 2, 100, SchedulerKind::Simple);
}
BENCHMARK(RulesSaturatePolyjuiceLimits)->Apply(graph_sizes)->Unit(benchmark::kMillisecond);

void RulesSaturate10k(benchmark::State& s) {
  saturate_bench(s, 10, 10000, SchedulerKind::Simple);
}
BENCHMARK(RulesSaturate10k)->Apply(graph_sizes)->Unit(benchmark::kMillisecond);

void RulesSaturate10kBackoff(benchmark::State& s) {
  saturate_bench(s, 10, 10000, SchedulerKind::Backoff);
}
BENCHMARK(RulesSaturate10kBackoff)->Arg(5)->Arg(50)->Arg(200)->Unit(benchmark::kMillisecond);

void RulesSaturate100k(benchmark::State& s) {
  saturate_bench(s, 10, 100000, SchedulerKind::Simple);
}
BENCHMARK(RulesSaturate100k)->Apply(graph_sizes)->Iterations(1)->Unit(benchmark::kMillisecond);

// E-matching alone: every POLYJUICE rule searched over an e-graph grown to ~10,000 e-nodes.
void RulesSearch10k(benchmark::State& state) {
  Graph g = testing::random_op_graph(50, 42);
  EGraph eg;
  add_graph(eg, g);
  RunnerOptions opts;
  opts.iter_limit = 10;
  opts.node_limit = 10000;
  opts.time_limit_seconds = 0;
  RewriteTrace trace;
  Runner(eg, polyjuice_rules(), opts).run(trace);
  size_t matches = 0;
  for (auto _ : state) {
    matches = 0;
    for (const Rule& r : polyjuice_rules().rules) matches += search(eg, r).size();
  }
  state.counters["enodes"] = static_cast<double>(eg.node_count());
  state.counters["matches"] = static_cast<double>(matches);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * matches));
}
BENCHMARK(RulesSearch10k)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace retort
