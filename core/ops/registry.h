// The one op registry.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops/op_def.h"

namespace retort {

class OpRegistry {
 public:
  static const OpRegistry& instance();

  const OpDef* find(std::string_view name) const;
  const OpDef* find_onnx(std::string_view op_type) const;
  // Throws Error("unknown op ...") with close-match suggestions.
  const OpDef& get(std::string_view name) const;
  std::vector<const OpDef*> all() const;  // sorted by name
  std::vector<std::string> names() const;

  void add(OpDef def);  // used by the register_* functions below

  // Fills defaults, coerces numeric kinds and rejects unknown, missing or ill-typed attributes.
  Attrs normalize_attrs(const OpDef& op, const Attrs& given) const;

 private:
  OpRegistry() = default;
  std::map<std::string, std::unique_ptr<OpDef>, std::less<>> ops_;
  std::map<std::string, const OpDef*, std::less<>> by_onnx_;
};

// Each op family registers itself from its own file.
void register_unary_ops(OpRegistry& r);
void register_binary_ops(OpRegistry& r);
void register_variadic_ops(OpRegistry& r);
void register_linalg_ops(OpRegistry& r);
void register_conv_pool_ops(OpRegistry& r);
void register_norm_ops(OpRegistry& r);
void register_reduce_ops(OpRegistry& r);
void register_scan_ops(OpRegistry& r);
void register_topk_op(OpRegistry& r);
void register_quant_ops(OpRegistry& r);
void register_resize_op(OpRegistry& r);
void register_shape_ops(OpRegistry& r);

}  // namespace retort
