// Binary elementwise ops with numpy broadcasting. Integer arithmetic wraps and division is total
// (x/0 = 0); docs/ops/elementwise.md has the full rules.
#include <cmath>

#include "core/base/error.h"
#include "core/ops/elementwise.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

using FloatFn = std::function<double(double, double)>;
using IntFn = std::function<int64_t(int64_t, int64_t)>;

BinarySpec spec(std::string name, std::string onnx, std::string doc) {
  BinarySpec s;
  s.name = std::move(name);
  s.onnx_type = std::move(onnx);
  s.doc = std::move(doc);
  return s;
}

void add_arithmetic(OpRegistry& r) {
  BinarySpec add = spec("add", "Add", "a + b. Integers wrap (u8: 200 + 100 = 44).");
  add.f = [](double a, double b) { return a + b; };
  add.fi = wrapping_add;
  add.tags = {"commutative"};
  r.add(make_binary(std::move(add)));

  BinarySpec sub = spec("sub", "Sub", "a - b. Integers wrap (u8: 3 - 5 = 254).");
  sub.f = [](double a, double b) { return a - b; };
  sub.fi = wrapping_sub;
  r.add(make_binary(std::move(sub)));

  BinarySpec mul = spec("mul", "Mul", "a * b. Integers wrap.");
  mul.f = [](double a, double b) { return a * b; };
  mul.fi = wrapping_mul;
  mul.tags = {"commutative"};
  r.add(make_binary(std::move(mul)));

  BinarySpec div =
      spec("div", "Div", "a / b. Integers truncate toward zero and x/0 = 0; floats follow IEEE.");
  div.f = [](double a, double b) { return a / b; };
  div.fi = wrapping_div;
  div.domain_a = ValueDomain::IntegerDividend;
  div.domain_b = ValueDomain::NonZero;
  r.add(make_binary(std::move(div)));

  BinarySpec pow = spec("pow", "Pow",
                        "a ^ b; b may have its own numeric dtype. Integer powers wrap; "
                        "a negative integer exponent gives trunc(1 / a^-b), and 0 for a = 0.");
  pow.dtypes = DTypeSet::FloatOrWideInt;  // ONNX's Pow-15 base
  pow.dtypes_b = DTypeSet::Numeric;
  pow.f = [](double a, double b) { return std::pow(a, b); };
  pow.fi = wrapping_pow;
  pow.domain_a = ValueDomain::PowBase;
  pow.tags.push_back("approximated");  // as the unary exp and log (core/ops/ops_unary.cpp)
  r.add(make_binary(std::move(pow)));
}

void add_mod(OpRegistry& r) {
  BinarySpec mod = spec("mod", "Mod",
                        "Remainder of a / b: fmod=0 takes the divisor's sign (integers only), "
                        "fmod=1 the dividend's. x % 0 = 0 for integers, NaN for floats.");
  mod.attrs = {AttrSpec{"fmod", AttrKind::Int, int64_t{0}, false,
                        "1: sign of the dividend (C fmod); 0: sign of the divisor"}};
  mod.domain_b = ValueDomain::NonZero;
  // A float remainder of a dividend whose ulp passes the divisor is its last bits' noise.
  mod.domain_a = ValueDomain::FmodDividend;
  // Floats only reach f with fmod=1 (inference rejects fmod=0 on floats, as ONNX does).
  mod.f = [](double a, double b) { return std::fmod(a, b); };
  mod.fi_attrs = [](const Attrs& a) {
    return attr_int(a, "fmod") ? IntFn(wrapping_rem) : IntFn(floored_mod);
  };
  OpDef op = make_binary(std::move(mod));
  // Periodic in a, with period |b| (core/compare/precision.cpp: a dividend the precision band
  // moves by half of it gives any remainder).
  op.tags.push_back("periodic");
  op.infer = [base = op.infer](const std::vector<TensorType>& in, const Attrs& a, size_t n) {
    int64_t fmod = attr_int(a, "fmod");
    if (fmod != 0 && fmod != 1) fail("attribute 'fmod' of op 'mod' must be 0 or 1, got {}", fmod);
    auto out = base(in, a, n);
    if (fmod == 0 && is_float(in[0].dtype))
      fail("op 'mod' on {} needs fmod=1 (fmod=0 is integer-only in ONNX)", dtype_name(in[0].dtype));
    return out;
  };
  r.add(std::move(op));
}

