#include "core/base/bfloat16.h"

#include <bit>

namespace retort {

uint16_t float_to_bfloat16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  // Adding 0x7fff plus the kept part's lowest bit rounds the dropped 16 bits to nearest even;
  // a carry out of the mantissa bumps the exponent, up to inf.
  uint32_t lsb = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7fffu + lsb) >> 16);
}

float bfloat16_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

double round_to_bfloat16(double v) {
  return bfloat16_to_float(float_to_bfloat16(static_cast<float>(v)));
}

}  // namespace retort
