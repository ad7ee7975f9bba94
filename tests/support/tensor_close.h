// Closeness of two reference results in tests. Integer and bool results must agree bit for bit;
// float results within a tolerance, because reassociation and distribution change rounding:
//   f32, f64: |a - b| <= 1e-6 + 1e-5 |a|        f16: |a - b| <= 2e-2 + 1e-2 |a|
// NaN matches NaN.
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/tensor/tensor.h"

namespace retort::testing {

struct Tolerance {
  double rtol, atol;
};

inline Tolerance tolerance_of(DType t) {
  if (t == DType::f16) return {1e-2, 2e-2};
  return {1e-5, 1e-6};
}

// Why two tensors differ, or "" when they agree.
inline std::string tensor_difference(const Tensor& want, const Tensor& got, double rtol_scale = 1) {
  if (want.type() != got.type())
    return fmt::format("type {} vs {}", want.type().str(), got.type().str());
  if (!is_float(want.dtype())) return want == got ? "" : "integer results differ";
  Tolerance tol = tolerance_of(want.dtype());
  for (int64_t i = 0; i < want.numel(); ++i) {
    double a = want.get(i), b = got.get(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (a == b) continue;
    if (!(std::fabs(a - b) <= tol.atol + rtol_scale * tol.rtol * std::fabs(a)))
      return fmt::format("element {}: {} vs {}", i, a, b);
  }
  return "";
}

}  // namespace retort::testing
