// Static tensor shapes and numpy/ONNX broadcasting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace retort {

using Shape = std::vector<int64_t>;

inline constexpr size_t kMaxRank = 6;

int64_t numel(const Shape& s);
std::string shape_str(const Shape& s);  // "[1,2,3]"; "[]" for a scalar

// Row-major strides in elements.
std::vector<int64_t> strides_of(const Shape& s);

// The broadcast shape of a and b, or throws Error naming both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b);
bool broadcastable(const Shape& a, const Shape& b);

// Strides of `from` seen through the broadcast target shape `to` (0 where broadcast).
std::vector<int64_t> broadcast_strides(const Shape& from, const Shape& to);

// Normalises a possibly negative axis against rank, or throws Error.
int64_t normalize_axis(int64_t axis, int64_t rank);

}  // namespace retort
