#include "core/ops/index_space.h"

#include <algorithm>

namespace retort {

void unravel(int64_t flat, const Shape& s, std::vector<int64_t>& index) {
  index.resize(s.size());
  for (size_t i = s.size(); i-- > 0;) {
    index[i] = s[i] == 0 ? 0 : flat % s[i];
    flat = s[i] == 0 ? 0 : flat / s[i];
  }
}

int64_t ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) off += index[i] * strides[i];
  return off;
}

std::vector<int64_t> offsets_over(const Shape& shape, const std::vector<int64_t>& strides) {
  std::vector<int64_t> out{0};
  // Built from the outermost axis in: each axis multiplies the list by its extent.
  for (size_t d = 0; d < shape.size(); ++d) {
    std::vector<int64_t> next;
    next.reserve(out.size() * static_cast<size_t>(shape[d]));
    for (int64_t base : out)
      for (int64_t i = 0; i < shape[d]; ++i) next.push_back(base + i * strides[d]);
    out = std::move(next);
  }
  return out;
}

AxisSplit split_axes(const Shape& shape, const std::vector<bool>& selected) {
  std::vector<int64_t> strides = strides_of(shape);
  Shape kept_shape, sel_shape;
  std::vector<int64_t> kept_strides, sel_strides;
  for (size_t d = 0; d < shape.size(); ++d) {
    bool sel = d < selected.size() && selected[d];
    (sel ? sel_shape : kept_shape).push_back(shape[d]);
    (sel ? sel_strides : kept_strides).push_back(strides[d]);
  }
  // With an empty side there is nothing to walk; the other side's list is not built either, as
  // its extent can be huge next to a zero extent.
  auto empty = [](const Shape& s) { return std::find(s.begin(), s.end(), 0) != s.end(); };
  if (empty(kept_shape)) return {};
  if (empty(sel_shape)) return {offsets_over(kept_shape, kept_strides), {}};
  return {offsets_over(kept_shape, kept_strides), offsets_over(sel_shape, sel_strides)};
}

void for_each_broadcast(const Shape& out, const std::vector<const Shape*>& in_shapes,
                        const std::function<void(int64_t, const int64_t*)>& f) {
  size_t k = in_shapes.size();
  std::vector<std::vector<int64_t>> strides;
  for (const Shape* s : in_shapes) strides.push_back(broadcast_strides(*s, out));
  std::vector<int64_t> index(out.size(), 0);
  std::vector<int64_t> offsets(k, 0);
  int64_t total = numel(out);
  // An odometer over the output index keeps each input offset up to date incrementally.
  for (int64_t flat = 0; flat < total; ++flat) {
    f(flat, offsets.data());
    for (size_t d = out.size(); d-- > 0;) {
      if (++index[d] < out[d]) {
        for (size_t j = 0; j < k; ++j) offsets[j] += strides[j][d];
        break;
      }
      for (size_t j = 0; j < k; ++j) offsets[j] -= strides[j][d] * (out[d] - 1);
      index[d] = 0;
    }
  }
}

}  // namespace retort
