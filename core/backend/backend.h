// A compiler under test (or the reference interpreter) that runs graphs. The comparison engine
// (core/compare) asks each attached backend to run the same graph on the same inputs; whatever
// goes wrong inside a backend comes back as a RunResult status, never as an exception.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

enum class RunStatus {
  Ok,
  Error,        // the backend reported an error for this model (a compile or runtime failure)
  Unsupported,  // the backend cannot express the model (an op or mode it lacks): not a bug
  Crash,        // the worker died (signal or exit) while running it
  Timeout,      // the worker exceeded its time limit and was killed
};
std::string_view run_status_name(RunStatus status);

// Program mutations (scripts/backends/retort_backends/probe.py): a backend that runs a
// generated Python program rewrites it before compiling, the seed choosing where and how. A
// family declares the kinds its worker applies (FamilyDef::program_mutations); a run sends a
// backend only those, and backends that run the ONNX model get none.
struct ProgramMutation {
  std::string kind;  // one of kProgramMutationKinds or kStorageMutationKinds
  uint64_t seed = 0;
  bool operator==(const ProgramMutation&) const = default;
};
// TorchProbe's (seeds/002).
inline constexpr std::string_view kProgramMutationKinds[] = {"resolve", "mutate-recover",
                                                             "functionalize", "tcb"};
// TENSURE's storage formats (seeds/003): einsum and matmul operands stored sparse (JAX BCOO).
inline constexpr std::string_view kStorageMutationKinds[] = {"sparse"};
// Program forms (issue 40; scripts/backends/retort_backends/torch_forms.py): the generated torch
// program computing the same values in a form that is not pure dataflow over contiguous tensors,
// where torch.compile's wrong results live. A campaign asks them of every case (`fuzz --forms`),
// as mutations that the families declaring them apply (FamilyDef::program_mutations).
struct ProgramForm {
  std::string_view kind;
  std::string_view what;  // for help and docs
};
inline constexpr ProgramForm kProgramForms[] = {
    {"transposed-input", "an input of rank >= 2 with its last two dims column-major"},
    {"strided-input", "an input as a stride-2 slice of a larger buffer"},
    {"expanded-input",
     "an input expanded with stride 0 along a dim its values do not change along"},
    {"channels-last-input", "a 4-d or 5-d input in channels_last memory format"},
    {"in-place", "an elementwise op in place on a fresh buffer: a.clone().add_(b)"},
    {"slice-assign", "a result written into a fresh buffer by two slice assignments"},
    {"index-put", "a result written into a fresh buffer by index_put_ of its rows"},
    {"view-after-mutation", "an elementwise op in place, its result read through an earlier view"},
    {"python-scalar", "a one-element constant beside a float tensor written as a Python number"},
    {"dynamic", "torch.compile(dynamic=True)"}};

struct RunRequest {
  const Graph* graph = nullptr;      // validated by infer_graph
  std::string onnx;                  // export_onnx(*graph); filled once and shared by all backends
  TensorMap inputs;                  // one tensor per graph input
  std::vector<std::string> outputs;  // values to return (a repeat is returned once); empty: the
                                     // graph's outputs
  // Also ask for the ops of the graph the backend ran after its own optimizations (OATest's
  // trigger check, docs/backend-protocol.md); backends that cannot say leave the answer empty.
  bool optimized_ops = false;
  // TorchProbe: rewrite the generated program with these, in order (a condition `tcb`
  // synthesizes holds for these inputs only); and send back the program's source.
  std::vector<ProgramMutation> mutations{};
  bool want_program = false;
};

struct RunResult {
  RunStatus status = RunStatus::Ok;
  TensorMap outputs;
  std::string message;      // why it is not ok: the backend's error text, the signal, the limit
  std::string stderr_tail;  // the last lines a worker wrote to stderr, for crash reports
  double millis = 0;        // wall time of the run as the workbench saw it
  // What the worker measured itself (docs/backend-protocol.md), when it says: the compilation
  // the run used (also when it was cached from an earlier run) and the run alone.
  std::optional<double> compile_ms, run_ms;
  // When asked and the backend can say: node count per op of its optimized graph, by ONNX
  // op_type ("BatchNormalization"; "com.microsoft.FusedConv" for another domain).
  std::optional<std::map<std::string, int64_t>> optimized_ops;
  // When asked and the backend runs a generated Python program: its source, mutated.
  std::optional<std::string> program;
};

// A backend's generated program as a Python module that runs without Retort (a standalone
// reproducer's model_a.py, core/compare/repro.h): `text` imports only the framework, reads each
// constant with const("NAME"), which the file that holds it defines, and defines forward over the
// graph's inputs in order.
struct ProgramSource {
  std::string text;
  std::vector<std::pair<std::string, Tensor>> consts;  // by the names the text reads
};

struct BackendInfo {
  std::string name;     // as attached: "ref", "ort:O3", "torch:script"
  std::string kind;     // "reference", "worker"
  std::string version;  // from the worker's hello
  std::map<std::string, std::string> options;
  std::string state;          // "ready", "not started", "dead", "unavailable", ...
  std::string last_error;     // empty when none
  std::string unavailable{};  // why it cannot run here (a device that is missing)
  std::string environment{};  // an environment of the user's it runs in (`backend use`)
};

// A campaign bounds a backend's runs case by case (core/campaign/campaign.h): no run goes on past
// the campaign's deadline, and a case that a backend could not test fairly is told apart from a
// finding afterwards.
struct CaseLimits {
  // Runs still going then are stopped, and later ones not started: `cut`.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // After this many runs that timed out (each ends with the worker killed, and the next run
  // starts a new one), the case's other runs on the backend are `timeout` without being sent.
  std::optional<int> timeouts;
};
struct CaseTrouble {
  bool cut = false;            // a run of the case was stopped or skipped at the deadline
  std::string infrastructure;  // why the backend could not be started: no finding, a problem
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendInfo info() const = 0;
  // Runs one model. Must not throw for anything the backend or its worker does wrong.
  virtual RunResult run(const RunRequest& request) = 0;
  // A case begins: its runs keep to `limits`; CaseLimits{} after the last case lifts them. (The
  // reference interpreter runs in process and needs none.)
  virtual void begin_case(const CaseLimits& limits) { (void)limits; }
  // What kept this backend from testing the case since begin_case.
  virtual CaseTrouble case_trouble() const { return {}; }
  // The program the backend runs for `request` (its graph, outputs and mutations) as a
  // standalone module. Throws Error when it runs no generated program or cannot write it.
  virtual ProgramSource program_source(const RunRequest& request);
};

}  // namespace retort
