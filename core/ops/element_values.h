// Element values widened for exact computation, tensors made from them, and the lowest and
// highest values of a dtype.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/tensor/tensor.h"

namespace retort {

// Element values widened for exact computation: every float dtype as double, every integer dtype
// (and bool) as int64. Kernels read an input once into one of these and loop over plain arrays.
std::vector<double> read_doubles(const Tensor& t);
std::vector<int64_t> read_ints(const Tensor& t);
template <typename T>
std::vector<T> read_as(const Tensor& t) {
  if constexpr (std::is_same_v<T, double>)
    return read_doubles(t);
  else
    return read_ints(t);
}
// A tensor of the given type holding values (rounded once, or wrapped to the dtype).
Tensor tensor_from(const TensorType& type, const std::vector<double>& values);
Tensor tensor_from(const TensorType& type, const std::vector<int64_t>& values);

// The identities of max and min: the lowest and highest value of a dtype (bool: 0 and 1; floats:
// -inf and +inf in the double form).
int64_t int_lowest(DType t);
int64_t int_highest(DType t);
template <typename T>
T lowest_of(DType t) {
  if constexpr (std::is_same_v<T, double>)
    return is_float(t) ? -std::numeric_limits<double>::infinity()
                       : static_cast<double>(int_lowest(t));
  else
    return int_lowest(t);
}
template <typename T>
T highest_of(DType t) {
  if constexpr (std::is_same_v<T, double>)
    return is_float(t) ? std::numeric_limits<double>::infinity()
                       : static_cast<double>(int_highest(t));
  else
    return int_highest(t);
}

}  // namespace retort
