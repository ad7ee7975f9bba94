#include "core/compare/precision.h"

#include <algorithm>
#include <cmath>

#include "core/base/error.h"
#include "core/compare/undefined_check.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

bool narrower(DType d, DType to) {
  return is_float(d) && dtype_size(d) < dtype_size(to);
}

// Whether finite a lies between the finite values of `band`, within the tolerance of `dtype`.
bool between(double a, const std::vector<double>& band, DType dtype, const Tolerance& tol) {
  std::vector<double> finite;
  for (double v : band)
    if (std::isfinite(v)) finite.push_back(v);
  if (finite.empty()) return false;
  auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
  if (!is_float(dtype)) return a >= *lo && a <= *hi;
  double slack = tol.atol + tol.rtol * std::max(std::abs(*lo), std::abs(*hi));
  return (a >= *lo - slack && a <= *hi + slack) || tol.allows(a, *lo, dtype) ||
         tol.allows(a, *hi, dtype);
}

// An integer mean beyond 2^53, moved one past the next double in `direction`: where the exact
// mean was divided in f64, as ONNX Runtime and onnx.reference do (...594 where Retort's exact
// mean is ...593), the band holds it. Below 2^53 a double holds every integer: no move.
int64_t mean_divided_in_f64(int64_t v, double direction) {
  constexpr int64_t kExact = int64_t{1} << 53;
  if (v > -kExact && v < kExact) return v;
  // v is below 2^63 in magnitude, so v +- 1 does not wrap; the rounding may pass the range.
  int64_t past = direction > 0 ? v + 1 : v - 1;
  double d = static_cast<double>(past);
  if (direction > 0 ? d < static_cast<long double>(past) : d > static_cast<long double>(past))
    d = std::nextafter(d, direction * HUGE_VAL);
  if (d >= 0x1p63) return INT64_MAX;
  if (d < -0x1p63) return INT64_MIN;
  return static_cast<int64_t>(d);
}

// The results of a node that sums, moved by the rounding a compiler may add where it sums in
// another order or in the dtype, `direction` (+1 or -1) times: a float result by eps(dtype) times
// the sum of its terms' magnitudes (a compiler's f32 cancellation, DBL_MAX absorbing the small
// terms in one order and not in another), kept finite; an integer mean by its f64 division.
AdjustResults summation_rounding(double direction) {
  return [direction](const Node& node, const std::vector<const Tensor*>& inputs,
                     std::vector<Tensor>& results) {
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (!op || results.empty()) return;
    Tensor& out = results[0];
    if (is_integer(out.dtype()) && op->has_tag("averages")) {
      for (int64_t k = 0; k < out.numel(); ++k)
        out.set_int(k, mean_divided_in_f64(out.get_int(k), direction));
      return;
    }
    if (!is_float(out.dtype())) return;
    std::optional<Tensor> magnitudes = magnitude_sums(node, *op, inputs);
    if (!magnitudes || magnitudes->numel() != out.numel()) return;
    double eps = float_epsilon(out.dtype()), max = float_max(out.dtype());
    for (int64_t k = 0; k < out.numel(); ++k) {
      double v = out.get(k);
      if (!std::isfinite(v)) continue;
      out.set(k, std::clamp(v + direction * eps * magnitudes->get(k), -max, max));
    }
  };
}

}  // namespace

std::optional<Graph> widened_graph(const Graph& g, DType to) {
  Graph wide = g;
  const OpRegistry& reg = OpRegistry::instance();
  bool changed = false;
  for (auto& in : wide.inputs) {
    if (!narrower(in.type.dtype, to)) continue;
    in.type.dtype = to;
    changed = true;
  }
  for (auto& c : wide.constants) {
    if (!narrower(c.value.dtype(), to)) continue;
    c.value = c.value.cast(to);
    c.init_text.clear();
    changed = true;
  }
  for (auto& n : wide.nodes) {
    if (n.is_opaque()) return std::nullopt;
    const OpDef* op = reg.find(n.op);
    if (!op) return std::nullopt;
    for (auto& [name, value] : n.attrs) {
      const AttrSpec* spec = op->find_attr(name);
      auto* text = std::get_if<std::string>(&value);
      if (!spec || spec->kind != AttrKind::DType || !text) continue;
      std::optional<DType> d = parse_dtype(*text);
      if (!d || !narrower(*d, to)) continue;
      *text = std::string(dtype_name(to));
      changed = true;
    }
  }
  if (!changed) return std::nullopt;
  try {
    infer_graph(wide);
  } catch (const Error&) {
    return std::nullopt;  // an op that takes no `to` here: no band to judge by
  }
  return wide;
}

