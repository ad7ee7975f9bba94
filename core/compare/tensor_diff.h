// Element-wise comparison of an actual tensor against an expected one, with the error measures
// the compare report shows per output.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/backend/backend.h"
#include "core/compare/tolerance.h"
#include "core/compare/verdict.h"
#include "core/tensor/tensor.h"

namespace retort {

struct OutputDiff {
  std::string actual_name, expected_name;
  Verdict verdict = Verdict::Pass;         // pass, mismatch, nan-inf or shape/dtype mismatch
  std::string actual_type, expected_type;  // "f32[2,3]"
  // Over the pairs of finite elements: max |a - e| and max |a - e| / |e| (inf when e is 0 and
  // a is not).
  double max_abs_error = 0, max_rel_error = 0;
  // The L-infinity distance over all elements: like max_abs_error, but a NaN or Inf that the
  // other side does not have counts as infinitely far.
  double chebyshev = 0;
  int64_t mismatched = 0, numel = 0;  // elements outside the tolerance, of numel
  int64_t first_mismatch = -1;        // flat index of the first one
  double first_actual = 0, first_expected = 0;
  // An integer dtype: the same two exactly (a double holds an i64 only to 2^53).
  bool integer = false;
  int64_t first_actual_int = 0, first_expected_int = 0;

  std::string str() const;  // one line: "y: mismatch 3/6 elements max_abs=... at [0] 2 vs 1"
};

OutputDiff diff_tensors(const Tensor& actual, const Tensor& expected,
                        const ToleranceTable& tolerances);

// Two runs compared output by output. A run that did not finish gives its status's verdict
// (the worse side when both failed) and no output diffs.
struct RunComparison {
  Verdict verdict = Verdict::Pass;
  std::vector<OutputDiff> outputs;
  std::string message;  // why a run failed, naming the side
};

// pairs: (actual output name, expected output name), compared in order.
RunComparison compare_runs(const RunResult& actual, const RunResult& expected,
                           const std::vector<std::pair<std::string, std::string>>& pairs,
                           const ToleranceTable& tolerances);

}  // namespace retort
