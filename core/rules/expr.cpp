#include "core/rules/expr.h"
#include "core/base/error.h"

#include <algorithm>
#include <functional>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/shape.h"
#include "core/ops/elementwise.h"
#include "core/tensor/number_text.h"

namespace retort {

Value value_from_attr(const AttrValue& a) {
  return std::visit([](const auto& v) -> Value { return v; }, a);
}

AttrValue value_to_attr(Value v) {
  return std::visit(
      [](auto&& x) -> AttrValue {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, bool>)
          fail("a bool cannot be an attribute value (use 0 or 1)");
        else
          return std::move(x);
      },
      std::move(v));
}

std::string value_str(const Value& v) {
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return attr_value_str(value_to_attr(v));
}

namespace {
int index_of(const std::vector<std::string>& names, const std::string& n) {
  auto it = std::find(names.begin(), names.end(), n);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}
}  // namespace

int VarTable::find_class(const std::string& n) const {
  return index_of(classes, n);
}
int VarTable::find_attr(const std::string& n) const {
  return index_of(attrs, n);
}
int VarTable::find_param(const std::string& n) const {
  return index_of(params, n);
}

// How a function reads its arguments.
enum class ArgMode {
  Values,           // every argument is a value expression
  Classes,          // every argument is an e-class variable ?x
  ClassThenValues,  // (dim ?x 0)
  ClassThenDTypes,  // (dtype-in ?x f32 integer)
};

struct Expr::Fn {
  std::string name;
  int min_args = 0;
  int max_args = -1;  // -1: any number
  ArgMode mode = ArgMode::Values;
  std::string doc;
  // Exactly one is set: an int or bool result is returned as such (conditions and int arguments
  // are evaluated per match, without building a Value), anything else as a Value.
  Value (*eval)(const Expr& self, const EvalContext& ctx) = nullptr;
  int64_t (*eval_int)(const Expr& self, const EvalContext& ctx) = nullptr;
  bool (*eval_bool)(const Expr& self, const EvalContext& ctx) = nullptr;

  using ValueFn = Value (*)(const Expr&, const EvalContext&);
  using IntFn = int64_t (*)(const Expr&, const EvalContext&);
  using BoolFn = bool (*)(const Expr&, const EvalContext&);
  Fn(std::string n, int lo, int hi, ArgMode m, std::string d, ValueFn f)
      : name(std::move(n)), min_args(lo), max_args(hi), mode(m), doc(std::move(d)), eval(f) {}
  Fn(std::string n, int lo, int hi, ArgMode m, std::string d, IntFn f)
      : name(std::move(n)), min_args(lo), max_args(hi), mode(m), doc(std::move(d)), eval_int(f) {}
  Fn(std::string n, int lo, int hi, ArgMode m, std::string d, BoolFn f)
      : name(std::move(n)), min_args(lo), max_args(hi), mode(m), doc(std::move(d)), eval_bool(f) {}
};

