#include "core/ops/conv_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace retort {

namespace {

// Four doubles: GCC's vector extension, compiled to AVX2 in the clone that has it and to SSE2
// pairs otherwise. Only lane-wise + and * are used, never a fused multiply-add (no clone enables
// FMA), so each lane rounds exactly as the scalar loop does.
using v4d = double __attribute__((vector_size(32)));
// The helpers that take or return v4d are inlined into the clones, so the ABI of passing one by
// value (which differs with and without AVX) never applies.
#pragma GCC diagnostic ignored "-Wpsabi"

[[gnu::always_inline]] inline v4d load4(const double* p) {
  v4d v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Four filter weights kept as float (exact for f16 and f32 models: half the memory traffic).
using v4f = float __attribute__((vector_size(16)));
[[gnu::always_inline]] inline v4d load4(const float* p) {
  v4f v;
  std::memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, v4d);
}

[[gnu::always_inline]] inline v4d splat(double x) {
  return v4d{x, x, x, x};
}

// Consecutive output positions along the last axis whose in-input taps are the same range, at
// most `cap` of them: they share one pass over the taps.
int64_t run_length(const AxisTaps& a, int64_t o, int64_t cap) {
  int64_t p = 1;
  while (p < cap && o + p < a.out && a.lo[o + p] == a.lo[o] && a.hi[o + p] == a.hi[o]) ++p;
  return p;
}

struct Loops {
  const AxisTaps* ax;
  int64_t in1, in2, k1, k2, img, taps, cg;
  int64_t step2;              // the stride along the last axis: how far apart its positions read
  const int64_t* tap_offset;  // [tap]: where it reads relative to tap 0, all taps inside
};

// Filter-blocked: NB blocks of 8 filters (two vectors of lanes each, `wstride` apart in the
// packed weights) times P positions of one output row, written to y (the output rows of the first
// filter onward, `nf` filters in all) with the bias. Each lane sums one output element over
// channel, tap 0, tap 1, tap 2 in order. The P positions share their taps' ranges, and position q
// reads the input `step` elements after position q - 1. When every tap of the window is inside
// the input (kFull), the three tap loops are one loop over the taps in the same order, reading
// the input at precomputed offsets. NB * P is at most 4: 8 independent accumulators, which keep
// the adds' latency hidden and fit the registers.
template <typename W, int NB, int P, bool kFull>
[[gnu::always_inline]] inline void filter_block(const Loops& L, const double* xg, const W* wb,
                                                int64_t wstride, int64_t o0, int64_t o1, int64_t o2,
                                                double* y, int64_t outs, int64_t pos,
                                                const double* bias, int64_t nf) {
  constexpr int64_t B = ConvKernel::kBlock;
  const AxisTaps &a0 = L.ax[0], &a1 = L.ax[1], &a2 = L.ax[2];
  const int64_t step = L.step2;
  v4d acc[NB][P][2];
#pragma GCC unroll 4
  for (int j = 0; j < NB; ++j)
#pragma GCC unroll 4
    for (int q = 0; q < P; ++q) acc[j][q][0] = acc[j][q][1] = splat(0.0);
  const int64_t* c2 = a2.coord.data() + o2 * L.k2;
  // One tap: the weights at w (block j at w + j * wstride), the inputs at x + q * step.
  auto tap = [&](const W* w, const double* x) {
  // Unrolled, so that the accumulators live in registers.
#pragma GCC unroll 4
    for (int j = 0; j < NB; ++j) {
      v4d w0 = load4(w + j * wstride), w1 = load4(w + j * wstride + 4);
#pragma GCC unroll 4
      for (int q = 0; q < P; ++q) {
        v4d xv = splat(x[q * step]);
        acc[j][q][0] = acc[j][q][0] + xv * w0;
        acc[j][q][1] = acc[j][q][1] + xv * w1;
      }
    }
  };
  if constexpr (kFull) {
    const double* xb =
        xg + (a0.coord[o0 * a0.kernel] * L.in1 + a1.coord[o1 * a1.kernel]) * L.in2 + c2[0];
    for (int64_t c = 0; c < L.cg; ++c) {
      const double* xc = xb + c * L.img;
      const W* wc = wb + c * L.taps * B;
      for (int64_t t = 0; t < L.taps; ++t) tap(wc + t * B, xc + L.tap_offset[t]);
    }
  } else {
    const int64_t t2_lo = a2.lo[o2], t2_hi = a2.hi[o2];
    for (int64_t c = 0; c < L.cg; ++c) {
      const double* xc = xg + c * L.img;
      const W* wc = wb + c * L.taps * B;
      for (int64_t t0 = a0.lo[o0]; t0 < a0.hi[o0]; ++t0) {
        int64_t i0 = a0.coord[o0 * a0.kernel + t0];
        for (int64_t t1 = a1.lo[o1]; t1 < a1.hi[o1]; ++t1) {
          int64_t i1 = a1.coord[o1 * a1.kernel + t1];
          const double* xrow = xc + (i0 * L.in1 + i1) * L.in2;
          const W* wrow = wc + (t0 * L.k1 + t1) * L.k2 * B;
          for (int64_t t2 = t2_lo; t2 < t2_hi; ++t2) tap(wrow + t2 * B, xrow + c2[t2]);
        }
      }
    }
  }
  for (int j = 0; j < NB; ++j)
    for (int q = 0; q < P; ++q)
      for (int64_t l = 0; l < B && j * B + l < nf; ++l)
        y[(j * B + l) * outs + pos + q] =
            (l < 4 ? acc[j][q][0][l] : acc[j][q][1][l - 4]) + bias[j * B + l];
}

// One run of P positions, full window or not.
template <typename W, int NB, int P>
[[gnu::always_inline]] inline void filter_run(bool full, const Loops& L, const double* xg,
                                              const W* wb, int64_t wstride, int64_t o0, int64_t o1,
                                              int64_t o2, double* y, int64_t outs, int64_t pos,
                                              const double* bias, int64_t nf) {
  if (full)
    filter_block<W, NB, P, true>(L, xg, wb, wstride, o0, o1, o2, y, outs, pos, bias, nf);
  else
    filter_block<W, NB, P, false>(L, xg, wb, wstride, o0, o1, o2, y, outs, pos, bias, nf);
}

// Every output position of NB blocks of filters, in runs of up to 4 / NB positions.
template <typename W, int NB>
[[gnu::always_inline]] inline void filter_blocks(const Loops& L, const double* xg, const W* wb,
                                                 int64_t wstride, double* y, int64_t outs,
                                                 const double* bias, int64_t nf) {
  const AxisTaps &a0 = L.ax[0], &a1 = L.ax[1], &a2 = L.ax[2];
  for (int64_t o0 = 0; o0 < a0.out; ++o0)
    for (int64_t o1 = 0; o1 < a1.out; ++o1)
      for (int64_t o2 = 0; o2 < a2.out;) {
        int64_t pos = (o0 * a1.out + o1) * a2.out + o2;
        int64_t p = run_length(a2, o2, 4 / NB);
        bool full = a0.hi[o0] - a0.lo[o0] == a0.kernel && a1.hi[o1] - a1.lo[o1] == a1.kernel &&
                    a2.hi[o2] - a2.lo[o2] == a2.kernel;
        auto args = [&](auto run) {
          run(full, L, xg, wb, wstride, o0, o1, o2, y, outs, pos, bias, nf);
        };
        if constexpr (NB == 1) {
          if (p == 4)
            args(filter_run<W, 1, 4>);
          else if (p == 3)
            args(filter_run<W, 1, 3>);
          else if (p == 2)
            args(filter_run<W, 1, 2>);
          else
            args(filter_run<W, 1, 1>);
        } else if constexpr (NB == 2) {
          if (p == 2)
            args(filter_run<W, 2, 2>);
          else
            args(filter_run<W, 2, 1>);
        } else {
          args(filter_run<W, NB, 1>);
        }
        o2 += p;
      }
}

// Position-blocked, for filters that see few channels each (depthwise): F filters (each with its
// input channels at xg[f] and weights at wm[f]), up to four positions of one output row in the
// lanes; F independent sums keep the adds' latency hidden.
template <int F>
[[gnu::always_inline]] inline void position_block(const Loops& L, const double* const (&xg)[F],
                                                  const double* const (&wm)[F], int64_t o0,
                                                  int64_t o1, int64_t o2, int64_t p,
                                                  v4d (&acc)[F]) {
  const AxisTaps &a0 = L.ax[0], &a1 = L.ax[1], &a2 = L.ax[2];
#pragma GCC unroll 4
  for (int f = 0; f < F; ++f) acc[f] = splat(0.0);
  const int64_t* c2 = a2.coord.data() + o2 * L.k2;
  // Lanes past p repeat the last position (their sums are dropped).
  int64_t off[4];
  for (int64_t q = 0; q < 4; ++q) off[q] = (q < p ? q : p - 1) * L.step2;
  for (int64_t c = 0; c < L.cg; ++c)
    for (int64_t t0 = a0.lo[o0]; t0 < a0.hi[o0]; ++t0) {
      int64_t i0 = a0.coord[o0 * a0.kernel + t0];
      for (int64_t t1 = a1.lo[o1]; t1 < a1.hi[o1]; ++t1) {
        int64_t i1 = a1.coord[o1 * a1.kernel + t1];
        int64_t xrow = c * L.img + (i0 * L.in1 + i1) * L.in2;
        int64_t wrow = c * L.taps + (t0 * L.k1 + t1) * L.k2;
        for (int64_t t2 = a2.lo[o2]; t2 < a2.hi[o2]; ++t2) {
#pragma GCC unroll 4
          for (int f = 0; f < F; ++f) {
            const double* xq = xg[f] + xrow + c2[t2];
            v4d xv{xq[off[0]], xq[off[1]], xq[off[2]], xq[off[3]]};
            acc[f] = acc[f] + xv * splat(wm[f][wrow + t2]);
          }
        }
      }
    }
}

struct Run {
  const Loops& L;
  const double *x, *w, *bias;
  const float* wf;
  double* y;
  int64_t n, c, m, group, mg, blocks, outs;
};

// Blocks of filters go together when output rows are short (few positions share a run), so that
// each pass over the taps still has 8 independent sums.
template <typename W>
[[gnu::always_inline]] inline void run_filter_blocks(const Run& r, const W* w) {
  const Loops& L = r.L;
  constexpr int64_t B = ConvKernel::kBlock;
  int64_t row = L.ax[2].out;
  int64_t together = row >= 6 ? 1 : row >= 3 ? 2 : 4;
  int64_t wstride = L.cg * L.taps * B;
  for (int64_t n = 0; n < r.n; ++n)
    for (int64_t g = 0; g < r.group; ++g)
      for (int64_t b = 0; b < r.blocks;) {
        int64_t nb = std::min(together, r.blocks - b);
        int64_t m0 = g * r.mg + b * B;
        int64_t nf = r.mg - b * B;
        const double* xg = r.x + (n * r.c + g * L.cg) * L.img;
        const W* wb = w + (g * r.blocks + b) * wstride;
        double* y = r.y + (n * r.m + m0) * r.outs;
        const double* bias = r.bias + m0;
        if (nb == 4)
          filter_blocks<W, 4>(L, xg, wb, wstride, y, r.outs, bias, nf);
        else if (nb >= 2)
          filter_blocks<W, 2>(L, xg, wb, wstride, y, r.outs, bias, nf), nb = 2;
        else
          filter_blocks<W, 1>(L, xg, wb, wstride, y, r.outs, bias, nf);
        b += nb;
      }
}

[[gnu::target_clones("avx2", "default")]] void run_filter_blocks_f64(const Run& r) {
  run_filter_blocks(r, r.w);
}

[[gnu::target_clones("avx2", "default")]] void run_filter_blocks_f32(const Run& r) {
  run_filter_blocks(r, r.wf);
}

// Every output position of filters m .. m + F - 1 of image n.
template <int F>
[[gnu::always_inline]] inline void position_blocks(const Run& r, int64_t n, int64_t m) {
  const Loops& L = r.L;
  const AxisTaps &a0 = L.ax[0], &a1 = L.ax[1], &a2 = L.ax[2];
  const double* xg[F];
  const double* wm[F];
  for (int f = 0; f < F; ++f) {
    xg[f] = r.x + (n * r.c + (m + f) / r.mg * L.cg) * L.img;
    wm[f] = r.w + (m + f) * L.cg * L.taps;
  }
  double* y = r.y + (n * r.m + m) * r.outs;
  for (int64_t o0 = 0; o0 < a0.out; ++o0)
    for (int64_t o1 = 0; o1 < a1.out; ++o1)
      for (int64_t o2 = 0; o2 < a2.out;) {
        int64_t pos = (o0 * a1.out + o1) * a2.out + o2;
        int64_t p = run_length(a2, o2, 4);
        v4d acc[F];
        position_block<F>(L, xg, wm, o0, o1, o2, p, acc);
        for (int f = 0; f < F; ++f)
          for (int64_t q = 0; q < p; ++q) y[f * r.outs + pos + q] = acc[f][q] + r.bias[m + f];
        o2 += p;
      }
}

[[gnu::target_clones("avx2", "default")]] void run_position_blocks(const Run& r) {
  for (int64_t n = 0; n < r.n; ++n) {
    int64_t m = 0;
    for (; m + 4 <= r.m; m += 4) position_blocks<4>(r, n, m);
    for (; m < r.m; ++m) position_blocks<1>(r, n, m);
  }
}

}  // namespace

