// The convolution loop nest of the reference kernel (op `conv`), blocked and vectorised: each
// output element is still the double sum, in the order channel, tap 0, tap 1, tap 2, of the
// products of the taps that fall inside the input (padding taps are skipped, not added as zero),
// plus the bias, so results are bit for bit those of the plain loop nest (docs/reference.md).
// Skipping is exact except for a weight that is not finite, whose product with a padding zero
// is NaN (as ONNX's reference and runtimes compute it): such outputs are set to NaN afterwards.
// Vector lanes hold different output elements, never parts of one sum.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ops/conv_geometry.h"

namespace retort {

class ConvKernel {
 public:
  // x [n, c, in...], filters [m, c/group, kernel...] over a window lifted to three spatial axes.
  // `single`: every weight is a float value (f16 and f32 models), so the packed filters may keep
  // them as float, exactly. They do past kSingleAbove weights, where reading them from memory
  // is what takes the time (half the bytes); smaller ones stay in the caches as doubles, which
  // need no conversion per load.
  ConvKernel(int64_t n, int64_t c, int64_t m, int64_t group, const Window& lifted, bool single);

  // The filters as run() reads them (filter blocks interleaved), in f32 or f64 (one is empty).
  struct PackedFilters {
    std::vector<double> f64;
    std::vector<float> f32;
    // [filter]: the taps (flattened over the three axes) where some channel's weight is not
    // finite; empty when every weight is.
    std::vector<std::vector<int64_t>> nonfinite_taps;
  };
  // Pack once per set of weights.
  PackedFilters pack(const std::vector<double>& w) const;
  // y [n, m, out...] from x [n, c, in...], packed filters and bias [m].
  std::vector<double> run(const std::vector<double>& x, const PackedFilters& filters,
                          const std::vector<double>& bias) const;

  // Filters per block in the packed layout (the vector lanes of one output position).
  static constexpr int64_t kBlock = 8;
  static constexpr int64_t kSingleAbove = int64_t{1} << 20;

 private:
  bool blocked() const { return mg_ >= kBlock / 2; }
  // NaN where a padding tap meets a weight that is not finite (0 * inf).
  void nan_at_padding(const PackedFilters& filters, std::vector<double>& y) const;

  bool single_;
  int64_t n_, c_, m_, group_, cg_, mg_, blocks_;
  int64_t in_[3], k_[3], taps_, img_, outs_, step2_;
  AxisTaps ax_[3];
  std::vector<int64_t> tap_offset_;  // [tap]: input offset from tap 0 (dilations applied)
};

}  // namespace retort
