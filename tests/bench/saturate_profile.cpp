// A fixed number of build + saturate + extract runs at POLYJUICE's limits, or with
// NODE_LIMIT at the 10 iterations and that node limit of RulesSaturate10k and 100k, for
// instruction counts that do not depend on the machine's load (Google Benchmark picks its own
// iteration count, so its totals cannot be divided by a known number of runs).
// docs/benchmarks.md:
//   valgrind --tool=callgrind retort_saturate_profile NODES 0 [NODE_LIMIT]   (setup only)
//   valgrind --tool=callgrind retort_saturate_profile NODES 50 [NODE_LIMIT]  (and 50 runs)
// and (second - first) / 50 is the cost of one run.
#include <cstdio>

#include "tests/bench/saturate_workload.h"
#include "tests/support/random_graph.h"

int main(int argc, char** argv) {
  using namespace retort;
  size_t nodes = 0, runs = 0, node_limit = 0;
  if (argc < 3 || argc > 4 || !bench::parse_count(argv[1], nodes) ||
      !bench::parse_count(argv[2], runs) || nodes == 0 ||
      (argc == 4 && (!bench::parse_count(argv[3], node_limit) || node_limit == 0))) {
    std::fprintf(stderr, "usage: retort_saturate_profile NODES RUNS [NODE_LIMIT]\n");
    return 2;
  }
  Graph g = testing::random_op_graph(nodes, 42);
  RuleSet rules = builtin_rules("polyjuice");
  RunnerOptions opts = bench::limits_for(node_limit);
  RunnerCarry carry;  // as rules_bench.cpp keeps one with the rules
  opts.carry = &carry;
  bench::SaturateResult r = bench::build_saturate_extract(g, rules, opts);  // warms the pools
  for (size_t i = 0; i < runs; ++i) r = bench::build_saturate_extract(g, rules, opts);
  std::printf("%zu e-nodes, %zu rewrites, min %zu ops, max %zu ops\n", r.nodes, r.rewrites,
              r.min_ops, r.max_ops);
  return 0;
}
