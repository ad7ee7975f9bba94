// IEEE 754 binary16 conversions (round to nearest even), for f16 tensors.
#pragma once

#include <cstdint>

namespace retort {

uint16_t float_to_half(float f);
float half_to_float(uint16_t h);

}  // namespace retort
