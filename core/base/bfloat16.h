// bfloat16 conversions: the upper 16 bits of an IEEE binary32 (8 exponent bits, 7 stored
// mantissa bits), rounded to nearest even, for bf16 tensors.
#pragma once

#include <cstdint>

namespace retort {

// Round to nearest, ties to even; overflow gives inf of the sign; a NaN stays a quiet NaN with
// its sign (a signalling NaN's payload could otherwise round to inf).
uint16_t float_to_bfloat16(float f);
// Exact: every bf16 is an f32.
float bfloat16_to_float(uint16_t b);
// A value rounded to bf16 and back, the rounding every bf16 result of the reference goes
// through. A double is rounded to f32 first, as ONNX's own Cast and reference do (a bf16 op is
// computed in f32, its result rounded to bf16).
double round_to_bfloat16(double v);

}  // namespace retort
