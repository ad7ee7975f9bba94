// Data movement: kernels that copy elements without computing on them.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor/tensor.h"

namespace retort {

// These copy elements as raw bytes (dtype_size each), so they are exact for every dtype and never
// round through double. Offsets and strides count elements. Both throw Error if an offset would
// fall outside src or dst (a bug in the caller's plan, reported instead of corrupting memory).

// For every multi-index i over `extent`:
//   dst[dst_base + sum_d i_d * dst_strides[d]] = src[src_base + sum_d i_d * src_strides[d]].
// Strides may be zero (broadcast) or negative (reversed slices).
void copy_strided(const Tensor& src, int64_t src_base, const std::vector<int64_t>& src_strides,
                  Tensor& dst, int64_t dst_base, const std::vector<int64_t>& dst_strides,
                  const Shape& extent);

// Fills dst in row-major order over the extent [offsets[0].size(), offsets[1].size(), ...]
// (whose element count must be dst.numel()): the element at multi-index i comes from
// src[sum_d offsets[d][i_d]]. A negative entry in any offsets[d] leaves that element of dst as
// it was (pad uses this for the constant border).
void copy_by_offsets(const Tensor& src, const std::vector<std::vector<int64_t>>& offsets,
                     Tensor& dst);

// Sets every element of t to element 0 of value (same dtype), bytewise.
void fill_with(Tensor& t, const Tensor& value);

}  // namespace retort
