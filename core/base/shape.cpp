#include "core/base/shape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::string shape_str(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ",")); }

std::vector<int64_t> strides_of(const Shape& s) {
  std::vector<int64_t> st(s.size());
  int64_t acc = 1;
  for (size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i];
  }
  return st;
}

bool broadcastable(const Shape& a, const Shape& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    int64_t x = a[a.size() - 1 - i], y = b[b.size() - 1 - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (!broadcastable(a, b))
    fail("shapes {} and {} do not broadcast", shape_str(a), shape_str(b));
  Shape out(std::max(a.size(), b.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

std::vector<int64_t> broadcast_strides(const Shape& from, const Shape& to) {
  std::vector<int64_t> own = strides_of(from);
  std::vector<int64_t> out(to.size(), 0);
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) out[offset + i] = from[i] == 1 ? 0 : own[i];
  return out;
}

int64_t normalize_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    fail("axis {} is out of range for rank {}", axis, rank);
  return axis < 0 ? axis + rank : axis;
}

}  // namespace retort
