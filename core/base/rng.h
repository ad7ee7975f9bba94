// The one source of randomness. Every random choice in Retort draws from an Rng built from an
// explicit seed; the algorithms are fixed here (not std:: distributions, whose output differs
// between standard libraries) so a seed reproduces a run on any machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <utility>

namespace retort {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t next_u64();                          // xoshiro256**
  double uniform();                             // [0, 1)
  double uniform(double lo, double hi);         // [lo, hi)
  int64_t uniform_int(int64_t lo, int64_t hi);  // [lo, hi], inclusive
  bool coin(double p_true = 0.5);
  size_t below(size_t n);  // [0, n), n > 0

  // A child generator whose stream is independent of this one, for a named sub-task.
  Rng fork(uint64_t salt);

 private:
  uint64_t s_[4];
};

// An element of a non-empty vector, string or array, each equally likely.
template <typename Seq>
const auto& pick_from(Rng& rng, const Seq& items) {
  return items[rng.below(std::size(items))];
}

// Fisher-Yates, in place.
template <typename Seq>
void shuffle(Rng& rng, Seq& items) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(i)]);
}

// Mixes two values into a seed (splitmix64 finaliser), for deriving per-purpose seeds.
uint64_t mix_seed(uint64_t a, uint64_t b);

// A hash of a name that is the same on every machine and build (FNV-1a), for seeds derived from
// names: unlike std::hash it does not change between standard libraries.
uint64_t stable_hash(std::string_view text);

}  // namespace retort