namespace {

[[noreturn]] void fail_expr(const Expr& e, const std::string& message) {
  throw Error(fmt::format("in {}: {}", e.str(), message), e.loc());
}

std::string_view value_kind(const Value& v) {
  switch (v.index()) {
    case 0:
      return "bool";
    case 1:
      return "int";
    case 2:
      return "float";
    case 3:
      return "string";
    case 4:
      return "int list";
    case 5:
      return "float list";
    default:
      return "string list";
  }
}

// The failures are out of line, so that the checks evaluated per match stay a few
// instructions each.
[[noreturn, gnu::noinline]] void fail_kind(const Expr& e, std::string_view want, const Value& v) {
  fail_expr(e, fmt::format("expected {}, got {} {}", want, value_kind(v), value_str(v)));
}

int64_t as_int(const Expr& e, const Value& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
  fail_kind(e, "an int", v);
}

bool as_bool(const Expr& e, const Value& v) {
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  fail_kind(e, "true or false", v);
}

const std::vector<int64_t>& as_ints(const Expr& e, const Value& v) {
  if (const auto* l = std::get_if<std::vector<int64_t>>(&v)) return *l;
  fail_kind(e, "an int list", v);
}

// Argument i as an int list, read where it lies when it is a literal, a parameter or an
// attribute of the match (a perm ?p is read per match), else evaluated into `keep`.
const std::vector<int64_t>& ints_arg(const Expr& self, size_t i, const EvalContext& ctx,
                                     Value& keep) {
  const Expr& a = self.args()[i];
  const Value* in_place = nullptr;
  if (a.kind() == Expr::Kind::AttrVar) {
    if (const auto* l = std::get_if<std::vector<int64_t>>(&ctx.attr(a.var()))) return *l;
  } else if (a.kind() == Expr::Kind::Literal) {
    in_place = &a.literal();
  } else if (a.kind() == Expr::Kind::Param) {
    in_place = &ctx.param(a.var());
  }
  if (!in_place) {
    keep = a.eval(ctx);
    in_place = &keep;
  }
  return as_ints(a, *in_place);
}

int64_t int_arg(const Expr& self, size_t i, const EvalContext& ctx) {
  return self.args()[i].eval_int(ctx);
}

const TensorType& class_arg(const Expr& self, size_t i, const EvalContext& ctx) {
  return ctx.class_type(self.args()[i].var());
}

[[noreturn, gnu::noinline]] void fail_overflow(const Expr& self) {
  fail_expr(self, "integer overflow");
}

int64_t checked(const Expr& self, __int128 v) {
  if (v > INT64_MAX || v < INT64_MIN) fail_overflow(self);
  return static_cast<int64_t>(v);
}

// Numbers compare by value across int and float; everything else structurally.
bool values_equal(const Value& a, const Value& b) {
  auto num = [](const Value& v, double& out) {
    if (const int64_t* i = std::get_if<int64_t>(&v)) return out = static_cast<double>(*i), true;
    if (const double* d = std::get_if<double>(&v)) return out = *d, true;
    return false;
  };
  double x, y;
  if (num(a, x) && num(b, y)) return x == y;
  return a == b;
}

template <typename F>
int64_t fold_ints(const Expr& self, const EvalContext& ctx, F f) {
  __int128 acc = int_arg(self, 0, ctx);
  for (size_t i = 1; i < self.args().size(); ++i)
    acc = checked(self, f(acc, int_arg(self, i, ctx)));
  return static_cast<int64_t>(acc);
}

template <typename F>
bool compare(const Expr& self, const EvalContext& ctx, F f) {
  return f(int_arg(self, 0, ctx), int_arg(self, 1, ctx));
}

[[noreturn, gnu::noinline]] void fail_axis(const Expr& self, int64_t a, int64_t rank) {
  fail_expr(self, fmt::format("axis {} is out of range for rank {}", a, rank));
}

int64_t axis_arg(const Expr& self, size_t i, int64_t rank, const EvalContext& ctx) {
  int64_t a = int_arg(self, i, ctx);
  if (a < -rank || a >= rank) fail_axis(self, a, rank);
  return a < 0 ? a + rank : a;
}

std::vector<int64_t> identity_perm(const Expr& self, int64_t n) {
  if (n < 0 || n > static_cast<int64_t>(kMaxRank))
    fail_expr(self, fmt::format("a permutation of {} dims is not possible", n));
  std::vector<int64_t> p(n);
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  return p;
}

std::optional<DTypeSet> dtype_set_named(std::string_view s) {
  if (s == "float") return DTypeSet::Float;
  if (s == "numeric") return DTypeSet::Numeric;
  if (s == "signed") return DTypeSet::SignedNumeric;
  if (s == "integer") return DTypeSet::Integer;
  if (s == "bool") return DTypeSet::Bool;
  if (s == "any") return DTypeSet::Any;
  return std::nullopt;
}

bool dtype_matches(DType t, const std::string& name) {
  if (auto set = dtype_set_named(name)) return dtype_in_set(t, *set);
  return parse_dtype(name) == t;
}

const std::vector<Expr::Fn>& functions() {
  using F = Expr::Fn;
  static const std::vector<F> table = {
      {"+", 2, -1, ArgMode::Values, "sum of ints",
       [](const Expr& s, const EvalContext& c) { return fold_ints(s, c, std::plus<__int128>()); }},
      {"-", 1, 2, ArgMode::Values, "(- a b) difference, (- a) negation",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         if (s.args().size() == 1) return checked(s, -static_cast<__int128>(int_arg(s, 0, c)));
         return fold_ints(s, c, std::minus<__int128>());
       }},
      {"*", 2, -1, ArgMode::Values, "product of ints",
       [](const Expr& s, const EvalContext& c) {
         return fold_ints(s, c, std::multiplies<__int128>());
       }},
      {"/", 2, 2, ArgMode::Values, "floor division",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         int64_t a = int_arg(s, 0, c), b = int_arg(s, 1, c);
         if (b == 0) fail_expr(s, "division by zero");
         if (a == INT64_MIN && b == -1) fail_expr(s, "integer overflow");
         int64_t q = a / b;
         return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
       }},
      {"mod", 2, 2, ArgMode::Values, "remainder with the sign of the divisor",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         int64_t a = int_arg(s, 0, c), b = int_arg(s, 1, c);
         if (b == 0) fail_expr(s, "modulo by zero");
         if (b == -1) return int64_t{0};
         int64_t r = a % b;
         return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
       }},
      {"min", 1, -1, ArgMode::Values, "smallest int",
       [](const Expr& s, const EvalContext& c) {
         return fold_ints(s, c, [](__int128 a, __int128 b) { return std::min(a, b); });
       }},
      {"max", 1, -1, ArgMode::Values, "largest int",
       [](const Expr& s, const EvalContext& c) {
         return fold_ints(s, c, [](__int128 a, __int128 b) { return std::max(a, b); });
       }},
      {"=", 2, 2, ArgMode::Values, "equality of any two values",
       [](const Expr& s, const EvalContext& c) -> bool {
         return values_equal(s.args()[0].eval(c), s.args()[1].eval(c));
       }},
      {"!=", 2, 2, ArgMode::Values, "inequality of any two values",
       [](const Expr& s, const EvalContext& c) -> bool {
         return !values_equal(s.args()[0].eval(c), s.args()[1].eval(c));
       }},
      {"<", 2, 2, ArgMode::Values, "int comparison",
       [](const Expr& s, const EvalContext& c) { return compare(s, c, std::less<int64_t>()); }},
      {"<=", 2, 2, ArgMode::Values, "int comparison",
       [](const Expr& s, const EvalContext& c) {
         return compare(s, c, std::less_equal<int64_t>());
       }},
      {">", 2, 2, ArgMode::Values, "int comparison",
       [](const Expr& s, const EvalContext& c) { return compare(s, c, std::greater<int64_t>()); }},
      {">=", 2, 2, ArgMode::Values, "int comparison",
       [](const Expr& s, const EvalContext& c) {
         return compare(s, c, std::greater_equal<int64_t>());
       }},
      {"and", 1, -1, ArgMode::Values, "true when every argument is (stops at the first false)",
       [](const Expr& s, const EvalContext& c) -> bool {
         for (const Expr& a : s.args())
           if (!a.eval_bool(c)) return false;
         return true;
       }},
      {"or", 1, -1, ArgMode::Values, "true when some argument is (stops at the first true)",
       [](const Expr& s, const EvalContext& c) -> bool {
         for (const Expr& a : s.args())
           if (a.eval_bool(c)) return true;
         return false;
       }},
      {"not", 1, 1, ArgMode::Values, "negation",
       [](const Expr& s, const EvalContext& c) -> bool { return !s.args()[0].eval_bool(c); }},
      {"if", 3, 3, ArgMode::Values, "(if cond then else)",
       [](const Expr& s, const EvalContext& c) {
         return s.args()[0].eval_bool(c) ? s.args()[1].eval(c) : s.args()[2].eval(c);
       }},
      {"rank", 1, 1, ArgMode::Classes, "number of dims of ?x",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         return static_cast<int64_t>(class_arg(s, 0, c).shape.size());
       }},
      {"dim", 2, 2, ArgMode::ClassThenValues,
       "(dim ?x i): size of dim i (negative counts from the end)",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         const Shape& sh = class_arg(s, 0, c).shape;
         return sh[axis_arg(s, 1, static_cast<int64_t>(sh.size()), c)];
       }},
      {"shape", 1, 1, ArgMode::Classes, "the shape of ?x as an int list",
       [](const Expr& s, const EvalContext& c) -> Value { return class_arg(s, 0, c).shape; }},
      {"numel", 1, 1, ArgMode::Classes, "element count of ?x",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         return numel(class_arg(s, 0, c).shape);
       }},
      {"max-rank", 1, -1, ArgMode::Classes, "largest rank among the e-classes",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         size_t r = 0;
         for (size_t i = 0; i < s.args().size(); ++i)
           r = std::max(r, class_arg(s, i, c).shape.size());
         return static_cast<int64_t>(r);
       }},
      {"min-rank", 1, -1, ArgMode::Classes, "smallest rank among the e-classes",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         size_t r = kMaxRank;
         for (size_t i = 0; i < s.args().size(); ++i)
           r = std::min(r, class_arg(s, i, c).shape.size());
         return static_cast<int64_t>(r);
       }},
      {"shape-eq", 2, -1, ArgMode::Classes, "true when the e-classes have equal shapes",
       [](const Expr& s, const EvalContext& c) -> bool {
         for (size_t i = 1; i < s.args().size(); ++i)
           if (class_arg(s, i, c).shape != class_arg(s, 0, c).shape) return false;
         return true;
       }},
      {"same-dtype", 2, -1, ArgMode::Classes, "true when the e-classes have one dtype",
       [](const Expr& s, const EvalContext& c) -> bool {
         for (size_t i = 1; i < s.args().size(); ++i)
           if (class_arg(s, i, c).dtype != class_arg(s, 0, c).dtype) return false;
         return true;
       }},
      {"broadcastable", 2, 2, ArgMode::Classes, "true when the two shapes broadcast together",
       [](const Expr& s, const EvalContext& c) -> bool {
         return broadcastable(class_arg(s, 0, c).shape, class_arg(s, 1, c).shape);
       }},
      {"dtype-in", 2, -1, ArgMode::ClassThenDTypes,
       "(dtype-in ?x f32 integer): dtype of ?x is one of the dtypes or sets (float numeric "
       "signed integer bool any)",
       [](const Expr& s, const EvalContext& c) -> bool {
         DType t = class_arg(s, 0, c).dtype;
         for (size_t i = 1; i < s.args().size(); ++i)
           if (dtype_matches(t, std::get<std::string>(s.args()[i].literal()))) return true;
         return false;
       }},
      {"is-const", 1, 1, ArgMode::Classes, "true when the e-class holds a constant",
       [](const Expr& s, const EvalContext& c) -> bool {
         return c.class_is_const(s.args()[0].var());
       }},
      {"swap", 3, 3, ArgMode::Values,
       "(swap n a b): the transpose perm of n dims that exchanges dims a and b",
       [](const Expr& s, const EvalContext& c) -> Value {
         int64_t n = int_arg(s, 0, c);
         std::vector<int64_t> p = identity_perm(s, n);
         int64_t a = axis_arg(s, 1, n, c), b = axis_arg(s, 2, n, c);
         std::swap(p[a], p[b]);
         return p;
       }},
      {"identity", 1, 1, ArgMode::Values, "(identity n): the perm [0 .. n-1]",
       [](const Expr& s, const EvalContext& c) -> Value {
         return identity_perm(s, int_arg(s, 0, c));
       }},
      {"reversed", 1, 1, ArgMode::Values, "(reversed n): the perm [n-1 .. 0] (transpose's default)",
       [](const Expr& s, const EvalContext& c) -> Value {
         std::vector<int64_t> p = identity_perm(s, int_arg(s, 0, c));
         std::reverse(p.begin(), p.end());
         return p;
       }},
      {"is-identity", 1, 1, ArgMode::Values, "true when the int list is [0 1 .. n-1]",
       [](const Expr& s, const EvalContext& c) -> bool {
         Value keep;
         const auto& p = ints_arg(s, 0, c, keep);
         for (size_t i = 0; i < p.size(); ++i)
           if (p[i] != static_cast<int64_t>(i)) return false;
         return true;
       }},
      {"compose", 2, 2, ArgMode::Values,
       "(compose p q): the one perm equal to transposing by p, then by q (r[i] = p[q[i]])",
       [](const Expr& s, const EvalContext& c) -> Value {
         Value keep_p, keep_q;
         const auto& p = ints_arg(s, 0, c, keep_p);
         const auto& q = ints_arg(s, 1, c, keep_q);
         if (p.size() != q.size()) fail_expr(s, "perms of different lengths");
         std::vector<int64_t> r(q.size());
         for (size_t i = 0; i < q.size(); ++i) {
           if (q[i] < 0 || q[i] >= static_cast<int64_t>(p.size())) fail_expr(s, "not a perm");
           r[i] = p[q[i]];
         }
         return r;
       }},
      {"len", 1, 1, ArgMode::Values, "length of an int list",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         return static_cast<int64_t>(as_ints(s, s.args()[0].eval(c)).size());
       }},
      {"nth", 2, 2, ArgMode::Values, "(nth list i): element i (negative counts from the end)",
       [](const Expr& s, const EvalContext& c) -> int64_t {
         Value keep;
         const auto& l = ints_arg(s, 0, c, keep);
         int64_t i = int_arg(s, 1, c), n = static_cast<int64_t>(l.size());
         if (i < -n || i >= n) fail_expr(s, fmt::format("index {} out of range for {}", i, n));
         return l[i < 0 ? i + n : i];
       }},
      {"list", 0, -1, ArgMode::Values, "(list a b ...): an int list of the values",
       [](const Expr& s, const EvalContext& c) -> Value {
         std::vector<int64_t> out;
         for (size_t i = 0; i < s.args().size(); ++i) out.push_back(int_arg(s, i, c));
         return out;
       }},
  };
  return table;
}

