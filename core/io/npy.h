// NumPy .npy files (format version 1.0), so that inputs and expected outputs load in numpy and
// in the reproducer scripts without Retort.
#pragma once

#include <string>
#include <string_view>

#include "core/tensor/tensor.h"

namespace retort {

// The little-endian dtype descr numpy uses: "<f4", "<i8", "|b1", ...
std::string_view npy_descr(DType dtype);
// The whole file: magic, version 1.0, the header dict padded to 64 bytes, then the data in
// row-major (C) order.
std::string write_npy(const Tensor& t);
// Parses a file write_npy wrote (v1.0, C order, a descr of npy_descr); throws Error otherwise.
Tensor read_npy(std::string_view bytes, const std::string& file = "");

}  // namespace retort