ConvKernel::ConvKernel(int64_t n, int64_t c, int64_t m, int64_t group, const Window& w, bool single)
    : single_(single && m * (c / group) * w.kernel[0] * w.kernel[1] * w.kernel[2] > kSingleAbove),
      n_(n),
      c_(c),
      m_(m),
      group_(group),
      cg_(c / group),
      mg_(m / group),
      blocks_((mg_ + kBlock - 1) / kBlock),
      in_{w.in[0], w.in[1], w.in[2]},
      k_{w.kernel[0], w.kernel[1], w.kernel[2]},
      taps_(k_[0] * k_[1] * k_[2]),
      img_(in_[0] * in_[1] * in_[2]),
      outs_(w.out[0] * w.out[1] * w.out[2]),
      step2_(w.strides[2]),
      ax_{axis_taps(w, 0), axis_taps(w, 1), axis_taps(w, 2)} {
  for (int64_t t0 = 0; t0 < k_[0]; ++t0)
    for (int64_t t1 = 0; t1 < k_[1]; ++t1)
      for (int64_t t2 = 0; t2 < k_[2]; ++t2)
        tap_offset_.push_back((t0 * w.dilations[0] * in_[1] + t1 * w.dilations[1]) * in_[2] +
                              t2 * w.dilations[2]);
}

