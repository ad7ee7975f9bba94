// `compare`: runs the original graph and its variants on several backends with identical seeded
// inputs and checks the three oracles (core/compare/oracles.h). The CompareReport is what the
// session keeps and the results pane draws; see docs/compare.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/compare/oracles.h"
#include "core/compare/tensor_diff.h"
#include "core/compare/tolerance.h"
#include "core/exec/inputs.h"
#include "core/graph/graph.h"

namespace retort {

// One backend running one graph, checked against the reference interpreter over every run.
struct CompareCell {
  Verdict verdict = Verdict::Pass;  // the worst over the runs
  std::string message;              // the first failure's detail; empty on pass
  double millis = 0;                // the backend's wall time, summed over the runs
  // As the worker measured them, when it did: its compilation of the graph (the longest over
  // the runs; later runs reuse it) and the runs alone, summed.
  std::optional<double> compile_ms, run_ms;
};

// One check that did not pass (unsupported runs show in the cells only).
struct Finding {
  Oracle oracle = Oracle::Reference;
  Verdict verdict = Verdict::Mismatch;
  std::string backend_a, graph_a;   // the side under test
  std::string backend_b, graph_b;   // what it had to agree with; backend_b "ref" = interpreter
  uint64_t seed = 0;                // the inputs: generate_inputs(original, seed, -, inputs)
  std::vector<OutputDiff> outputs;  // per output pair (empty when a run failed)
  std::string message;              // a failed run's status and text
  // Non-empty when the inputs make an op undefined in graph_a or graph_b ("node 'd' (div) ...");
  // a value difference there has verdict undefined and is not a bug.
  std::string undefined;
  // FailureSignature::key() once sign_findings (core/compare/signature.h) has run; findings with
  // the same signature are one failure, which the report prints once with a count.
  std::string signature;

  std::string str() const;  // one line: "[reference] ort:O3 on v1 vs ref (seed 1): mismatch ..."
};

struct CompareReport {
  std::vector<std::string> backends;  // rows, as attached ("ref", "ort:O3", ...)
  std::vector<std::string> graphs;    // columns: "original", then the variants
  std::vector<Graph> graph_defs;      // the graphs as compared, parallel to `graphs`
  std::vector<uint64_t> seeds;        // one run per seed
  InputPlan inputs;                   // how the inputs of each seed were drawn, or fixed
  ToleranceTable tolerances;
  std::vector<ProgramMutation> mutations;  // the program mutations every run carried
  std::vector<CompareCell> cells;  // backends.size() * graphs.size(), row by row (per backend)
  std::vector<Finding> findings;   // in run order: per seed, the checks of plan_checks
  std::map<std::string, size_t> checks;  // oracle name -> checks made (over all runs)
  std::vector<std::string> notes;        // input domains, export failures, undefined graphs

  CompareCell& cell(size_t backend, size_t graph) { return cells[backend * graphs.size() + graph]; }
  const CompareCell& cell(size_t backend, size_t graph) const {
    return cells[backend * graphs.size() + graph];
  }
  size_t bug_count() const;  // findings whose verdict is_bug
  // The n-th finding whose verdict is_bug (1-based, as the text report numbers them), or null.
  const Finding* bug(size_t n) const;
};

struct CompareGraph {
  std::string name;  // "original" or the variant's name
  const Graph* graph = nullptr;
};

struct CompareOptions {
  uint64_t seed = 1;
  size_t runs = 1;  // seeds seed, seed+1, ...
  ToleranceTable tolerances;
  // Keep the verdict of a difference where the inputs make an op undefined (normally turned
  // into `undefined`), so that it can be looked at and exported.
  bool keep_undefined = false;
  // Report reference differences that skipped intermediate roundings explain as mismatches
  // instead of `precision` (core/compare/precision.h).
  bool count_precision = false;
  // TorchProbe's program mutations, for every run (backends that run ONNX ignore them).
  std::vector<ProgramMutation> mutations{};
  // After each run of a graph on a backend: (runs done, runs in all), and the backend that ran.
  std::function<void(size_t done, size_t total, const std::string& backend)> progress{};
};

// graphs[0] is the original; every graph must have the original's inputs (names and types) and
// an output for each of its outputs (core/compare/output_match.h: a variant may reorder them and
// expose more; two variants exposing the same value are checked against each other).
// Backends are run in order and must not throw (Backend::run's contract). Throws Error when the
// graphs do not share inputs, a variant lacks an output, or a list is empty. `inputs`: the range
// inputs are drawn from and the inputs fixed by hand (`inputs`, `input`).
CompareReport run_compare(const std::vector<CompareGraph>& graphs,
                          const std::vector<Backend*>& backends, const CompareOptions& options,
                          const InputPlan& inputs = {});

}  // namespace retort
