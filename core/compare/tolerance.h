// How far two tensors of one dtype may differ and still count as the same result. Element a
// (actual) matches e (expected) when |a - e| <= atol + rtol * |e| (numpy's allclose rule), or
// when a and e are at most `ulps` units in the last place of the declared dtype apart;
// integer and bool tensors compare exactly. The defaults are in docs/compare.md.
#pragma once

#include <map>
#include <string>

#include "core/base/dtype.h"

namespace retort {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
  double ulps = 0;  // of the dtype the tolerance is for

  // Whether finite values a (actual) and e (expected) of `dtype` count as the same.
  bool allows(double a, double e, DType dtype) const;
};

class ToleranceTable {
 public:
  ToleranceTable();  // the documented defaults
  // The tolerance of a dtype; integers and bool are always exact.
  Tolerance of(DType dtype) const;
  // Sets a float dtype's tolerance; throws Error for an integer dtype, or a negative or
  // non-finite value.
  void set(DType dtype, Tolerance tolerance);
  // Sets every float dtype's atol, rtol and/or ulps (a null pointer leaves it unchanged).
  void set_all_floats(const double* atol, const double* rtol, const double* ulps = nullptr);
  // "f32 atol=0.001 rtol=0.001; f64 ...", one entry per float dtype (ulps when not 0).
  std::string str() const;

 private:
  std::map<DType, Tolerance> floats_;
};

}  // namespace retort
