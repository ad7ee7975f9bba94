// The reference interpreter against ONNX Runtime with optimizations off (ort:O0, one intra-op
// thread) on ResNet-18 and MobileNetV2 at 64x64 (tests/support/vision_models.h). ORT's time is
// the worker's own measure of session.run (run_ms), without the transfer of the model and
// tensors; the interpreter's is one run of a prepared graph (constants converted once), and
// Evaluate is the one-shot evaluate() that prepares the graph each time.
// Run: ./build/bin/retort_bench --benchmark_filter=Interpreter
#include <benchmark/benchmark.h>

#include "core/backend/backend_set.h"
#include "core/exec/inputs.h"
#include "core/exec/prepared_graph.h"
#include "core/io/onnx_io.h"
#include "tests/support/vision_models.h"

namespace retort {
namespace {

constexpr int64_t kSide = 64;

Graph model(int64_t which) {
  return which == 0 ? testing::resnet18_graph(kSide, 1) : testing::mobilenet_v2_graph(kSide, 1);
}

void name_model(benchmark::State& state) {
  state.SetLabel(state.range(0) == 0 ? "resnet18 64x64" : "mobilenet_v2 64x64");
}

void InterpreterRef(benchmark::State& state) {
  Graph g = model(state.range(0));
  TensorMap feeds = generate_inputs(g, 1, nullptr);
  PreparedGraph interpreter(g);
  for (auto _ : state) benchmark::DoNotOptimize(interpreter.run(feeds));
  name_model(state);
}
BENCHMARK(InterpreterRef)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void InterpreterEvaluate(benchmark::State& state) {
  Graph g = model(state.range(0));
  TensorMap feeds = generate_inputs(g, 1, nullptr);
  for (auto _ : state) benchmark::DoNotOptimize(evaluate(g, feeds));
  name_model(state);
}
BENCHMARK(InterpreterEvaluate)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void InterpreterOrtO0(benchmark::State& state) {
  Graph g = model(state.range(0));
  RunRequest request{
      .graph = &g, .onnx = export_onnx(g), .inputs = generate_inputs(g, 1, nullptr), .outputs = {}};
  BackendSet set;
  Backend& ort = set.get("ort:O0");
  RunResult warm = ort.run(request);  // starts the worker and creates the session once
  if (warm.status != RunStatus::Ok) {
    state.SkipWithError(("ort:O0: " + warm.message).c_str());
    return;
  }
  for (auto _ : state) {
    RunResult r = ort.run(request);
    if (r.status != RunStatus::Ok || !r.run_ms) {
      state.SkipWithError(("ort:O0: " + r.message).c_str());
      return;
    }
    state.SetIterationTime(*r.run_ms / 1000.0);
  }
  name_model(state);
}
BENCHMARK(InterpreterOrtO0)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace retort
