#include "core/io/npy.h"

#include <cstring>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kPreamble = 10;  // magic, two version bytes, the header length

std::string shape_tuple(const Shape& shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

}  // namespace

std::string_view npy_descr(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return "<f4";
    case DType::f64:
      return "<f8";
    case DType::f16:
      return "<f2";
    case DType::bf16:
      return "<V2";  // numpy has no bfloat16: np.save of an ml_dtypes.bfloat16 array writes this
    case DType::i8:
      return "|i1";
    case DType::u8:
      return "|u1";
    case DType::i16:
      return "<i2";
    case DType::i32:
      return "<i4";
    case DType::i64:
      return "<i8";
    case DType::boolean:
      return "|b1";
  }
  return "?";
}

std::string write_npy(const Tensor& t) {
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   npy_descr(t.dtype()), shape_tuple(t.shape()));
  // The header ends in '\n' and the data starts at a multiple of 64 bytes.
  size_t total = kPreamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(t.bytes()), t.nbytes());
  return out;
}

Tensor read_npy(std::string_view bytes, const std::string& file) {
  auto bad = [&](std::string_view why) { fail("{}: not a .npy file Retort reads: {}", file, why); };
  if (bytes.size() < kPreamble || bytes.substr(0, kMagic.size()) != kMagic) bad("no magic");
  if (bytes[6] != 1 || bytes[7] != 0) bad("only version 1.0 is read");
  size_t len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  if (bytes.size() < kPreamble + len) bad("the header is cut short");
  std::string_view header = bytes.substr(kPreamble, len);
  std::optional<DType> dtype;
  for (DType d : kAllDTypes)
    if (header.find(fmt::format("'descr': '{}'", npy_descr(d))) != std::string_view::npos)
      dtype = d;
  if (!dtype) bad("unknown descr");
  if (header.find("'fortran_order': False") == std::string_view::npos) bad("Fortran order");
  size_t open = header.find("'shape': (");
  size_t close = header.find(')', open);
  if (open == std::string_view::npos || close == std::string_view::npos) bad("no shape");
  Shape shape;
  std::string_view dims = header.substr(open + 10, close - open - 10);
  while (!dims.empty()) {
    size_t comma = dims.find(',');
    std::string_view dim = dims.substr(0, comma);
    while (!dim.empty() && dim.front() == ' ') dim.remove_prefix(1);
    if (!dim.empty()) {
      int64_t v = 0;
      for (char c : dim) {
        if (c < '0' || c > '9') bad("a dimension is not a number");
        v = v * 10 + (c - '0');
        if (v > (int64_t(1) << 40)) bad("a dimension is too large");
      }
      shape.push_back(v);
    }
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
  }
  size_t data_size = bytes.size() - kPreamble - len, numel = 1;
  for (int64_t d : shape) {
    numel *= static_cast<size_t>(d);
    if (numel * dtype_size(*dtype) > data_size) bad("the data is shorter than the shape");
  }
  if (numel * dtype_size(*dtype) != data_size) bad("the data size does not match the shape");
  Tensor t(*dtype, shape);
  std::memcpy(t.bytes(), bytes.data() + kPreamble + len, t.nbytes());
  return t;
}

}  // namespace retort
