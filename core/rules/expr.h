// The small expression language of rule conditions, parameters and computed attributes:
// `(>= (rank ?x) 2)`, `(swap (rank ?x) r1 r2)`, `(dtype-in ?x float)`. Expressions are parsed
// once against the rule's variable table (so evaluation indexes vectors, not maps) and evaluated
// against the facts of one match. docs/rules.md lists every function.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/ops/attrs.h"
#include "core/rules/sexpr.h"
#include "core/tensor/tensor.h"

namespace retort {

// A value: a bool or an attribute value (int, float, string, lists).
using Value = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>,
                           std::vector<double>, std::vector<std::string>>;

Value value_from_attr(const AttrValue& a);
// Throws Error when the value is a bool (attributes have no bool kind; use 0/1). Takes the value
// so that a computed list (a perm) is moved into the attribute, not copied.
AttrValue value_to_attr(Value v);
std::string value_str(const Value& v);  // 3, true, [0,1], "s"

// The names a rule binds, each kind numbered in order of first appearance.
struct VarTable {
  std::vector<std::string> classes;  // ?x in an operand position: an e-class
  std::vector<std::string> attrs;    // ?p in an attribute position: an attribute value
  std::vector<std::string> params;   // names bound by `let` and `pick`

  int find_class(const std::string& n) const;  // -1 when absent
  int find_attr(const std::string& n) const;
  int find_param(const std::string& n) const;
};

// What an expression may ask about one match. The rule engine implements it over the e-graph.
class EvalContext {
 public:
  virtual ~EvalContext() = default;
  virtual const TensorType& class_type(int class_var) const = 0;
  virtual bool class_is_const(int class_var) const = 0;
  virtual const AttrValue& attr(int attr_var) const = 0;
  virtual const Value& param(int param) const = 0;
};

class Expr {
 public:
  enum class Kind { Literal, ClassVar, AttrVar, Param, Call };
  struct Fn;  // a built-in function (defined in expr.cpp)

  // Parses e against the table; unknown names, wrong arities and e-class variables where a
  // value is expected are errors located at the offending sub-expression.
  static Expr parse(const SExpr& e, const VarTable& vars);

  Value eval(const EvalContext& ctx) const;
  // Evaluates and requires the result kind; errors name the expression's location.
  bool eval_bool(const EvalContext& ctx) const;
  int64_t eval_int(const EvalContext& ctx) const;

  Kind kind() const { return kind_; }
  int var() const { return var_; }  // the index of a ClassVar, AttrVar or Param
  const std::vector<Expr>& args() const { return args_; }
  const SourceLoc& loc() const { return loc_; }
  const std::string& str() const { return text_; }
  const Value& literal() const { return literal_; }  // a Literal's value
  // Whether it asks is-const of a class: the one thing an expression can read that a class's
  // type and the match's attribute values do not decide.
  bool asks_is_const() const;

 private:
  const Value* value_in_place(const EvalContext& ctx) const;

  Kind kind_ = Kind::Literal;
  Value literal_;
  int var_ = -1;
  const Fn* fn_ = nullptr;
  std::vector<Expr> args_;
  SourceLoc loc_;
  std::string text_;
};

// Names of every function the language knows, for help and completion.
std::vector<std::string> expr_function_names();

}  // namespace retort
