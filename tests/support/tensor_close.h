// Closeness of two reference results in tests, through the comparison engine's own measure
// (core/compare/tensor_diff.h) with tolerances tighter than compare's defaults, because these
// tests compare reference results with each other, not with a compiler: reassociation and
// distribution change rounding, nothing else does.
//   f32, f64: |a - e| <= 1e-6 + 1e-5 |e|        f16: |a - e| <= 2e-2 + 1e-2 |e|
// Integers and bool must agree bit for bit; NaN matches NaN.
#pragma once

#include <string>

#include "core/compare/tensor_diff.h"

namespace retort::testing {

inline const ToleranceTable& rewrite_tolerances() {
  static const ToleranceTable table = [] {
    ToleranceTable t;
    t.set(DType::f32, {1e-6, 1e-5});
    t.set(DType::f64, {1e-6, 1e-5});
    t.set(DType::f16, {2e-2, 1e-2});
    return t;
  }();
  return table;
}

// Why two tensors differ, or "" when they agree.
inline std::string tensor_difference(const Tensor& want, const Tensor& got) {
  OutputDiff d = diff_tensors(got, want, rewrite_tolerances());
  return d.verdict == Verdict::Pass ? "" : d.str();
}

}  // namespace retort::testing
