#include "core/io/conformance.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/io/graph_files.h"
#include "core/io/onnx_io.h"

namespace retort {

namespace fs = std::filesystem;

std::string ConformanceReport::summary_line() const {
  return fmt::format("{} passed, {} failed, {} skipped", passed, failed, skipped);
}

namespace {

// ONNX's backend tests compare floats with numpy's isclose at these tolerances.
constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

bool close_enough(double got, double want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (got == want) return true;  // equal infinities
  return std::fabs(got - want) <= kAtol + kRtol * std::fabs(want);
}

// Why got does not match want, or "" when it does.
std::string mismatch(const Tensor& got, const Tensor& want, const std::string& output) {
  if (got.type() != want.type())
    return fmt::format("output '{}' is {}, expected {}", output, got.type().str(),
                       want.type().str());
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < want.numel(); ++i) {
    bool same = is_float(want.dtype()) ? close_enough(got.get(i), want.get(i))
                                       : got.get_int(i) == want.get_int(i);
    if (same) continue;
    if (bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  auto show = [](const Tensor& t, int64_t i) {
    return is_float(t.dtype()) ? fmt::format("{}", t.get(i)) : fmt::format("{}", t.get_int(i));
  };
  return fmt::format(
      "output '{}' differs at element {}: got {}, expected {} ({} of {} elements differ)", output,
      first, show(got, first), show(want, first), bad, want.numel());
}

std::vector<fs::path> sorted_entries(const fs::path& dir, const std::string& prefix, bool dirs) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() == dirs && e.path().filename().string().rfind(prefix, 0) == 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// input_0.pb, input_1.pb, ... in numeric order.
std::vector<Tensor> numbered_tensors(const fs::path& dir, const std::string& stem) {
  std::vector<Tensor> out;
  for (int k = 0;; ++k) {
    fs::path p = dir / fmt::format("{}_{}.pb", stem, k);
    if (!fs::exists(p)) return out;
    out.push_back(read_tensor_proto_file(p.string()));
  }
}

// Runs one test_data_set folder; returns the failure reason or "".
std::string run_data_set(const std::string& model_bytes, const fs::path& model_path,
                         const fs::path& set, std::string* skip_reason) {
  // The model's signature is checked first: a sequence or optional input's data is not a
  // TensorProto and would read as garbage.
  std::vector<std::string> names = onnx_graph_input_names(model_bytes, model_path.string());
  std::vector<Tensor> inputs = numbered_tensors(set, "input");
  std::vector<Tensor> expected = numbered_tensors(set, "output");
  if (inputs.size() != names.size())
    return fmt::format("{} has {} inputs, the model takes {}", set.filename().string(),
                       inputs.size(), names.size());
  OnnxImportOptions options;
  for (size_t i = 0; i < names.size(); ++i) options.input_values[names[i]] = inputs[i];
  // A model Retort refuses with a clear error (an attribute value outside an op's subset: Resize's
  // cubic mode) is no wrong answer: skipped, with the reason. NodeTestsHaveNoFailures keeps a
  // floor under the passes, so an import that regresses still fails it.
  OnnxImport imported;
  try {
    imported = import_onnx_model(model_bytes, model_path.string(), options);
  } catch (const OnnxUnsupported&) {
    throw;
  } catch (const Error& e) {
    *skip_reason = fmt::format("Retort refuses it: {}", e.what());
    return "";
  }
  const Graph& g = imported.graph;
  for (const auto& n : g.nodes) {
    if (!n.is_opaque()) continue;
    *skip_reason = fmt::format("unsupported op '{}' ({})", n.op, imported.opaque_reasons[n.name]);
    return "";
  }
  if (expected.size() != g.outputs.size())
    return fmt::format("{} has {} outputs, the model produces {}", set.filename().string(),
                       expected.size(), g.outputs.size());
  TensorMap feeds;
  for (const auto& in : g.inputs) feeds[in.name] = options.input_values.at(in.name);
  TensorMap results = evaluate(g, feeds);
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string why = mismatch(results.at(g.outputs[i]), expected[i], g.outputs[i]);
    if (!why.empty()) return fmt::format("{}: {}", set.filename().string(), why);
  }
  return "";
}

ConformanceCase run_case(const fs::path& dir) {
  ConformanceCase c;
  c.name = dir.filename().string();
  auto finish = [&](ConformanceCase::Status s, std::string reason) {
    c.status = s;
    c.reason = std::move(reason);
    return c;
  };
  try {
    fs::path model_path = dir / "model.onnx";
    if (!fs::exists(model_path)) return finish(ConformanceCase::Status::Skipped, "no model.onnx");
    std::vector<fs::path> sets = sorted_entries(dir, "test_data_set_", true);
    if (sets.empty()) return finish(ConformanceCase::Status::Skipped, "no test data sets");
    std::string bytes = read_file(model_path.string());
    for (const auto& set : sets) {
      std::string skip;
      std::string why = run_data_set(bytes, model_path, set, &skip);
      if (!skip.empty()) return finish(ConformanceCase::Status::Skipped, skip);
      if (!why.empty()) return finish(ConformanceCase::Status::Failed, why);
    }
    return finish(ConformanceCase::Status::Passed, "");
  } catch (const OnnxUnsupported& e) {
    return finish(ConformanceCase::Status::Skipped, e.what());
  } catch (const std::exception& e) {
    return finish(ConformanceCase::Status::Failed, e.what());
  }
}

}  // namespace

ConformanceReport run_conformance(const std::string& dir,
                                  const std::function<void(const ConformanceCase&)>& on_case) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) fail("'{}' is not a directory of ONNX node tests", dir);
  ConformanceReport report;
  for (const auto& test : sorted_entries(dir, "", true)) {
    ConformanceCase c = run_case(test);
    switch (c.status) {
      case ConformanceCase::Status::Passed:
        ++report.passed;
        break;
      case ConformanceCase::Status::Failed:
        ++report.failed;
        break;
      case ConformanceCase::Status::Skipped:
        ++report.skipped;
        break;
    }
    if (on_case) on_case(c);
    report.cases.push_back(std::move(c));
  }
  return report;
}

}  // namespace retort
