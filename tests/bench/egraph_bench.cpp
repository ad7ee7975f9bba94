// E-graph engine benchmarks: building from a graph, extraction, rebuild cost and memory per
// e-node. Run: ./build/bin/retort_bench --benchmark_filter=EGraph
#include <unistd.h>

#include <fstream>

#include <benchmark/benchmark.h>

#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "tests/support/random_graph.h"

namespace retort {
namespace {

// A graph's e-graph with every add and mul also present commuted (a hand-made rewrite), so
// that extraction has choices to make.
struct Workload {
  EGraph eg;
  GraphMeta meta;
};

void build_workload(Workload& w, size_t n_nodes) {
  Graph g = testing::random_op_graph(n_nodes, 42);
  w.meta = add_graph(w.eg, g);
  uint32_t step = 0;
  for (EClassId c : w.eg.class_ids()) {
    std::vector<ENode> nodes = w.eg.eclass(c).nodes.vec();
    for (const ENode& n : nodes) {
      const std::string& op = op_name(n.op);
      if (op != "add" && op != "mul") continue;
      EClassId swapped = w.eg.add(make_enode(op, {}, {n.children[1], n.children[0]}));
      w.eg.merge(c, swapped, Justification::by_rule("comm", step++));
    }
  }
  w.eg.rebuild();
}

void EGraphBuild(benchmark::State& state) {
  Graph g = testing::random_op_graph(static_cast<size_t>(state.range(0)), 42);
  for (auto _ : state) {
    EGraph eg;
    benchmark::DoNotOptimize(add_graph(eg, g));
  }
}
BENCHMARK(EGraphBuild)->Arg(5)->Arg(10)->Arg(15)->Arg(50)->Arg(200);

void extract_bench(benchmark::State& state, ExtractMode mode) {
  Workload w;
  build_workload(w, static_cast<size_t>(state.range(0)));
  ExtractOptions opt;
  opt.mode = mode;
  size_t ops = 0;
  for (auto _ : state) {
    Extraction ex = extract(w.eg, w.meta, opt);
    ops = ex.op_count;
    benchmark::DoNotOptimize(ex);
  }
  state.counters["enodes"] = static_cast<double>(w.eg.node_count());
  state.counters["ops"] = static_cast<double>(ops);
}
void EGraphExtractMin(benchmark::State& s) {
  extract_bench(s, ExtractMode::Min);
}
void EGraphExtractMax(benchmark::State& s) {
  extract_bench(s, ExtractMode::Max);
}
BENCHMARK(EGraphExtractMin)->Arg(5)->Arg(10)->Arg(15)->Arg(50)->Arg(200);
BENCHMARK(EGraphExtractMax)->Arg(5)->Arg(10)->Arg(15)->Arg(50)->Arg(200);

// Two parallel chains over inputs a and b; merging a and b makes rebuild() merge every pair
// of chain links by congruence: range(0) congruence merges in one rebuild.
void EGraphRebuild(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  TensorType t{DType::f32, {2, 2}};
  for (auto _ : state) {
    state.PauseTiming();
    EGraph eg;
    EClassId a = eg.add_input("a", t), b = eg.add_input("b", t), c = eg.add_input("c", t);
    for (size_t i = 0; i < n; ++i) {
      const char* op = i % 2 ? "add" : "mul";
      a = eg.add(make_enode(op, {}, {a, c}));
      b = eg.add(make_enode(op, {}, {b, c}));
    }
    eg.merge(eg.add(input_enode("a")), eg.add(input_enode("b")), Justification::by_rule("ab", 0));
    state.ResumeTiming();
    benchmark::DoNotOptimize(eg.rebuild());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(EGraphRebuild)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// Resident memory of the process, from /proc/self/statm: what the e-graph really costs, whichever
// allocator serves it (the programs use mimalloc, which glibc's mallinfo does not see).
size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t total_pages = 0, resident_pages = 0;
  statm >> total_pages >> resident_pages;
  return resident_pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// One million e-nodes: the estimate of EGraph::memory() and the resident memory it adds.
void EGraphBytesPerNode(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  TensorType t{DType::f32, {2, 2}};
  for (auto _ : state) {
    size_t resident_before = resident_bytes();
    EGraph eg;
    std::vector<EClassId> recent{eg.add_input("x", t), eg.add_input("y", t)};
    Rng rng(1);
    while (eg.node_count() < n) {
      EClassId l =
          recent[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(recent.size()) - 1))];
      EClassId r =
          recent[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(recent.size()) - 1))];
      recent.push_back(eg.add(make_enode(rng.coin() ? "add" : "mul", {}, {l, r})));
      if (recent.size() > 64) recent.erase(recent.begin());
    }
    size_t resident = resident_bytes() - resident_before;
    state.counters["enodes"] = static_cast<double>(eg.node_count());
    state.counters["est_bytes_per_enode"] =
        static_cast<double>(eg.memory().total()) / static_cast<double>(eg.node_count());
    state.counters["resident_bytes_per_enode"] =
        static_cast<double>(resident) / static_cast<double>(eg.node_count());
  }
}
BENCHMARK(EGraphBytesPerNode)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace retort
