// Unary elementwise ops. Floats are computed in double and rounded once to the dtype; the rules
// for NaN, infinities and integer wrap-around are in docs/ops/elementwise.md.
#include <cmath>

#include "core/ops/kernel_util.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

// ONNX Selu defaults: the float32 values of the constants in the SELU paper.
constexpr double kSeluAlpha = 1.67326319217681884765625;
constexpr double kSeluGamma = 1.05070102214813232421875;

AttrSpec float_attr(std::string name, double def, std::string doc) {
  return AttrSpec{std::move(name), AttrKind::Float, def, false, std::move(doc)};
}

// A float-only op given by one function of x.
void add_float(OpRegistry& r, std::string name, std::string onnx, std::string doc,
               double (*f)(double), ValueDomain domain = ValueDomain::Any) {
  UnarySpec s;
  s.name = std::move(name);
  s.onnx_type = std::move(onnx);
  s.doc = std::move(doc);
  s.f = f;
  s.domain = domain;
  r.add(make_unary(std::move(s)));
}

double sign_of(double x) {
  if (std::isnan(x)) return x;
  return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}

// log(1 + e^x) without overflow for large x.
double softplus(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

double sigmoid(double x) {
  // Both branches keep exp's argument non-positive, so nothing overflows.
  if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
  double e = std::exp(x);
  return e / (1.0 + e);
}

void add_sign_family(OpRegistry& r) {
  UnarySpec abs;
  abs.name = "abs";
  abs.onnx_type = "Abs";
  abs.doc = "|x|. Integers wrap: abs of the most negative value is itself.";
  abs.dtypes = DTypeSet::Numeric;
  abs.f = [](double x) { return std::fabs(x); };
  abs.fi = [](int64_t x) { return x < 0 ? wrapping_neg(x) : x; };
  r.add(make_unary(std::move(abs)));

  UnarySpec neg;
  neg.name = "neg";
  neg.onnx_type = "Neg";
  neg.doc = "-x. Integers wrap: neg of the most negative value is itself.";
  neg.dtypes = DTypeSet::SignedNumeric;
  neg.f = [](double x) { return -x; };
  neg.fi = wrapping_neg;
  r.add(make_unary(std::move(neg)));

  UnarySpec sign;
  sign.name = "sign";
  sign.onnx_type = "Sign";
  sign.doc = "-1, 0 or 1 by the sign of x (NaN stays NaN).";
  sign.dtypes = DTypeSet::Numeric;
  sign.f = sign_of;
  sign.fi = [](int64_t x) -> int64_t { return x > 0 ? 1 : (x < 0 ? -1 : 0); };
  r.add(make_unary(std::move(sign)));

  UnarySpec relu;
  relu.name = "relu";
  relu.onnx_type = "Relu";
  relu.doc = "max(x, 0); NaN stays NaN.";
  relu.dtypes = DTypeSet::SignedNumeric;
  relu.f = [](double x) { return x < 0 ? 0.0 : x; };
  relu.fi = [](int64_t x) -> int64_t { return x < 0 ? 0 : x; };
  r.add(make_unary(std::move(relu)));
}

void add_activations(OpRegistry& r) {
  UnarySpec leaky;
  leaky.name = "leaky_relu";
  leaky.onnx_type = "LeakyRelu";
  leaky.doc = "x for x >= 0, alpha * x below.";
  leaky.attrs = {float_attr("alpha", 0.01, "slope for x < 0")};
  leaky.f_attrs = [](const Attrs& a) {
    double alpha = attr_float(a, "alpha");
    return std::function<double(double)>([alpha](double x) { return x < 0 ? alpha * x : x; });
  };
  r.add(make_unary(std::move(leaky)));

  UnarySpec elu;
  elu.name = "elu";
  elu.onnx_type = "Elu";
  elu.doc = "x for x >= 0, alpha * (e^x - 1) below.";
  elu.attrs = {float_attr("alpha", 1.0, "scale of the negative part")};
  elu.f_attrs = [](const Attrs& a) {
    double alpha = attr_float(a, "alpha");
    return std::function<double(double)>(
        [alpha](double x) { return x < 0 ? alpha * std::expm1(x) : x; });
  };
  r.add(make_unary(std::move(elu)));

  UnarySpec selu;
  selu.name = "selu";
  selu.onnx_type = "Selu";
  selu.doc = "gamma * x for x > 0, gamma * alpha * (e^x - 1) otherwise.";
  selu.attrs = {float_attr("alpha", kSeluAlpha, "scale of the negative part"),
                float_attr("gamma", kSeluGamma, "overall scale")};
  selu.f_attrs = [](const Attrs& a) {
    double alpha = attr_float(a, "alpha");
    double gamma = attr_float(a, "gamma");
    return std::function<double(double)>(
        [alpha, gamma](double x) { return x <= 0 ? gamma * alpha * std::expm1(x) : gamma * x; });
  };
  r.add(make_unary(std::move(selu)));

  UnarySpec hard;
  hard.name = "hard_sigmoid";
  hard.onnx_type = "HardSigmoid";
  hard.doc = "max(0, min(1, alpha * x + beta)); NaN stays NaN.";
  hard.attrs = {float_attr("alpha", 0.2, "slope"), float_attr("beta", 0.5, "offset")};
  hard.f_attrs = [](const Attrs& a) {
    double alpha = attr_float(a, "alpha");
    double beta = attr_float(a, "beta");
    return std::function<double(double)>(
        [alpha, beta](double x) { return nan_max(0.0, nan_min(1.0, alpha * x + beta)); });
  };
  r.add(make_unary(std::move(hard)));

  add_float(r, "sigmoid", "Sigmoid", "1 / (1 + e^-x).", sigmoid);
  add_float(r, "softplus", "Softplus", "log(1 + e^x), computed without overflow.", softplus);
  add_float(r, "softsign", "Softsign", "x / (1 + |x|).",
            [](double x) { return x / (1.0 + std::fabs(x)); });
}

void add_transcendental(OpRegistry& r) {
  add_float(r, "exp", "Exp", "e^x.", [](double x) { return std::exp(x); });
  add_float(
      r, "log", "Log", "Natural logarithm; log(0) = -inf, log(x < 0) = NaN.",
      [](double x) { return std::log(x); }, ValueDomain::Positive);
  add_float(
      r, "sqrt", "Sqrt", "Square root; sqrt(x < 0) = NaN.", [](double x) { return std::sqrt(x); },
      ValueDomain::NonNegative);
  add_float(
      r, "reciprocal", "Reciprocal", "1 / x; 1/0 = inf with the sign of the zero.",
      [](double x) { return 1.0 / x; }, ValueDomain::NonZero);
  add_float(r, "tanh", "Tanh", "Hyperbolic tangent.", [](double x) { return std::tanh(x); });
  add_float(r, "sin", "Sin", "Sine (radians).", [](double x) { return std::sin(x); });
  add_float(r, "cos", "Cos", "Cosine (radians).", [](double x) { return std::cos(x); });
  add_float(r, "tan", "Tan", "Tangent (radians).", [](double x) { return std::tan(x); });
  add_float(
      r, "asin", "Asin", "Arcsine; NaN outside [-1, 1].", [](double x) { return std::asin(x); },
      ValueDomain::UnitClosed);
  add_float(
      r, "acos", "Acos", "Arccosine; NaN outside [-1, 1].", [](double x) { return std::acos(x); },
      ValueDomain::UnitClosed);
  add_float(r, "atan", "Atan", "Arctangent.", [](double x) { return std::atan(x); });
  add_float(r, "sinh", "Sinh", "Hyperbolic sine.", [](double x) { return std::sinh(x); });
  add_float(r, "cosh", "Cosh", "Hyperbolic cosine.", [](double x) { return std::cosh(x); });
  add_float(r, "erf", "Erf", "Gauss error function.", [](double x) { return std::erf(x); });
}

void add_rounding(OpRegistry& r) {
  add_float(r, "floor", "Floor", "Largest integer <= x.", [](double x) { return std::floor(x); });
  add_float(r, "ceil", "Ceil", "Smallest integer >= x.", [](double x) { return std::ceil(x); });
  add_float(r, "round", "Round", "Nearest integer, ties to even (2.5 -> 2, -0.5 -> -0).",
            round_half_even);
}

void add_logic_and_identity(OpRegistry& r) {
  UnarySpec lnot;
  lnot.name = "not";
  lnot.onnx_type = "Not";
  lnot.doc = "Logical negation of a bool tensor.";
  lnot.dtypes = DTypeSet::Bool;
  lnot.fi = [](int64_t x) -> int64_t { return x == 0 ? 1 : 0; };
  r.add(make_unary(std::move(lnot)));

  UnarySpec id;
  id.name = "identity";
  id.onnx_type = "Identity";
  id.doc = "Returns x unchanged (any dtype).";
  id.dtypes = DTypeSet::Any;
  OpDef op = make_unary(std::move(id));
  // A byte copy is exact for every dtype, NaN payloads included.
  op.kernel = [](const std::vector<const Tensor*>& in, const Attrs&,
                 const std::vector<TensorType>&) { return std::vector<Tensor>{*in[0]}; };
  r.add(std::move(op));
}

}  // namespace

void register_unary_ops(OpRegistry& r) {
  add_sign_family(r);
  add_activations(r);
  add_transcendental(r);
  add_rounding(r);
  add_logic_and_identity(r);
}

}  // namespace retort
