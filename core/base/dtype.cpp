#include "core/base/dtype.h"

#include <limits>

namespace retort {

namespace {
struct DTypeInfo {
  DType type;
  std::string_view name;
  size_t size;
  int onnx_code;
};
constexpr DTypeInfo kInfo[] = {
    {DType::f32, "f32", 4, 1}, {DType::f64, "f64", 8, 11},    {DType::f16, "f16", 2, 10},
    {DType::i8, "i8", 1, 3},   {DType::u8, "u8", 1, 2},       {DType::i16, "i16", 2, 5},
    {DType::i32, "i32", 4, 6}, {DType::i64, "i64", 8, 7},     {DType::boolean, "bool", 1, 9},
    {DType::bf16, "bf16", 2, 16},
};
const DTypeInfo& info(DType t) { return kInfo[static_cast<size_t>(t)]; }
}  // namespace

std::string_view dtype_name(DType t) { return info(t).name; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& i : kInfo)
    if (i.name == name) return i.type;
  return std::nullopt;
}

size_t dtype_size(DType t) { return info(t).size; }

bool is_float(DType t) {
  return t == DType::f32 || t == DType::f64 || t == DType::f16 || t == DType::bf16;
}

bool is_integer(DType t) { return !is_float(t) && t != DType::boolean; }

bool is_signed(DType t) { return is_float(t) || t == DType::i8 || t == DType::i16 || t == DType::i32 || t == DType::i64; }

int integer_bits(DType t) { return is_integer(t) ? static_cast<int>(dtype_size(t)) * 8 : 0; }

double float_max(DType t) {
  switch (t) {
    case DType::f16:
      return 65504.0;
    case DType::bf16:
      return 0x1.fep127;
    case DType::f32:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

double float_epsilon(DType t) {
  switch (t) {
    case DType::f16:
      return 0x1p-10;
    case DType::bf16:
      return 0x1p-7;
    case DType::f32:
      return std::numeric_limits<float>::epsilon();
    default:
      return std::numeric_limits<double>::epsilon();
  }
}

std::pair<int64_t, int64_t> integer_range(DType t) {
  int bits = integer_bits(t);
  if (bits == 64) return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  if (!is_signed(t)) return {0, (int64_t{1} << bits) - 1};
  return {-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1};
}

int onnx_dtype_code(DType t) { return info(t).onnx_code; }

std::optional<DType> dtype_from_onnx_code(int code) {
  for (const auto& i : kInfo)
    if (i.onnx_code == code) return i.type;
  return std::nullopt;
}

}  // namespace retort
