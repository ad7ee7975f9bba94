// Unary elementwise ops. Floats are computed in double and rounded once to the dtype; the rules
// for NaN, infinities and integer wrap-around are in docs/ops/elementwise.md.
#include <cmath>

#include "core/ops/elementwise.h"
#include "core/ops/onnx_float_attr.h"
#include "core/ops/registry.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

// ONNX Selu defaults: the float32 values of the constants in the SELU paper.
constexpr double kSeluAlpha = 1.67326319217681884765625;
constexpr double kSeluGamma = 1.05070102214813232421875;

using DoubleFn = std::function<double(double)>;

AttrSpec float_attr(std::string name, double def, std::string doc) {
  return AttrSpec{std::move(name), AttrKind::Float, def, false, std::move(doc)};
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

// f_attrs for an op shaped by its attribute 'alpha'.
std::function<DoubleFn(const Attrs&)> with_alpha(double (*f)(double alpha, double x)) {
  return [f](const Attrs& a) {
    double alpha = onnx_float_attr(a, "alpha");
    return DoubleFn([f, alpha](double x) { return f(alpha, x); });
  };
}

// A float-only row given by one function of x.
UnarySpec float_op(std::string name, std::string onnx_type, std::string doc, DoubleFn f,
                   ValueDomain domain = ValueDomain::Any) {
  return {.name = std::move(name),
          .doc = std::move(doc),
          .onnx_type = std::move(onnx_type),
          .f = std::move(f),
          .domain = domain};
}

// A row whose result is piecewise constant in x (tag "steps": floor, ceil, round, sign): the
// precision band lets it take either side of a step that x lies within tolerance of
// (core/compare/precision.cpp).
UnarySpec steps(UnarySpec spec) {
  spec.tags.push_back("steps");
  return spec;
}

// A row that libraries compute only to within a few ulps (tag "approximated": exp, tanh, sin,
// asin...; ONNX Runtime's f32 acos is 2 ulps from the correctly rounded value): the precision
// band moves its results by that much, which next to a pole (tan of acos(0.011)) is a large
// difference downstream (core/compare/precision.cpp).
UnarySpec approximated(UnarySpec spec) {
  spec.tags.push_back("approximated");
  return spec;
}

// A row with poles where its result is infinite (tag "poles": tan at pi/2 + k pi): a few ulps of
// its input there are any value at all, on either side (core/compare/precision.cpp).
UnarySpec poles(UnarySpec spec) {
  spec.tags.push_back("poles");
  return spec;
}

// A row periodic in x (tag "periodic": sin and cos, period 2 pi): an input the precision band
// moves by half a period gives any value of its range (core/compare/precision.cpp).
UnarySpec periodic(UnarySpec spec) {
  spec.tags.push_back("periodic");
  return spec;
}

// A byte copy is exact for every dtype, NaN payloads included.
std::vector<Tensor> copy_kernel(const std::vector<const Tensor*>& in, const Attrs&,
                                const std::vector<TensorType>&) {
  return {*in[0]};
}

// Every unary op, one row each. Rows without dtypes are float-only; rows without fi
// compute integers (where their dtypes allow them) through f.
std::vector<UnarySpec> unary_specs() {
  return {
      // sign family
      {.name = "abs",
       .doc = "|x|. Integers wrap: abs of the most negative value is itself.",
       .onnx_type = "Abs",
       .dtypes = DTypeSet::Numeric,
       .f = [](double x) { return std::fabs(x); },
       .fi = [](int64_t x) { return x < 0 ? wrapping_neg(x) : x; }},
      {.name = "neg",
       .doc = "-x. Integers wrap: neg of the most negative value is itself.",
       .onnx_type = "Neg",
       .dtypes = DTypeSet::SignedNumeric,
       .f = [](double x) { return -x; },
       .fi = wrapping_neg},
      steps({.name = "sign",
             .doc = "-1, 0 or 1 by the sign of x (NaN stays NaN).",
             .onnx_type = "Sign",
             .dtypes = DTypeSet::Numeric,
             .f = sign_of,
             .fi = [](int64_t x) -> int64_t { return x > 0 ? 1 : (x < 0 ? -1 : 0); },
             // ONNX defines the sign of numbers only: ONNX Runtime and torch give 0 for NaN.
             .domain = ValueDomain::NotNaN}),
      {.name = "relu",
       .doc = "max(x, 0); NaN stays NaN.",
       .onnx_type = "Relu",
       .dtypes = DTypeSet::SignedNumeric,
       .f = [](double x) { return x < 0 ? 0.0 : x; },
       .fi = [](int64_t x) -> int64_t { return x < 0 ? 0 : x; },
       .domain = ValueDomain::NotNaN},  // max(0, NaN) is left open
      // activations
      {.name = "leaky_relu",
       .doc = "x for x >= 0, alpha * x below.",
       .onnx_type = "LeakyRelu",
       .attrs = {float_attr("alpha", 0.01, "slope for x < 0")},
       .f_attrs = with_alpha([](double alpha, double x) { return x < 0 ? alpha * x : x; })},
      {.name = "elu",
       .doc = "x for x >= 0, alpha * (e^x - 1) below.",
       .onnx_type = "Elu",
       .attrs = {float_attr("alpha", 1.0, "scale of the negative part")},
       .f_attrs =
           with_alpha([](double alpha, double x) { return x < 0 ? alpha * std::expm1(x) : x; }),
       .tags = {"approximated"}},
      {.name = "selu",
       .doc = "gamma * x for x > 0, gamma * alpha * (e^x - 1) otherwise.",
       .onnx_type = "Selu",
       .attrs = {float_attr("alpha", kSeluAlpha, "scale of the negative part"),
                 float_attr("gamma", kSeluGamma, "overall scale")},
       .f_attrs =
           [](const Attrs& a) {
             double alpha = onnx_float_attr(a, "alpha");
             double gamma = onnx_float_attr(a, "gamma");
             return DoubleFn([alpha, gamma](double x) {
               return x <= 0 ? gamma * alpha * std::expm1(x) : gamma * x;
             });
           },
       .tags = {"approximated"}},
      {.name = "hard_sigmoid",
       .doc = "max(0, min(1, alpha * x + beta)); NaN stays NaN.",
       .onnx_type = "HardSigmoid",
       .domain = ValueDomain::NotNaN,  // max(0, min(1, NaN)) is left open
       .attrs = {float_attr("alpha", 0.2, "slope"), float_attr("beta", 0.5, "offset")},
       .f_attrs =
           [](const Attrs& a) {
             double alpha = onnx_float_attr(a, "alpha");
             double beta = onnx_float_attr(a, "beta");
             return DoubleFn(
                 [alpha, beta](double x) { return nan_max(0.0, nan_min(1.0, alpha * x + beta)); });
           }},
      approximated(float_op("sigmoid", "Sigmoid", "1 / (1 + e^-x).", sigmoid)),
      approximated(
          float_op("softplus", "Softplus", "log(1 + e^x), computed without overflow.", softplus)),
      // x / (1 + |x|) is NaN at the infinities, where ONNX Runtime gives -1 and 1.
      float_op(
          "softsign", "Softsign", "x / (1 + |x|).",
          [](double x) { return x / (1.0 + std::fabs(x)); }, ValueDomain::Finite),
      // transcendental
      approximated(float_op("exp", "Exp", "e^x.", [](double x) { return std::exp(x); })),
      approximated(float_op(
          "log", "Log", "Natural logarithm; log(0) = -inf, log(x < 0) = NaN.",
          [](double x) { return std::log(x); }, ValueDomain::Positive)),
      float_op(
          "sqrt", "Sqrt", "Square root; sqrt(x < 0) = NaN.", [](double x) { return std::sqrt(x); },
          ValueDomain::NonNegative),
      float_op(
          "reciprocal", "Reciprocal", "1 / x; 1/0 = inf with the sign of the zero.",
          [](double x) { return 1.0 / x; }, ValueDomain::NonZero),
      approximated(
          float_op("tanh", "Tanh", "Hyperbolic tangent.", [](double x) { return std::tanh(x); })),
      // Periodic: an argument whose ulp passes the tolerance gives any result (docs/ops).
      periodic(approximated(float_op(
          "sin", "Sin", "Sine (radians).", [](double x) { return std::sin(x); },
          ValueDomain::WellConditioned))),
      periodic(approximated(float_op(
          "cos", "Cos", "Cosine (radians).", [](double x) { return std::cos(x); },
          ValueDomain::WellConditioned))),
      poles(approximated(float_op(
          "tan", "Tan", "Tangent (radians).", [](double x) { return std::tan(x); },
          ValueDomain::WellConditioned))),
      approximated(float_op(
          "asin", "Asin", "Arcsine; NaN outside [-1, 1].", [](double x) { return std::asin(x); },
          ValueDomain::UnitClosed)),
      approximated(float_op(
          "acos", "Acos", "Arccosine; NaN outside [-1, 1].", [](double x) { return std::acos(x); },
          ValueDomain::UnitClosed)),
      approximated(float_op("atan", "Atan", "Arctangent.", [](double x) { return std::atan(x); })),
      approximated(
          float_op("sinh", "Sinh", "Hyperbolic sine.", [](double x) { return std::sinh(x); })),
      approximated(
          float_op("cosh", "Cosh", "Hyperbolic cosine.", [](double x) { return std::cosh(x); })),
      approximated(
          float_op("erf", "Erf", "Gauss error function.", [](double x) { return std::erf(x); })),
      // rounding
      steps(float_op("floor", "Floor", "Largest integer <= x.",
                     [](double x) { return std::floor(x); })),
      steps(float_op("ceil", "Ceil", "Smallest integer >= x.",
                     [](double x) { return std::ceil(x); })),
      steps(float_op("round", "Round", "Nearest integer, ties to even (2.5 -> 2, -0.5 -> -0).",
                     round_half_even)),
      // logic and identity
      {.name = "not",
       .doc = "Logical negation of a bool tensor.",
       .onnx_type = "Not",
       .dtypes = DTypeSet::Bool,
       .fi = [](int64_t x) -> int64_t { return x == 0 ? 1 : 0; }},
      {.name = "identity",
       .doc = "Returns x unchanged (any dtype).",
       .onnx_type = "Identity",
       .dtypes = DTypeSet::Any,
       .kernel = copy_kernel},
  };
}

}  // namespace

void register_unary_ops(OpRegistry& r) {
  for (UnarySpec& spec : unary_specs()) r.add(make_unary(std::move(spec)));
}

}  // namespace retort
