#include "core/ops/element_values.h"

namespace retort {

int64_t int_lowest(DType t) {
  if (!is_signed(t) || is_float(t)) return 0;
  return integer_bits(t) == 64 ? std::numeric_limits<int64_t>::min()
                               : -(int64_t{1} << (integer_bits(t) - 1));
}

int64_t int_highest(DType t) {
  if (t == DType::boolean) return 1;
  if (is_float(t)) return 0;
  int bits = integer_bits(t) - (is_signed(t) ? 1 : 0);
  return bits == 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << bits) - 1;
}

std::vector<double> read_doubles(const Tensor& t) {
  // f32 and f64 straight from the bytes (the heavy kernels read every activation this way);
  // the same values as get(i).
  if (t.dtype() == DType::f32) {
    const float* p = t.data<float>();
    return std::vector<double>(p, p + t.numel());
  }
  if (t.dtype() == DType::f64) {
    const double* p = t.data<double>();
    return std::vector<double>(p, p + t.numel());
  }
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get(i);
  return v;
}

std::vector<int64_t> read_ints(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get_int(i);
  return v;
}

Tensor tensor_from(const TensorType& type, const std::vector<double>& values) {
  if (type.dtype != DType::f32) return Tensor::from_doubles(type.dtype, type.shape, values);
  Tensor t(type);
  if (static_cast<int64_t>(values.size()) != t.numel())
    return Tensor::from_doubles(type.dtype, type.shape, values);  // its error
  float* p = t.data<float>();                                     // rounded as set(i, v) rounds
  for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<float>(values[i]);
  return t;
}

Tensor tensor_from(const TensorType& type, const std::vector<int64_t>& values) {
  return Tensor::from_ints(type.dtype, type.shape, values);
}

}  // namespace retort
