// transpose: output dimension i is input dimension perm[i].
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/data_movement.h"
#include "core/ops/infer_rules.h"
#include "core/ops/ops_shape.h"

namespace retort {

namespace {

// The node's perm, checked to be a permutation of 0..rank-1; the reversed order when absent.
std::vector<int64_t> perm_of(const Attrs& a, int64_t rank) {
  if (!has_attr(a, "perm")) {
    std::vector<int64_t> reversed(rank);
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    return reversed;
  }
  const auto& perm = attr_ints(a, "perm");
  std::string given = fmt::format("[{}]", fmt::join(perm, ","));
  if (static_cast<int64_t>(perm.size()) != rank)
    fail("attribute 'perm' {} has {} entries, but the input has rank {}", given, perm.size(), rank);
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank)
      fail("attribute 'perm' {} is not a permutation of 0..{}: {} is out of range", given, rank - 1,
           p);
    if (seen[p])
      fail("attribute 'perm' {} is not a permutation of 0..{}: {} appears twice", given, rank - 1,
           p);
    seen[p] = true;
  }
  return perm;
}

OpDef transpose_op() {
  OpDef op = shape_family_op("transpose",
                             "Permutes dimensions: output dimension i is input dimension perm[i] "
                             "(default: reversed order).",
                             "Transpose", {"data"});
  op.attrs.push_back({"perm", AttrKind::Ints, std::nullopt, false,
                      "a permutation of 0..rank-1; absent: reverse the dimensions"});
  op.infer = infer_same_dtype([](const Shape& s, const Attrs& a) {
    Shape out;
    for (int64_t p : perm_of(a, static_cast<int64_t>(s.size()))) out.push_back(s[p]);
    return out;
  });
  op.complete_attrs = [](Attrs& a, const std::vector<TensorType>& in) {
    if (has_attr(a, "perm")) return;
    std::vector<int64_t> reversed;
    for (auto d = static_cast<int64_t>(in[0].shape.size()); d-- > 0;) reversed.push_back(d);
    a["perm"] = reversed;
  };
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs& a,
                 const std::vector<TensorType>& out_types) {
    const Tensor& x = *in[0];
    Tensor out(out_types[0]);
    std::vector<int64_t> in_strides = strides_of(x.shape());
    std::vector<int64_t> src_strides;
    for (int64_t p : perm_of(a, x.rank())) src_strides.push_back(in_strides[p]);
    copy_strided(x, 0, src_strides, out, 0, strides_of(out.shape()), out.shape());
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

}  // namespace

void register_transpose_op(OpRegistry& r) {
  r.add(transpose_op());
}

}  // namespace retort
