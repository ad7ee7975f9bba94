#include "core/tensor/value_budget.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

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

namespace {

std::atomic<uint64_t> g_test_budget{0};

uint64_t machine_budget() {
  static const uint64_t budget = [] {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    uint64_t memory = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * page : 0;
    return std::max(memory / 2, kValueByteBudget);
  }();
  return budget;
}

}  // namespace

uint64_t total_value_budget() {
  uint64_t test = g_test_budget.load(std::memory_order_relaxed);
  return test ? test : machine_budget();
}

void set_total_value_budget(uint64_t bytes) {
  g_test_budget.store(bytes, std::memory_order_relaxed);
}

void check_total_value_budget(uint64_t bytes) {
  if (bytes <= total_value_budget()) return;
  // The budget depends on the machine, so the message gives the values' size and says how the
  // budget is set rather than a number that differs between machines.
  fail(
      "the values of a run take {:.1f} GiB together, over the memory budget for all values "
      "together (half this machine's memory)",
      static_cast<double>(bytes) / (1u << 30));
}

}  // namespace retort
