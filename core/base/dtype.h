// Element types of tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace retort {

// bf16 comes last so that the numbers of the older dtypes stay as they were.
enum class DType : uint8_t { f32, f64, f16, i8, u8, i16, i32, i64, boolean, bf16 };

inline constexpr DType kAllDTypes[] = {DType::f32, DType::f64,    DType::f16, DType::bf16,
                                       DType::i8,  DType::u8,     DType::i16, DType::i32,
                                       DType::i64, DType::boolean};
// The dtypes that random graphs draw unless told otherwise (`--dtypes`): every one but bf16, which
// is drawn when named, so that a seed draws the graphs it drew before bf16 existed.
inline constexpr DType kDefaultDrawnDTypes[] = {DType::f32, DType::f64, DType::f16,
                                                DType::i8,  DType::u8,  DType::i16,
                                                DType::i32, DType::i64, DType::boolean};

std::string_view dtype_name(DType t);             // "f32", ..., "bool"
std::optional<DType> parse_dtype(std::string_view name);
size_t dtype_size(DType t);                       // bytes per element
bool is_float(DType t);
bool is_integer(DType t);                         // signed or unsigned, not bool
bool is_signed(DType t);                          // floats and signed integers
int integer_bits(DType t);                        // 8..64 for integers, 0 otherwise

// The largest finite value of a float dtype (65504 for f16, about 3.39e38 for bf16).
double float_max(DType t);
// The distance from 1 to the next value of a float dtype (2^-7 for bf16, 2^-10 for f16, 2^-23
// for f32, 2^-52 for f64): a value x of t is known to about |x| * float_epsilon(t).
double float_epsilon(DType t);
// An integer dtype's lowest and highest values.
std::pair<int64_t, int64_t> integer_range(DType t);

// ONNX TensorProto.DataType numbers, kept here so that core/io and dtype attributes agree.
int onnx_dtype_code(DType t);
std::optional<DType> dtype_from_onnx_code(int code);

}  // namespace retort