void add_comparisons(OpRegistry& r) {
  struct Cmp {
    const char* name;
    const char* onnx;
    const char* doc;
    bool (*test)(double, double);
    bool (*test_int)(int64_t, int64_t);
  };
  const Cmp cmps[] = {
      {"equal", "Equal", "a == b as bool (NaN equals nothing).",
       [](double a, double b) { return a == b; }, [](int64_t a, int64_t b) { return a == b; }},
      {"less", "Less", "a < b as bool (false when either is NaN).",
       [](double a, double b) { return a < b; }, [](int64_t a, int64_t b) { return a < b; }},
      {"greater", "Greater", "a > b as bool (false when either is NaN).",
       [](double a, double b) { return a > b; }, [](int64_t a, int64_t b) { return a > b; }},
      {"less_equal", "LessOrEqual", "a <= b as bool (false when either is NaN).",
       [](double a, double b) { return a <= b; }, [](int64_t a, int64_t b) { return a <= b; }},
      {"greater_equal", "GreaterOrEqual", "a >= b as bool (false when either is NaN).",
       [](double a, double b) { return a >= b; }, [](int64_t a, int64_t b) { return a >= b; }},
  };
  for (const Cmp& c : cmps) {
    BinarySpec s = spec(c.name, c.onnx, c.doc);
    s.bool_result = true;
    s.dtypes = std::string_view(c.name) == "equal" ? DTypeSet::Any : DTypeSet::Numeric;
    s.f = [test = c.test](double a, double b) { return test(a, b) ? 1.0 : 0.0; };
    s.fi = [test = c.test_int](int64_t a, int64_t b) -> int64_t { return test(a, b) ? 1 : 0; };
    s.tags = {"steps"};  // piecewise constant in a and b (core/compare/precision.cpp)
    if (s.name == "equal") s.tags.push_back("commutative");
    r.add(make_binary(std::move(s)));
  }
}

void add_logic(OpRegistry& r) {
  struct Logic {
    const char* name;
    const char* onnx;
    const char* doc;
    int64_t (*f)(int64_t, int64_t);
  };
  const Logic ops[] = {
      {"and", "And", "Logical and of two bool tensors.",
       [](int64_t a, int64_t b) -> int64_t { return a && b; }},
      {"or", "Or", "Logical or of two bool tensors.",
       [](int64_t a, int64_t b) -> int64_t { return a || b; }},
      {"xor", "Xor", "Logical exclusive or of two bool tensors.",
       [](int64_t a, int64_t b) -> int64_t { return (a != 0) != (b != 0); }},
  };
  for (const Logic& l : ops) {
    BinarySpec s = spec(l.name, l.onnx, l.doc);
    s.dtypes = DTypeSet::Bool;
    s.bool_result = true;
    s.fi = l.f;
    s.tags = {"commutative"};
    r.add(make_binary(std::move(s)));
  }
}

void add_prelu(OpRegistry& r) {
  BinarySpec s =
      spec("prelu", "PRelu", "x for x >= 0, slope * x below; slope broadcasts to x's shape.");
  s.dtypes = DTypeSet::FloatOrWideInt;  // ONNX's PRelu-16
  s.f = [](double x, double slope) { return x < 0 ? slope * x : x; };
  s.fi = [](int64_t x, int64_t slope) { return x < 0 ? wrapping_mul(slope, x) : x; };
  OpDef op = make_binary(std::move(s));
  op.input_names = {"x", "slope"};
  // ONNX broadcasts slope to x unidirectionally: the output keeps x's shape.
  op.infer = [base = op.infer](const std::vector<TensorType>& in, const Attrs& a, size_t n) {
    auto out = base(in, a, n);
    if (out[0].shape != in[0].shape)
      fail("slope of shape {} must broadcast to x's shape {}", shape_str(in[1].shape),
           shape_str(in[0].shape));
    return out;
  };
  r.add(std::move(op));
}

}  // namespace

void register_binary_ops(OpRegistry& r) {
  add_arithmetic(r);
  add_mod(r);
  add_comparisons(r);
  add_logic(r);
  add_prelu(r);
}

}  // namespace retort
