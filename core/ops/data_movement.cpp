// Bytewise element movement for the data-movement kernels.
#include <algorithm>
#include <cstring>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"


namespace retort {

namespace {

// The lowest and highest offset base + i·strides reaches over a non-empty extent.
void check_reach(int64_t base, const std::vector<int64_t>& strides, const Shape& extent,
                 int64_t size, const char* which) {
  if (strides.size() != extent.size())
    fail("internal: {} has {} strides for an extent of rank {}", which, strides.size(),
         extent.size());
  int64_t lo = base, hi = base;
  for (size_t d = 0; d < extent.size(); ++d) {
    int64_t span = checked_mul(strides[d], extent[d] - 1);
    (span < 0 ? lo : hi) = checked_add(span < 0 ? lo : hi, span);
  }
  if (lo < 0 || hi >= size)
    fail("internal: {} offsets [{}, {}] fall outside a tensor of {} elements", which, lo, hi, size);
}

template <size_t N>
void strided_loop(const uint8_t* src, int64_t so, const int64_t* ss, uint8_t* dst, int64_t dof,
                  const int64_t* ds, const Shape& extent) {
  size_t r = extent.size();
  if (r == 0) {
    std::memcpy(dst + dof * N, src + so * N, N);
    return;
  }
  int64_t inner = extent[r - 1], si = ss[r - 1], di = ds[r - 1];
  std::vector<int64_t> index(r, 0);
  // An odometer over the outer dimensions; the innermost runs as a tight loop.
  for (;;) {
    int64_t s = so, d = dof;
    for (int64_t k = 0; k < inner; ++k, s += si, d += di) std::memcpy(dst + d * N, src + s * N, N);
    size_t dim = r - 1;
    for (;;) {
      if (dim == 0) return;
      --dim;
      if (++index[dim] < extent[dim]) {
        so += ss[dim];
        dof += ds[dim];
        break;
      }
      so -= ss[dim] * (extent[dim] - 1);
      dof -= ds[dim] * (extent[dim] - 1);
      index[dim] = 0;
    }
  }
}

template <size_t N>
void offsets_loop(const uint8_t* src, const std::vector<std::vector<int64_t>>& offsets,
                  uint8_t* dst) {
  size_t r = offsets.size();
  if (r == 0) {
    std::memcpy(dst, src, N);
    return;
  }
  const std::vector<int64_t>& last = offsets[r - 1];
  int64_t inner = static_cast<int64_t>(last.size());
  std::vector<size_t> index(r - 1, 0);
  int64_t out = 0;
  for (;;) {
    int64_t base = 0;
    bool skip = false;
    for (size_t d = 0; d + 1 < r; ++d) {
      int64_t o = offsets[d][index[d]];
      if (o < 0) skip = true;
      base += o;
    }
    if (!skip)
      for (int64_t k = 0; k < inner; ++k)
        if (last[k] >= 0) std::memcpy(dst + (out + k) * N, src + (base + last[k]) * N, N);
    out += inner;
    size_t dim = r - 1;
    for (;;) {
      if (dim == 0) return;
      --dim;
      if (++index[dim] < offsets[dim].size()) break;
      index[dim] = 0;
    }
  }
}

template <template <size_t> class Loop, typename... Args>
void by_element_size(size_t n, Args&&... args) {
  switch (n) {
    case 1:
      return Loop<1>::run(std::forward<Args>(args)...);
    case 2:
      return Loop<2>::run(std::forward<Args>(args)...);
    case 4:
      return Loop<4>::run(std::forward<Args>(args)...);
    case 8:
      return Loop<8>::run(std::forward<Args>(args)...);
  }
  fail("internal: no element copy for {}-byte elements", n);
}

template <size_t N>
struct StridedLoop {
  template <typename... Args>
  static void run(Args&&... args) {
    strided_loop<N>(std::forward<Args>(args)...);
  }
};

template <size_t N>
struct OffsetsLoop {
  template <typename... Args>
  static void run(Args&&... args) {
    offsets_loop<N>(std::forward<Args>(args)...);
  }
};

void require_same_dtype(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    fail("internal: copying {} elements into a {} tensor", dtype_name(a.dtype()),
         dtype_name(b.dtype()));
}

}  // namespace

void copy_strided(const Tensor& src, int64_t src_base, const std::vector<int64_t>& src_strides,
                  Tensor& dst, int64_t dst_base, const std::vector<int64_t>& dst_strides,
                  const Shape& extent) {
  require_same_dtype(src, dst);
  if (checked_numel(extent) == 0) return;
  check_reach(src_base, src_strides, extent, src.numel(), "source");
  check_reach(dst_base, dst_strides, extent, dst.numel(), "destination");
  by_element_size<StridedLoop>(dtype_size(src.dtype()), src.bytes(), src_base, src_strides.data(),
                               dst.bytes(), dst_base, dst_strides.data(), extent);
}

void copy_by_offsets(const Tensor& src, const std::vector<std::vector<int64_t>>& offsets,
                     Tensor& dst) {
  require_same_dtype(src, dst);
  Shape extent;
  int64_t reach = 0;
  bool reads = true;  // false when some axis has no source entry at all
  for (const auto& axis : offsets) {
    extent.push_back(static_cast<int64_t>(axis.size()));
    int64_t most = -1;
    for (int64_t o : axis) most = std::max(most, o);
    if (most < 0) reads = false;
    reach = checked_add(reach, std::max<int64_t>(most, 0));
  }
  if (checked_numel(extent) != dst.numel())
    fail("internal: an extent of {} elements fills a tensor of {}", checked_numel(extent),
         dst.numel());
  if (dst.numel() == 0 || !reads) return;
  if (reach >= src.numel())
    fail("internal: source offset {} falls outside a tensor of {} elements", reach, src.numel());
  by_element_size<OffsetsLoop>(dtype_size(src.dtype()), src.bytes(), offsets, dst.bytes());
}

void fill_with(Tensor& t, const Tensor& value) {
  require_same_dtype(value, t);
  if (value.numel() < 1) fail("internal: fill value is empty");
  size_t n = dtype_size(t.dtype());
  for (int64_t i = 0; i < t.numel(); ++i) std::memcpy(t.bytes() + i * n, value.bytes(), n);
}

}  // namespace retort
