#include "core/tensor/summary.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace retort {

namespace {

std::string element_text(const Tensor& t, int64_t i) {
  if (t.dtype() == DType::boolean) return t.get_int(i) ? "true" : "false";
  if (is_integer(t.dtype())) return fmt::format("{}", t.get_int(i));
  return fmt::format("{:.6g}", t.get(i));
}

}  // namespace

std::string summarize_tensor(const Tensor& t, int max_values) {
  std::string out = t.type().str();
  if (t.numel() == 0) return out + " (empty)";

  int64_t nans = 0, infs = 0, finite = 0;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.get(i);
    if (std::isnan(v)) {
      ++nans;
    } else if (std::isinf(v)) {
      ++infs;
    } else {
      ++finite;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
  }
  if (finite > 0)
    out += fmt::format(" min={:.6g} max={:.6g} mean={:.6g}", lo, hi,
                       sum / static_cast<double>(finite));
  if (is_float(t.dtype())) out += fmt::format(" nan={} inf={}", nans, infs);

  int64_t shown = std::min<int64_t>(t.numel(), std::max(max_values, 0));
  std::vector<std::string> values;
  for (int64_t i = 0; i < shown; ++i) values.push_back(element_text(t, i));
  if (shown < t.numel()) values.push_back("...");
  return out + fmt::format(" [{}]", fmt::join(values, ", "));
}

}  // namespace retort
