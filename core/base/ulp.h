// Distances in units in the last place (ulps) of a float dtype: how many representable values
// of that dtype lie between two of its values. Tolerances can be given in ulps of the declared
// dtype (core/compare/tolerance.h), which means the same at every magnitude.
#pragma once

#include "core/base/dtype.h"

namespace retort {

// 0 when a == b (+0 and -0 too), 1 for neighbours; counts across zero (the smallest positive
// and negative subnormals are 2 apart). a and b are finite values of `dtype` (bf16, f16, f32 or
// f64), as a tensor of that dtype holds them.
double ulp_distance(double a, double b, DType dtype);

// The spacing of `dtype`'s values at finite v: the distance from |v| (as that dtype holds it) to
// the next larger value of the dtype (2^-24 at zero for f16; inf past the largest value).
double ulp_of(double v, DType dtype);

}  // namespace retort
