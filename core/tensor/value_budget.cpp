#include "core/tensor/value_budget.h"

#include "core/base/error.h"

namespace retort {

std::optional<uint64_t> value_bytes(DType dtype, const Shape& shape) {
  uint64_t bytes = dtype_size(dtype);
  for (int64_t d : shape) {
    if (d <= 0) return 0;
    // Divide instead of multiplying so that the check itself cannot overflow.
    if (bytes > UINT64_MAX / static_cast<uint64_t>(d)) return std::nullopt;
    bytes *= static_cast<uint64_t>(d);
  }
  return bytes;
}

void check_value_budget(DType dtype, const Shape& shape) {
  std::optional<uint64_t> bytes = value_bytes(dtype, shape);
  if (bytes && *bytes <= kValueByteBudget) return;
  std::string size = bytes ? fmt::format("{:.1f} GiB", static_cast<double>(*bytes) / (1u << 30))
                           : std::string("more than 2^64 bytes");
  fail("a value of {}{} takes {}, over the memory budget of {} GiB per value", dtype_name(dtype),
       shape_str(shape), size, kValueByteBudget >> 30);
}

}  // namespace retort
