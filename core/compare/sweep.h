// `sweep`: the differential conformance sweep of Retort's reference interpreter against a second
// reference (by default onnx-ref, ONNX's own onnx.reference). Every registry op x every dtype it
// accepts x drawn attributes and shapes (single-op graphs, core/backend/support.h) x the input
// plans standard, full and special, each compared by the reference oracle (core/compare/compare.h:
// undefined inputs and skipped roundings are not disagreements). A disagreement the table of
// known disagreements explains (core/compare/sweep_known.h) is counted by its class; the others
// are unexplained. See docs/conformance.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/compare/sweep_known.h"
#include "core/compare/tolerance.h"
#include "core/compare/verdict.h"
#include "core/exec/inputs.h"

namespace retort {

struct SweepOptions {
  uint64_t seed = 1;             // draw k of an op x dtype uses seed + k
  size_t draws = 3;              // attribute and shape draws per op x dtype
  std::vector<std::string> ops;  // registry op names; empty: every op
  std::vector<InputPlan> plans;  // empty: standard, full and special
  ToleranceTable tolerances;
  const std::atomic<bool>* cancel = nullptr;  // stops between graphs with an Error
  // After each op: (ops done, ops in all).
  std::function<void(size_t, size_t)> progress;
};

// One single-op graph run whose results the two references do not agree on.
struct SweepCase {
  std::string op;
  DType dtype = DType::f32;
  std::string plan;   // InputPlan::range_str()
  uint64_t seed = 0;  // of the graph's draw and of its inputs
  Verdict verdict = Verdict::Mismatch;
  std::string detail;  // the compare finding's line, or a failed run's message
  std::string graph;   // the graph as .rtg text
  const KnownDisagreement* known = nullptr;  // the explanation; null: unexplained
};

struct SweepResult {
  std::string other;  // the backend name, "onnx-ref:default"
  size_t ops = 0, op_dtypes = 0, graphs = 0, runs = 0;
  size_t agree = 0;                      // pass, undefined and precision
  size_t unsupported = 0;                // runs `other` cannot express
  std::map<Verdict, size_t> verdicts;    // of every run, as the reference oracle saw it
  std::vector<SweepCase> disagreements;  // in sweep order

  size_t explained() const;
  size_t unexplained() const { return disagreements.size() - explained(); }
  // Per class of explanation ("onnx.reference bug", "spec silent"): disagreements.
  std::map<std::string, size_t> by_class() const;
};

// Runs the sweep of `other` against the reference interpreter. Throws Error for an unknown op
// name, and on cancel.
SweepResult run_sweep(Backend& other, const SweepOptions& options);

}  // namespace retort