TensorMap widen_inputs(const Graph& wide, const TensorMap& inputs) {
  TensorMap out;
  for (const auto& in : wide.inputs) {
    auto it = inputs.find(in.name);
    if (it == inputs.end()) continue;
    out.emplace(in.name,
                it->second.dtype() == in.type.dtype ? it->second : it->second.cast(in.type.dtype));
  }
  return out;
}

bool within_precision_band(const Tensor& actual, const Tensor& reference,
                           const std::vector<const Tensor*>& wide,
                           const ToleranceTable& tolerances) {
  if (actual.type() != reference.type()) return false;
  // A wider evaluation's values as the compiler stores them: rounded to the output's dtype, so
  // that an f16 output that f32 math left at 65724 is the inf the compiler gives.
  std::vector<Tensor> stored;
  for (const Tensor* w : wide) {
    if (w->shape() != actual.shape()) return false;
    stored.push_back(w->dtype() == actual.dtype() ? *w : w->cast(actual.dtype()));
  }
  Tolerance tol = tolerances.of(reference.dtype());
  std::vector<double> band(2 * wide.size() + 1);
  for (int64_t i = 0; i < actual.numel(); ++i) {
    band[0] = reference.get(i);
    for (size_t k = 0; k < wide.size(); ++k) {
      band[2 * k + 1] = wide[k]->get(i);
      band[2 * k + 2] = stored[k].get(i);
    }
    if (is_integer(actual.dtype())) {
      // Exactly, not through doubles: past 2^53 a double would call 2^53 + 1 and 2^53 equal.
      int64_t lo = reference.get_int(i), hi = lo, v = actual.get_int(i);
      for (const Tensor& w : stored) {
        lo = std::min(lo, w.get_int(i));
        hi = std::max(hi, w.get_int(i));
      }
      if (v < lo || v > hi) return false;
      continue;
    }
    double a = actual.get(i);
    if (std::isnan(a)) {
      if (std::none_of(band.begin(), band.end(), [](double v) { return std::isnan(v); }))
        return false;
    } else if (std::isinf(a)) {
      if (std::find(band.begin(), band.end(), a) == band.end()) return false;
    } else if (actual.dtype() == DType::boolean) {
      if (std::find(band.begin(), band.end(), a) == band.end()) return false;
    } else if (!between(a, band, actual.dtype(), tol)) {
      return false;
    }
  }
  return true;
}

PrecisionBands::PrecisionBands(const std::vector<const Graph*>& graphs,
                               const std::vector<const TensorMap*>& reference,
                               const TensorMap& inputs, const ToleranceTable& tolerances)
    : graphs_(graphs), reference_(reference), inputs_(inputs), tolerances_(tolerances) {}

bool PrecisionBands::explains(size_t g, const std::string& output, const Tensor& actual) {
  if (!reference_[g]) return false;
  auto r = reference_[g]->find(output);
  if (r == reference_[g]->end()) return false;
  std::vector<const Tensor*> wide_values;
  for (const TensorMap& values : wide(g)) {
    auto w = values.find(output);
    if (w != values.end()) wide_values.push_back(&w->second);
  }
  if (wide_values.empty()) return false;
  return within_precision_band(actual, r->second, wide_values, tolerances_);
}

const std::vector<TensorMap>& PrecisionBands::wide(size_t g) {
  auto it = wide_.find(g);
  if (it != wide_.end()) return it->second;
  std::vector<TensorMap> evaluations;
  // f16 in f32 is what a compiler does that computes f16 math in f32; f64 covers the rest.
  for (DType to : {DType::f32, DType::f64}) {
    std::optional<Graph> w = widened_graph(*graphs_[g], to);
    if (!w) continue;
    try {
      evaluations.push_back(evaluate(*w, widen_inputs(*w, inputs_)));
    } catch (const Error&) {
      // The wide graph fails where the narrow one did not: no band from it.
    }
  }
  // The graph itself with every sum moved up, then down, by the rounding of another order.
  for (double direction : {1.0, -1.0}) {
    try {
      evaluations.push_back(
          evaluate(*graphs_[g], inputs_, {.adjust = summation_rounding(direction)}));
    } catch (const Error&) {
      // A moved value fails a kernel downstream (an index, a shape): no band from it.
    }
  }
  return wide_.emplace(g, std::move(evaluations)).first->second;
}

}  // namespace retort
