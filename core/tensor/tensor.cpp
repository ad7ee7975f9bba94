#include "core/tensor/tensor.h"

#include <cmath>
#include <limits>

#include "core/base/bfloat16.h"
#include "core/base/error.h"
#include "core/base/half.h"
#include "core/tensor/value_budget.h"

namespace retort {

size_t TensorTypeHash::operator()(const TensorType& t) const noexcept {
  size_t h = static_cast<size_t>(t.dtype) * 0x9e3779b97f4a7c15ull;
  for (int64_t d : t.shape) h = (h ^ static_cast<size_t>(d)) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 31);
}

std::string TensorType::str() const {
  return std::string(dtype_name(dtype)) + shape_str(shape);
}

Tensor::Tensor(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
  if (shape_.size() > kMaxRank)
    fail("rank {} exceeds the maximum rank {}", shape_.size(), kMaxRank);
  for (auto d : shape_)
    if (d < 0) fail("negative dimension in shape {}", shape_str(shape_));
  check_value_budget(dtype_, shape_);  // before the element count, which could overflow
  numel_ = retort::numel(shape_);
  data_.assign(static_cast<size_t>(numel_) * dtype_size(dtype), 0);
}

Tensor Tensor::scalar(DType dtype, double value) {
  Tensor t(dtype, {});
  t.set(0, value);
  return t;
}

Tensor Tensor::from_doubles(DType dtype, Shape shape, const std::vector<double>& values) {
  Tensor t(dtype, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.numel())
    fail("{} values given for a tensor of {} elements", values.size(), t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, values[i]);
  return t;
}

Tensor Tensor::from_ints(DType dtype, Shape shape, const std::vector<int64_t>& values) {
  Tensor t(dtype, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.numel())
    fail("{} values given for a tensor of {} elements", values.size(), t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, values[i]);
  return t;
}

double Tensor::get(int64_t i) const {
  switch (dtype_) {
    case DType::f32:
      return data<float>()[i];
    case DType::f64:
      return data<double>()[i];
    case DType::f16:
      return half_to_float(data<uint16_t>()[i]);
    case DType::bf16:
      return bfloat16_to_float(data<uint16_t>()[i]);
    case DType::i8:
      return data<int8_t>()[i];
    case DType::u8:
      return data<uint8_t>()[i];
    case DType::i16:
      return data<int16_t>()[i];
    case DType::i32:
      return data<int32_t>()[i];
    case DType::i64:
      return static_cast<double>(data<int64_t>()[i]);
    case DType::boolean:
      return data<uint8_t>()[i] ? 1.0 : 0.0;
  }
  return 0;
}

int64_t Tensor::get_int(int64_t i) const {
  switch (dtype_) {
    case DType::i8:
      return data<int8_t>()[i];
    case DType::u8:
      return data<uint8_t>()[i];
    case DType::i16:
      return data<int16_t>()[i];
    case DType::i32:
      return data<int32_t>()[i];
    case DType::i64:
      return data<int64_t>()[i];
    case DType::boolean:
      return data<uint8_t>()[i] ? 1 : 0;
    default:
      return double_to_wrapped_int(get(i), DType::i64);
  }
}

void Tensor::set(int64_t i, double v) {
  switch (dtype_) {
    case DType::f32:
      data<float>()[i] = static_cast<float>(v);
      return;
    case DType::f64:
      data<double>()[i] = v;
      return;
    case DType::f16:
      data<uint16_t>()[i] = float_to_half(static_cast<float>(v));
      return;
    case DType::bf16:
      data<uint16_t>()[i] = float_to_bfloat16(static_cast<float>(v));
      return;
    case DType::boolean:
      data<uint8_t>()[i] = v != 0.0 ? 1 : 0;
      return;
    default:
      set_int(i, double_to_wrapped_int(v, dtype_));
      return;
  }
}

void Tensor::set_int(int64_t i, int64_t v) {
  switch (dtype_) {
    case DType::i8:
      data<int8_t>()[i] = static_cast<int8_t>(v);
      return;
    case DType::u8:
      data<uint8_t>()[i] = static_cast<uint8_t>(v);
      return;
    case DType::i16:
      data<int16_t>()[i] = static_cast<int16_t>(v);
      return;
    case DType::i32:
      data<int32_t>()[i] = static_cast<int32_t>(v);
      return;
    case DType::i64:
      data<int64_t>()[i] = v;
      return;
    case DType::boolean:
      data<uint8_t>()[i] = v != 0 ? 1 : 0;
      return;
    default:
      set(i, static_cast<double>(v));
      return;
  }
}

Tensor Tensor::reshaped(Shape shape) const {
  if (retort::numel(shape) != numel_)
    fail("cannot reshape {} elements into {}", numel_, shape_str(shape));
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::cast(DType to) const {
  Tensor out(to, shape_);
  bool exact_int = !is_float(dtype_) && !is_float(to);
  for (int64_t i = 0; i < numel_; ++i) {
    if (exact_int)
      out.set_int(i, get_int(i));
    else
      out.set(i, get(i));
  }
  return out;
}

int64_t wrap_int(int64_t v, DType dtype) {
  switch (dtype) {
    case DType::i8:
      return static_cast<int8_t>(v);
    case DType::u8:
      return static_cast<uint8_t>(v);
    case DType::i16:
      return static_cast<int16_t>(v);
    case DType::i32:
      return static_cast<int32_t>(v);
    case DType::boolean:
      return v != 0;
    default:
      return v;
  }
}

int64_t double_to_wrapped_int(double v, DType dtype) {
  if (std::isnan(v)) return 0;
  v = std::trunc(v);
  // Saturate to int64 first (a C++ cast of an out-of-range double is undefined), then wrap.
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  int64_t as_int;
  if (v >= kLimit)
    as_int = std::numeric_limits<int64_t>::max();
  else if (v < -kLimit)
    as_int = std::numeric_limits<int64_t>::min();
  else
    as_int = static_cast<int64_t>(v);
  return wrap_int(as_int, dtype);
}

}  // namespace retort
