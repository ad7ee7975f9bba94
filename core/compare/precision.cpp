#include "core/compare/precision.h"

#include <algorithm>
#include <cmath>

#include "core/base/error.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

bool narrow_float(DType d) {
  return d == DType::f16 || d == DType::f32;
}

DType widened(DType d) {
  return narrow_float(d) ? DType::f64 : d;
}

}  // namespace

std::optional<Graph> widened_graph(const Graph& g) {
  Graph wide = g;
  const OpRegistry& reg = OpRegistry::instance();
  bool changed = false;
  for (auto& in : wide.inputs) {
    changed |= narrow_float(in.type.dtype);
    in.type.dtype = widened(in.type.dtype);
  }
  for (auto& c : wide.constants) {
    if (!narrow_float(c.value.dtype())) continue;
    c.value = c.value.cast(DType::f64);
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
      if (!d || !narrow_float(*d)) continue;
      *text = std::string(dtype_name(DType::f64));
      changed = true;
    }
  }
  if (!changed) return std::nullopt;
  try {
    infer_graph(wide);
  } catch (const Error&) {
    return std::nullopt;  // an op that takes no f64 here: no band to judge by
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

bool within_precision_band(const Tensor& actual, const Tensor& reference, const Tensor& wide,
                           const ToleranceTable& tolerances) {
  if (!is_float(actual.dtype()) || actual.type() != reference.type() ||
      actual.shape() != wide.shape())
    return false;
  Tolerance tol = tolerances.of(reference.dtype());
  for (int64_t i = 0; i < actual.numel(); ++i) {
    double a = actual.get(i), r = reference.get(i), w = wide.get(i);
    if (!std::isfinite(a) || !std::isfinite(r) || !std::isfinite(w)) {
      if (a == r || a == w || (std::isnan(a) && (std::isnan(r) || std::isnan(w)))) continue;
      return false;
    }
    double lo = std::min(r, w), hi = std::max(r, w);
    double slack = tol.atol + tol.rtol * std::max(std::abs(lo), std::abs(hi));
    bool in_band = a >= lo - slack && a <= hi + slack;
    if (!in_band && !tol.allows(a, lo, reference.dtype()) && !tol.allows(a, hi, reference.dtype()))
      return false;
  }
  return true;
}

}  // namespace retort
