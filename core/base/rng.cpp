#include "core/base/rng.h"

namespace retort {

namespace {
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Rng::Rng(uint64_t seed) {
  uint64_t x = seed;
  for (auto& s : s_) s = splitmix64(x);
}

uint64_t Rng::next_u64() {
  uint64_t result = rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * uniform();
}

int64_t Rng::uniform_int(int64_t lo, int64_t hi) {
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(next_u64());  // the full 64-bit range
  // Rejection sampling keeps the draw unbiased.
  uint64_t limit = UINT64_MAX - UINT64_MAX % span;
  uint64_t v;
  do v = next_u64();
  while (v >= limit);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + v % span);
}

bool Rng::coin(double p_true) {
  return uniform() < p_true;
}

// The same draw as uniform_int(0, n - 1), so either spelling gives a seed the same stream.
size_t Rng::below(size_t n) {
  return static_cast<size_t>(uniform_int(0, static_cast<int64_t>(n) - 1));
}

Rng Rng::fork(uint64_t salt) {
  return Rng(mix_seed(next_u64(), salt));
}

uint64_t mix_seed(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b * 0x9e3779b97f4a7c15ull);
  return splitmix64(x);
}

uint64_t stable_hash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace retort
