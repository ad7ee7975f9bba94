#include "core/compare/sweep_known.h"

#include <algorithm>

namespace retort {

const std::vector<KnownDisagreement>& known_disagreements() {
  using D = DType;
  const std::vector<DType> ints = {D::i8, D::u8, D::i16, D::i32, D::i64};
  const std::string bug(kOnnxReferenceBug), silent(kSpecSilent), pending(kReferenceFixPending);
  static const std::vector<KnownDisagreement> rows = {
      {"pad",
       {},
       {},
       "index can't contain negative values",
       bug,
       "onnx.reference rejects negative pads (cropping), which Pad allows"},
      {"global_max_pool",
       {},
       {},
       "shape/dtype mismatch",
       bug,
       "onnx.reference's GlobalMaxPool reduces axes ndim-2 and ndim-1, not 2..ndim-1: wrong for "
       "every rank but 4"},
      {"max_pool",
       {},
       {"special"},
       "zero-size array to reduction",
       bug,
       "onnx.reference's MaxPool marks padding with NaN and drops it: a NaN in the input empties "
       "the window and fails"},
      {"max_pool",
       {},
       {},
       "zero-size array to reduction",
       silent,
       "pads as wide as the kernel: a window wholly in padding, which the spec does not define "
       "(onnx.reference fails; issue 22, padding)"},
      {"max_pool",
       {},
       {},
       "shape/dtype mismatch",
       silent,
       "pads as wide as the kernel: onnx.reference leaves out the windows wholly in padding, "
       "Retort counts them by the output-size formula (issue 22, padding)"},
      {"pad", {}, {}, "Issues with types", bug, "onnx.reference's Pad fails on a 0-d tensor"},
      {"gather_elements",
       {},
       {},
       "all dimensions of index and self should be the same size",
       silent,
       "indices shorter than data on an axis but the indexed one: the spec asks only the same "
       "rank; onnx.reference asks the same extents, ONNX Runtime and PyTorch at most data's"},
      {"softsign",
       {},
       {},
       "Issues with types",
       bug,
       "onnx.reference's Softsign fails on a 0-d tensor"},
      {"average_pool",
       {},
       {"special"},
       "nan-inf mismatch",
       bug,
       "onnx.reference's AveragePool marks padding with NaN and leaves it out: a NaN in the "
       "window is ignored instead of making the average NaN"},
      {"log_softmax",
       {},
       {"full", "special"},
       "nan-inf mismatch",
       bug,
       "onnx.reference computes log(softmax(x)) in the input's dtype: where softmax underflows "
       "to 0 it gives -inf for a finite log-probability"},
      {"gemm",
       ints,
       {"full", "special", "wide"},
       "mismatch",
       silent,
       "integer Gemm that overflows or has a fractional alpha or beta: Retort wraps and "
       "truncates (docs/ops/nn.md), onnx.reference computes in float64 and casts"},
      {"gemm",
       {D::f16, D::f32, D::f64},
       {"full", "special"},
       "nan-inf mismatch",
       silent,
       "a product that overflows added to an infinity: onnx.reference's BLAS fuses the multiply "
       "and add and keeps the infinity (the exact sum), Retort rounds each product to double "
       "first (inf - inf = NaN); the spec does not say whether a dot product may be contracted"},
      {"reduce_mean",
       ints,
       {"full", "special", "wide"},
       "mismatch",
       silent,
       "integer ReduceMean whose sum overflows: Retort wraps the int64 sum (docs/ops/nn.md), "
       "onnx.reference takes numpy's float64 mean"},
      {"clip",
       ints,
       {},
       "mismatch",
       pending,
       "integer clip with a bound outside the dtype: Retort clips in i64 and wraps, the spec "
       "and the exporter saturate the bounds to the dtype (issue 22, integer clip)"},
  };
  return rows;
}

const KnownDisagreement* explain_disagreement(std::string_view op, DType dtype,
                                              std::string_view plan, std::string_view detail) {
  for (const auto& k : known_disagreements()) {
    if (k.op != op) continue;
    if (!k.dtypes.empty() && std::find(k.dtypes.begin(), k.dtypes.end(), dtype) == k.dtypes.end())
      continue;
    if (!k.plans.empty() && std::find(k.plans.begin(), k.plans.end(), plan) == k.plans.end())
      continue;
    if (!k.phrase.empty() && detail.find(k.phrase) == std::string_view::npos) continue;
    return &k;
  }
  return nullptr;
}

}  // namespace retort