ConvKernel::PackedFilters ConvKernel::pack(const std::vector<double>& w) const {
  PackedFilters p;
  for (int64_t m = 0; m < m_; ++m)
    for (int64_t t = 0; t < taps_; ++t)
      for (int64_t c = 0; c < cg_; ++c)
        if (!std::isfinite(w[(m * cg_ + c) * taps_ + t])) {
          p.nonfinite_taps.resize(m_);
          p.nonfinite_taps[m].push_back(t);
          break;
        }
  if (!blocked()) {
    p.f64 = w;
    return p;
  }
  size_t size = static_cast<size_t>(group_ * blocks_ * cg_ * taps_ * kBlock);
  if (single_)
    p.f32.assign(size, 0.0f);
  else
    p.f64.assign(size, 0.0);
  for (int64_t m = 0; m < m_; ++m) {
    int64_t g = m / mg_, b = m % mg_ / kBlock, lane = m % mg_ % kBlock;
    for (int64_t c = 0; c < cg_; ++c)
      for (int64_t t = 0; t < taps_; ++t) {
        size_t to =
            static_cast<size_t>((((g * blocks_ + b) * cg_ + c) * taps_ + t) * kBlock + lane);
        double v = w[(m * cg_ + c) * taps_ + t];
        if (single_)
          p.f32[to] = static_cast<float>(v);
        else
          p.f64[to] = v;
      }
  }
  return p;
}

