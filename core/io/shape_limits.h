// Limits on the tensor shapes a graph file may declare, so that a hostile or mistyped file gives
// an error instead of an overflowing element count or an enormous allocation.
#pragma once

#include <cstdint>

#include "core/base/shape.h"

namespace retort {

inline constexpr int64_t kMaxFileTensorElements = int64_t{1} << 40;  // inputs and node outputs
inline constexpr int64_t kMaxConstantElements = int64_t{1} << 24;    // values stored in the file

// Throws an (unlocated) Error when a dimension is negative, the rank is above kMaxRank or the
// element count is above the limit; the caller adds the location.
void check_declared_shape(const Shape& shape, int64_t max_elements = kMaxFileTensorElements);

}  // namespace retort
