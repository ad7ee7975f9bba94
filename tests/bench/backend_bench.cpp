// Round trips per second through a warm ONNX Runtime worker (ort:O3): the per-run cost that a
// comparison pays for each backend. Needs scripts/backends/node_modules (scripts/setup.sh).
// Run: ./build/bin/retort_bench --benchmark_filter=Backend
#include <benchmark/benchmark.h>

#include "core/backend/backend_set.h"
#include "core/exec/inputs.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

// Ten element-wise and linear-algebra nodes over 16x16 f32 values.
const char* kTenNodes =
    "input x : f32[16,16]\n"
    "input w : f32[16,16]\n"
    "a = matmul(x, w)\n"
    "b = relu(a)\n"
    "c = add(b, x)\n"
    "d = mul(c, w)\n"
    "e = tanh(d)\n"
    "f = sub(e, b)\n"
    "g = abs(f)\n"
    "h = sqrt(g)\n"
    "i = matmul(h, w)\n"
    "y = neg(i)\n"
    "output y\n";

void BackendOrtRoundTrip(benchmark::State& state) {
  Graph g = parse_rtg(kTenNodes, "bench.rtg");
  infer_graph(g);
  RunRequest request{
      .graph = &g, .onnx = export_onnx(g), .inputs = generate_inputs(g, 1, nullptr), .outputs = {}};
  BackendSet set;
  Backend& ort = set.get("ort:O3");
  RunResult warm = ort.run(request);  // starts the worker and compiles the model once
  if (warm.status != RunStatus::Ok) {
    state.SkipWithError(("ort:O3: " + warm.message).c_str());
    return;
  }
  for (auto _ : state) {
    RunResult r = ort.run(request);
    if (r.status != RunStatus::Ok) {
      state.SkipWithError(("ort:O3: " + r.message).c_str());
      return;
    }
  }
  state.counters["runs/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BackendOrtRoundTrip)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace retort
