// How far two tensors of one dtype may differ and still count as the same result. Element a
// (actual) matches e (expected) when |a - e| <= atol + rtol * |e| (numpy's allclose rule);
// integer and bool tensors compare exactly. The defaults are in docs/compare.md.
#pragma once

#include <map>
#include <string>

#include "core/base/dtype.h"

namespace retort {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

class ToleranceTable {
 public:
  ToleranceTable();  // the documented defaults
  // The tolerance of a dtype; integers and bool are always exact.
  Tolerance of(DType dtype) const;
  // Sets a float dtype's tolerance; throws Error for an integer dtype, or a negative or
  // non-finite value.
  void set(DType dtype, Tolerance tolerance);
  // Sets every float dtype's atol and/or rtol (a null pointer leaves it unchanged).
  void set_all_floats(const double* atol, const double* rtol);
  // "f32 atol=0.001 rtol=0.001; f64 ...", one entry per float dtype.
  std::string str() const;

 private:
  std::map<DType, Tolerance> floats_;
};

}  // namespace retort