std::vector<double> ConvKernel::run(const std::vector<double>& x, const PackedFilters& filters,
                                    const std::vector<double>& bias) const {
  std::vector<double> y(static_cast<size_t>(n_ * m_ * outs_));
  if (y.empty()) return y;
  // No input channels: every sum is empty, so each output is its filter's bias (and the
  // empty input has no storage for the loops below to offset into).
  if (cg_ == 0) {
    for (int64_t n = 0; n < n_; ++n)
      for (int64_t m = 0; m < m_; ++m)
        std::fill_n(y.begin() + (n * m_ + m) * outs_, outs_, bias[static_cast<size_t>(m)]);
    return y;
  }
  Loops L{ax_, in_[1], in_[2], k_[1], k_[2], img_, taps_, cg_, step2_, tap_offset_.data()};
  Run r{L,
        x.data(),
        filters.f64.data(),
        bias.data(),
        filters.f32.data(),
        y.data(),
        n_,
        c_,
        m_,
        group_,
        mg_,
        blocks_,
        outs_};
  if (!blocked())
    run_position_blocks(r);
  else if (single_)
    run_filter_blocks_f32(r);
  else
    run_filter_blocks_f64(r);
  if (!filters.nonfinite_taps.empty()) nan_at_padding(filters, y);
  return y;
}

void ConvKernel::nan_at_padding(const PackedFilters& filters, std::vector<double>& y) const {
  const AxisTaps &a0 = ax_[0], &a1 = ax_[1], &a2 = ax_[2];
  auto inside = [](const AxisTaps& a, int64_t o, int64_t t) { return t >= a.lo[o] && t < a.hi[o]; };
  for (int64_t m = 0; m < m_; ++m)
    for (int64_t t : filters.nonfinite_taps[m]) {
      int64_t t0 = t / (k_[1] * k_[2]), t1 = t / k_[2] % k_[1], t2 = t % k_[2];
      for (int64_t o0 = 0; o0 < a0.out; ++o0)
        for (int64_t o1 = 0; o1 < a1.out; ++o1)
          for (int64_t o2 = 0; o2 < a2.out; ++o2) {
            if (inside(a0, o0, t0) && inside(a1, o1, t1) && inside(a2, o2, t2)) continue;
            int64_t pos = (o0 * a1.out + o1) * a2.out + o2;
            for (int64_t n = 0; n < n_; ++n)
              y[static_cast<size_t>((n * m_ + m) * outs_ + pos)] = NAN;
          }
    }
}

}  // namespace retort
