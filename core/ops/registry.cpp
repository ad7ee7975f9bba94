#include "core/ops/registry.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/ops/infer_rules.h"

namespace retort {

const AttrSpec* OpDef::find_attr(const std::string& attr) const {
  for (const auto& a : attrs)
    if (a.name == attr) return &a;
  return nullptr;
}

bool OpDef::has_tag(const std::string& tag) const {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

ValueDomain OpDef::domain_of_input(size_t i) const {
  if (i < input_domains.size()) return input_domains[i];
  return max_inputs < 0 && !input_domains.empty() ? input_domains.back() : ValueDomain::Any;
}

InputDomain OpDef::domain_of_input(size_t i, const std::vector<TensorType>& inputs,
                                   const Attrs& attrs) const {
  ValueDomain kind = domain_of_input(i);
  if (kind == ValueDomain::IntegerTarget) {
    DType to = attr_dtype(attrs, "to");
    if (inputs.empty() || !is_float(inputs[0].dtype) || !is_integer(to)) return ValueDomain::Any;
    auto [lo, hi] = integer_range(to);
    return InputDomain::integer_target(lo, hi);
  }
  if (kind == ValueDomain::IntegerDividend)  // a float quotient is always defined
    return i < inputs.size() && is_integer(inputs[i].dtype) ? kind : ValueDomain::Any;
  if (drawn_as_any(kind)) {
    // Both bound a float's magnitude by its dtype's precision; integers are exact.
    if (i >= inputs.size() || !is_float(inputs[i].dtype)) return ValueDomain::Any;
    if (kind == ValueDomain::WellConditioned) return InputDomain::well_conditioned(inputs[i].dtype);
    return kind;
  }
  if (kind != ValueDomain::AxisIndex) return kind;
  if (inputs.empty()) fail("op '{}' has no input 0 to index", name);
  const Shape& indexed = inputs[0].shape;
  return {kind, indexed[attr_axis(attrs, indexed, "input 0")]};
}

const OpRegistry& OpRegistry::instance() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    register_unary_ops(r);
    register_binary_ops(r);
    register_variadic_ops(r);
    register_linalg_ops(r);
    register_conv_pool_ops(r);
    register_norm_ops(r);
    register_reduce_ops(r);
    register_scan_ops(r);
    register_topk_op(r);
    register_quant_ops(r);
    register_resize_op(r);
    register_shape_ops(r);
    return r;
  }();
  return registry;
}

void OpRegistry::add(OpDef def) {
  if (ops_.count(def.name)) fail("op '{}' registered twice", def.name);
  auto owned = std::make_unique<OpDef>(std::move(def));
  if (!owned->onnx.op_type.empty()) by_onnx_[owned->onnx.op_type] = owned.get();
  std::string key = owned->name;
  ops_.emplace(std::move(key), std::move(owned));
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

const OpDef* OpRegistry::find_onnx(std::string_view op_type) const {
  auto it = by_onnx_.find(op_type);
  return it == by_onnx_.end() ? nullptr : it->second;
}

const OpDef& OpRegistry::get(std::string_view name) const {
  if (const OpDef* op = find(name)) return *op;
  std::string hint = did_you_mean(name, names());
  fail("unknown op '{}'{}", name, hint.empty() ? " (try `help ops`)" : hint);
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> out;
  for (const auto& [_, op] : ops_) out.push_back(op.get());
  return out;
}

std::vector<std::string> OpRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [n, _] : ops_) out.push_back(n);
  return out;
}

Attrs OpRegistry::normalize_attrs(const OpDef& op, const Attrs& given) const {
  Attrs out;
  for (const auto& [name, value] : given) {
    const AttrSpec* spec = op.find_attr(name);
    if (!spec) {
      std::vector<std::string> known;
      for (const auto& a : op.attrs) known.push_back(a.name);
      if (known.empty()) fail("op '{}' takes no attribute, got '{}'", op.name, name);
      fail("op '{}' has no attribute '{}' (it has: {})", op.name, name, fmt::join(known, ", "));
    }
    if (!attr_fits(value, spec->kind))
      fail("attribute '{}' of op '{}' must be {}, got {}", name, op.name,
           attr_kind_name(spec->kind), attr_value_str(value));
    out[name] = attr_coerce(value, spec->kind);
  }
  for (const auto& spec : op.attrs) {
    if (out.count(spec.name)) continue;
    if (spec.default_value)
      out[spec.name] = *spec.default_value;
    else if (spec.required)
      fail("op '{}' needs attribute '{}' ({})", op.name, spec.name, spec.doc);
  }
  return out;
}

}  // namespace retort
