// Index arithmetic over shapes: broadcasting iteration, (un)ravelling, the offsets of a
// sub-box and the split of a shape into kept and selected axes. Kernels use these instead of
// re-deriving index arithmetic per element.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/tensor/tensor.h"

namespace retort {

// Calls f(out_index, in_offsets) for every element of `out`, where in_offsets[k] is the flat
// offset of the element of input k that broadcasts to it.
void for_each_broadcast(const Shape& out, const std::vector<const Shape*>& in_shapes,
                        const std::function<void(int64_t, const int64_t*)>& f);

// Unravels a flat index into a multi-index for shape s.
void unravel(int64_t flat, const Shape& s, std::vector<int64_t>& index);
int64_t ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& strides);

// Offsets of every multi-index of `shape` (row-major order) under the given strides, which may
// be broadcast (0) or summed for repeated axes. Reductions, batched products and einsum use it to
// precompute the sub-box they walk instead of re-deriving index arithmetic per element.
std::vector<int64_t> offsets_over(const Shape& shape, const std::vector<int64_t>& strides);

// The axes of a shape split into kept and selected ones. `kept` holds the offset of every index of
// the kept axes (row-major over them, which is also the order of a reduction's output) and
// `selected` the offset of every index of the selected axes, so that element (o, r) of the split
// sits at kept[o] + selected[r].
struct AxisSplit {
  std::vector<int64_t> kept, selected;
};
AxisSplit split_axes(const Shape& shape, const std::vector<bool>& selected);

}  // namespace retort
