// A dense, row-major tensor with a static shape and one of Retort's dtypes.
//
// Storage is raw little-endian bytes in the dtype's own width, so a tensor round-trips exactly
// through ONNX, .npy and the backend protocol. Kernels read and write elements through get/set
// (as double) or get_int/set_int (as int64): every float dtype is exactly representable in
// double and every integer dtype in int64, so no value is lost, and set() performs the one
// rounding (or two's-complement wrap) into the element type.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/shape.h"

namespace retort {

struct TensorType {
  DType dtype = DType::f32;
  Shape shape;

  bool operator==(const TensorType&) const = default;
  std::string str() const;  // "f32[1,2,3]"
};

struct TensorTypeHash {
  size_t operator()(const TensorType& t) const noexcept;
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(DType dtype, Shape shape);  // zero-filled
  explicit Tensor(const TensorType& type) : Tensor(type.dtype, type.shape) {}

  static Tensor scalar(DType dtype, double value);
  static Tensor from_doubles(DType dtype, Shape shape, const std::vector<double>& values);
  static Tensor from_ints(DType dtype, Shape shape, const std::vector<int64_t>& values);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  TensorType type() const { return {dtype_, shape_}; }
  int64_t numel() const { return numel_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }

  double get(int64_t i) const;
  int64_t get_int(int64_t i) const;  // floats truncate toward zero (NaN reads as 0)
  void set(int64_t i, double v);
  void set_int(int64_t i, int64_t v);

  // Same elements, new shape of the same element count.
  Tensor reshaped(Shape shape) const;
  // Element-by-element conversion to another dtype (ONNX Cast semantics, see docs).
  Tensor cast(DType to) const;

  const uint8_t* bytes() const { return data_.data(); }
  uint8_t* bytes() { return data_.data(); }
  size_t nbytes() const { return data_.size(); }

  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(data_.data());
  }
  template <typename T>
  T* data() {
    return reinterpret_cast<T*>(data_.data());
  }

  // Bit-for-bit equality of dtype, shape and bytes (NaN equals the same NaN).
  bool operator==(const Tensor& o) const {
    return dtype_ == o.dtype_ && shape_ == o.shape_ && data_ == o.data_;
  }

 private:
  DType dtype_ = DType::f32;
  Shape shape_;
  int64_t numel_ = 1;
  std::vector<uint8_t> data_ = std::vector<uint8_t>(4, 0);
};

// Converts a double into an integer dtype's value the way Retort defines it: truncate toward
// zero, then wrap modulo 2^bits; NaN becomes 0 and infinities saturate before wrapping.
int64_t double_to_wrapped_int(double v, DType dtype);
// Wraps an int64 into the range of an integer dtype (two's complement); bool becomes 0/1.
int64_t wrap_int(int64_t v, DType dtype);

}  // namespace retort