// Names may be written with '_' for '-': (is_const ?c) is (is-const ?c).
const Expr::Fn* find_function(std::string_view name) {
  std::string dashed(name);
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  for (const auto& f : functions())
    if (f.name == dashed) return &f;
  return nullptr;
}

}  // namespace

std::vector<std::string> expr_function_names() {
  std::vector<std::string> out;
  for (const auto& f : functions()) out.push_back(f.name);
  return out;
}

Expr Expr::parse(const SExpr& e, const VarTable& vars) {
  Expr x;
  x.loc_ = e.loc;
  x.text_ = e.str();
  switch (e.kind) {
    case SExpr::Kind::Int:
      x.literal_ = e.int_value;
      return x;
    case SExpr::Kind::Float:
      x.literal_ = e.float_value;
      return x;
    case SExpr::Kind::String:
      x.literal_ = e.text;
      return x;
    case SExpr::Kind::Keyword:
      fail_at(e, fmt::format("unexpected keyword :{}", e.text));
    case SExpr::Kind::Bracket: {
      std::vector<int64_t> ints;
      std::vector<double> floats;
      bool any_float = false;
      for (const auto& item : e.items) {
        if (item.kind == SExpr::Kind::Float)
          any_float = true;
        else if (item.kind != SExpr::Kind::Int)
          fail_at(item, "a [list] holds number literals only");
        ints.push_back(item.int_value);
        floats.push_back(item.kind == SExpr::Kind::Int ? static_cast<double>(item.int_value)
                                                       : item.float_value);
      }
      if (any_float)
        x.literal_ = floats;
      else
        x.literal_ = ints;
      return x;
    }
    case SExpr::Kind::Var:
      if ((x.var_ = vars.find_attr(e.text)) >= 0) {
        x.kind_ = Kind::AttrVar;
        return x;
      }
      if ((x.var_ = vars.find_class(e.text)) >= 0)
        fail_at(e, fmt::format("?{} is an e-class; use it inside (rank ?{}), (dim ?{} i), ...",
                               e.text, e.text, e.text));
      fail_at(e, fmt::format("?{} is not bound by the pattern", e.text));
    case SExpr::Kind::Symbol:
      if (e.text == "true" || e.text == "false") {
        x.literal_ = e.text == "true";
        return x;
      }
      if ((x.var_ = vars.find_param(e.text)) >= 0) {
        x.kind_ = Kind::Param;
        return x;
      }
      fail_at(e, fmt::format("unknown name '{}' (bind it with let or pick first)", e.text));
    case SExpr::Kind::List:
      break;
  }
  if (e.items.empty() || e.items[0].kind != SExpr::Kind::Symbol)
    fail_at(e, "expected (function args...)");
  const std::string& name = e.items[0].text;
  x.fn_ = find_function(name);
  if (!x.fn_) fail_at(e.items[0], fmt::format("unknown function '{}'", name));
  x.kind_ = Kind::Call;
  int n = static_cast<int>(e.items.size()) - 1;
  if (n < x.fn_->min_args || (x.fn_->max_args >= 0 && n > x.fn_->max_args)) {
    std::string want = x.fn_->max_args < 0 ? fmt::format("at least {}", x.fn_->min_args)
                       : x.fn_->min_args == x.fn_->max_args
                           ? fmt::format("{}", x.fn_->min_args)
                           : fmt::format("{} to {}", x.fn_->min_args, x.fn_->max_args);
    fail_at(e, fmt::format("{} takes {} argument(s), got {}", name, want, n));
  }
  for (int i = 1; i <= n; ++i) {
    const SExpr& a = e.items[i];
    bool wants_class =
        x.fn_->mode == ArgMode::Classes || (i == 1 && x.fn_->mode != ArgMode::Values);
    if (wants_class) {
      int v = a.kind == SExpr::Kind::Var ? vars.find_class(a.text) : -1;
      if (v < 0)
        fail_at(a, fmt::format("{} expects an e-class variable of the pattern here, got {}", name,
                               a.str()));
      Expr c;
      c.kind_ = Kind::ClassVar;
      c.var_ = v;
      c.loc_ = a.loc;
      c.text_ = a.str();
      x.args_.push_back(std::move(c));
    } else if (x.fn_->mode == ArgMode::ClassThenDTypes) {
      if (a.kind != SExpr::Kind::Symbol || (!dtype_set_named(a.text) && !parse_dtype(a.text)))
        fail_at(a, fmt::format("expected a dtype (f32, i64, ...) or a set (float numeric signed "
                               "integer bool any), got {}",
                               a.str()));
      Expr d;
      d.literal_ = a.text;
      d.loc_ = a.loc;
      d.text_ = a.text;
      x.args_.push_back(std::move(d));
    } else {
      x.args_.push_back(parse(a, vars));
    }
  }
  return x;
}

