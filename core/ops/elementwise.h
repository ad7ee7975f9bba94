// Builders for elementwise ops: a table row (name, dtypes, scalar semantics, value domains)
// becomes an OpDef with inference, kernel and ONNX mapping.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops/op_def.h"

namespace retort {

// Which dtypes an elementwise op accepts.
// FloatOrWideInt: floats, i32 and i64 (ONNX's Pow base and PRelu take no narrower integers).
enum class DTypeSet { Float, Numeric, SignedNumeric, Integer, Bool, Any, FloatOrWideInt };
bool dtype_in_set(DType t, DTypeSet set);
std::string_view dtype_set_name(DTypeSet set);

struct UnarySpec {
  std::string name, doc, onnx_type;
  DTypeSet dtypes = DTypeSet::Float;
  // The members below take {} so that a table row names only the fields it needs.
  std::function<double(double)> f{};     // float (and, without fi, integer) semantics
  std::function<int64_t(int64_t)> fi{};  // integer semantics, wrapped to the dtype after
  ValueDomain domain = ValueDomain::Any;
  std::vector<AttrSpec> attrs{};  // read by f_attrs / fi_attrs when given
  std::function<std::function<double(double)>(const Attrs&)> f_attrs{};  // f from attributes
  // fi from attributes and the integer dtype x holds (clip saturates its bounds to that dtype).
  std::function<std::function<int64_t(int64_t)>(const Attrs&, DType)> fi_attrs{};
  int since_opset = 13;
  KernelFn kernel{};                // when set, replaces the per-element kernel built from f and fi
  std::vector<std::string> tags{};  // besides "elementwise", "unary"
};
OpDef make_unary(UnarySpec spec);

struct BinarySpec {
  std::string name, doc, onnx_type;
  DTypeSet dtypes = DTypeSet::Numeric;
  std::function<double(double, double)> f;
  std::function<int64_t(int64_t, int64_t)> fi;  // integer semantics (two's complement wrap after)
  // f and fi built from the node's attributes, when the semantics depend on them.
  std::function<std::function<double(double, double)>(const Attrs&)> f_attrs;
  std::function<std::function<int64_t(int64_t, int64_t)>(const Attrs&)> fi_attrs;
  // When set, b may have its own dtype from this set (pow's exponent); the output takes a's.
  // fi then runs only when both operands are integers, f otherwise.
  std::optional<DTypeSet> dtypes_b;
  bool bool_result = false;  // comparisons and logic produce bool
  ValueDomain domain_a = ValueDomain::Any, domain_b = ValueDomain::Any;
  std::vector<AttrSpec> attrs;
  std::vector<std::string> tags;
  int since_opset = 13;
};
OpDef make_binary(BinarySpec spec);

// Ops over one or more inputs with multidirectional broadcasting that fold their operands left
// to right (max, min, sum, mean). Integers fold with fi and wrap to the dtype after each step.
struct VariadicSpec {
  std::string name, doc, onnx_type;
  DTypeSet dtypes = DTypeSet::Numeric;
  std::function<double(double, double)> f;
  std::function<int64_t(int64_t, int64_t)> fi;
  std::function<double(double, size_t)> finish;  // applied to the float fold of n operands
  ValueDomain domain = ValueDomain::Any;         // of every operand
  int since_opset = 13;
  std::vector<std::string> tags{};  // besides "elementwise", "variadic"
};
OpDef make_variadic(VariadicSpec spec);

}  // namespace retort
