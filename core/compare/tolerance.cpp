#include "core/compare/tolerance.h"

#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/ulp.h"

namespace retort {

namespace {

void check_value(double v, const char* what, DType dtype) {
  if (!std::isfinite(v) || v < 0)
    fail("{} for {} must be a finite number >= 0, not {}", what, dtype_name(dtype), v);
}

}  // namespace

bool Tolerance::allows(double a, double e, DType dtype) const {
  if (std::abs(a - e) <= atol + rtol * std::abs(e)) return true;
  return ulps > 0 && ulp_distance(a, e, dtype) <= ulps;
}

// f32 follows the NNSmith/HirFuzz practice (differences of order 1e-3 are numerical noise in a
// multi-op graph); f16 has about three decimal digits, bf16 between two and three (an ulp of
// 2^-7 at 1: 5e-2 is six of them); f64 is held much tighter.
ToleranceTable::ToleranceTable()
    : floats_{{DType::f32, {1e-3, 1e-3}},
              {DType::f64, {1e-7, 1e-7}},
              {DType::f16, {1e-2, 1e-2}},
              {DType::bf16, {5e-2, 5e-2}}} {}

Tolerance ToleranceTable::of(DType dtype) const {
  auto it = floats_.find(dtype);
  return it == floats_.end() ? Tolerance{} : it->second;
}

void ToleranceTable::set(DType dtype, Tolerance tolerance) {
  if (!is_float(dtype))
    fail("{} compares exactly; tolerances apply to bf16, f16, f32 and f64", dtype_name(dtype));
  check_value(tolerance.atol, "atol", dtype);
  check_value(tolerance.rtol, "rtol", dtype);
  check_value(tolerance.ulps, "ulps", dtype);
  floats_[dtype] = tolerance;
}

void ToleranceTable::set_all_floats(const double* atol, const double* rtol, const double* ulps) {
  for (auto& [dtype, t] : floats_) {
    Tolerance next = t;
    if (atol) next.atol = *atol;
    if (rtol) next.rtol = *rtol;
    if (ulps) next.ulps = *ulps;
    set(dtype, next);
  }
}

std::string ToleranceTable::str() const {
  std::vector<std::string> parts;
  for (DType d : kAllDTypes) {
    if (!is_float(d)) continue;
    Tolerance t = of(d);
    parts.push_back(fmt::format("{} atol={:g} rtol={:g}{}", dtype_name(d), t.atol, t.rtol,
                                t.ulps > 0 ? fmt::format(" ulps={:g}", t.ulps) : ""));
  }
  parts.push_back("integers and bool exact");
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace retort