Value Expr::eval(const EvalContext& ctx) const {
  switch (kind_) {
    case Kind::Literal:
      return literal_;
    case Kind::AttrVar:
      return value_from_attr(ctx.attr(var_));
    case Kind::Param:
      return ctx.param(var_);
    case Kind::ClassVar:
      fail_expr(*this, "an e-class is not a value");
    case Kind::Call:
      break;
  }
  try {
    if (fn_->eval_int) return fn_->eval_int(*this, ctx);
    if (fn_->eval_bool) return fn_->eval_bool(*this, ctx);
    return fn_->eval(*this, ctx);
  } catch (const Error& err) {
    throw err.at(loc_);
  }
}

bool Expr::asks_is_const() const {
  if (fn_ && fn_->name == "is-const") return true;
  return std::any_of(args_.begin(), args_.end(), [](const Expr& a) { return a.asks_is_const(); });
}

// Conditions and int arguments are evaluated per match: a literal, a parameter or an int
// attribute is read in place, and a function with an int or bool result returns it as such,
// rather than building a Value.
const Value* Expr::value_in_place(const EvalContext& ctx) const {
  if (kind_ == Kind::Literal) return &literal_;
  if (kind_ == Kind::Param) return &ctx.param(var_);
  return nullptr;
}

bool Expr::eval_bool(const EvalContext& ctx) const {
  if (kind_ == Kind::Call && fn_->eval_bool) {
    try {
      return fn_->eval_bool(*this, ctx);
    } catch (const Error& err) {
      throw err.at(loc_);
    }
  }
  if (const Value* v = value_in_place(ctx)) return as_bool(*this, *v);
  return as_bool(*this, eval(ctx));
}

int64_t Expr::eval_int(const EvalContext& ctx) const {
  // The common cases first: an int function, an int literal.
  if (kind_ == Kind::Call && fn_->eval_int) {
    try {
      return fn_->eval_int(*this, ctx);
    } catch (const Error& err) {
      throw err.at(loc_);
    }
  }
  if (const Value* v = value_in_place(ctx)) return as_int(*this, *v);
  if (kind_ == Kind::AttrVar)
    if (const int64_t* i = std::get_if<int64_t>(&ctx.attr(var_))) return *i;
  return as_int(*this, eval(ctx));
}

}  // namespace retort
