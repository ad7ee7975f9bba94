#include "core/backend/ref_backend.h"

#include <chrono>

#include "core/base/error.h"

namespace retort {

BackendInfo RefBackend::info() const {
  return {.name = "ref",
          .kind = "reference",
          .version = "retort",
          .options = {},
          .state = "ready",
          .last_error = {}};
}

RunResult RefBackend::run(const RunRequest& request) {
  RunResult result;
  auto start = std::chrono::steady_clock::now();
  try {
    const Graph& g = *request.graph;
    bool all_outputs = request.outputs.empty();
    TensorMap values = evaluate(g, request.inputs, {.keep_intermediates = !all_outputs});
    const auto& wanted = all_outputs ? g.outputs : request.outputs;
    for (const auto& name : wanted) {
      auto it = values.find(name);
      if (it == values.end()) fail("the graph has no value named '{}'", name);
      result.outputs.emplace(name, it->second);
    }
  } catch (const Error& e) {
    result.status = RunStatus::Error;
    result.message = e.what();
    result.outputs.clear();
  }
  result.millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace retort
