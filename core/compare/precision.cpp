#include "core/compare/precision.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/ulp.h"
#include "core/compare/undefined_check.h"
#include "core/ops/attrs.h"
#include "core/ops/onnx_float_attr.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

bool narrower(DType d, DType to) {
  return is_float(d) && dtype_size(d) < dtype_size(to);
}

// The node's first result from `in`.
Tensor first_result(const Node& node, const OpDef& op, const std::vector<const Tensor*>& in) {
  std::vector<TensorType> types;
  for (const Tensor* t : in) types.push_back(t->type());
  return op.kernel(in, node.attrs, op.infer(types, node.attrs, node.outputs.size())).at(0);
}

// Whether finite a lies between the values of `band` (NaNs aside), within the tolerance of
// `dtype`. An infinite end leaves its side open: a sum that another order may move by 8.8e11,
// then sinh, spans -inf to inf, and a compiler's finite value lies between (seed 6812 oatest #3).
bool between(double a, const std::vector<double>& band, DType dtype, const Tolerance& tol) {
  std::vector<double> ends;
  double largest = 0;  // of the finite ends, for the tolerance
  for (double v : band) {
    if (std::isnan(v)) continue;
    ends.push_back(v);
    if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
  }
  if (ends.empty()) return false;
  auto [lo, hi] = std::minmax_element(ends.begin(), ends.end());
  if (!is_float(dtype)) return a >= *lo && a <= *hi;
  double slack = tol.atol + tol.rtol * largest;
  return (a >= *lo - slack && a <= *hi + slack) ||
         (std::isfinite(*lo) && tol.allows(a, *lo, dtype)) ||
         (std::isfinite(*hi) && tol.allows(a, *hi, dtype));
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

// What a summing node's result may be off by through its inputs' own moves (their distance
// from the unmoved evaluation's values, `unmoved`), taken with either sign: the sum of the terms'
// magnitudes with each input's move added to its magnitude, less `magnitudes`, the sum without.
// A product of sums moves all its inputs one way, which bounds nothing where the terms cancel:
// `matmul(v, transpose(v))` of `v = x @ c` whose f32 rounding cancels (seed 7216 oatest #13).
// nullopt where no input carries a move.
std::optional<Tensor> carried_moves(const Node& node, const OpDef& op,
                                    const std::vector<const Tensor*>& inputs,
                                    const TensorMap& unmoved, const Tensor& magnitudes) {
  std::vector<Tensor> widened;
  widened.reserve(inputs.size());
  bool any = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor* t = inputs[i];
    auto at = i < node.inputs.size() ? unmoved.find(node.inputs[i]) : unmoved.end();
    if (!t || !is_float(t->dtype())) {
      widened.push_back(t ? *t : Tensor());
      continue;
    }
    Tensor w = t->cast(DType::f64);
    bool comparable = at != unmoved.end() && at->second.numel() == t->numel();
    for (int64_t k = 0; k < w.numel(); ++k) {
      double v = w.get(k), moved = comparable ? std::abs(v - at->second.get(k)) : 0;
      if (!std::isfinite(v)) continue;
      if (std::isfinite(moved) && moved > 0) any = true;
      w.set(k, std::abs(v) + (std::isfinite(moved) ? moved : 0));
    }
    widened.push_back(std::move(w));
  }
  if (!any) return std::nullopt;
  std::vector<const Tensor*> in;
  for (size_t i = 0; i < widened.size(); ++i) in.push_back(inputs[i] ? &widened[i] : nullptr);
  std::optional<Tensor> with = magnitude_sums(node, op, in);
  if (!with || with->numel() != magnitudes.numel()) return std::nullopt;
  for (int64_t k = 0; k < with->numel(); ++k)
    with->set(k, std::max(0.0, with->get(k) - magnitudes.get(k)));
  return with;
}

// The results of a node that sums, moved by the rounding a compiler may add where it sums in
// another order or in the dtype, `direction` (+1 or -1) times: a float result by eps(dtype) times
// the sum of its terms' magnitudes (a compiler's f32 cancellation, DBL_MAX absorbing the small
// terms in one order and not in another), kept finite; an integer mean by its f64 division.
// Direction 0 moves a float result that far toward 0, onto it where it is that close: the ends of
// the band do not bound what an op that is not monotone makes of it (cosh of 0.33 +- 7e8 is inf
// at both ends, and 1 where f32 cancels the sum to 0: seed 6812 default #12). Given `unmoved`
// (every value of the graph unmoved), a float result moves by what its inputs' own moves carry
// as well (carried_moves).
AdjustResults summation_rounding(double direction, const TensorMap* unmoved) {
  return [direction, unmoved](const Node& node, const std::vector<const Tensor*>& inputs,
                              std::vector<Tensor>& results) {
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (!op || results.empty()) return;
    Tensor& out = results[0];
    if (is_integer(out.dtype()) && op->has_tag("averages")) {
      if (direction == 0) return;
      for (int64_t k = 0; k < out.numel(); ++k)
        out.set_int(k, mean_divided_in_f64(out.get_int(k), direction));
      return;
    }
    if (!is_float(out.dtype())) return;
    std::optional<Tensor> magnitudes = magnitude_sums(node, *op, inputs);
    if (!magnitudes || magnitudes->numel() != out.numel()) return;
    std::optional<Tensor> carried =
        unmoved ? carried_moves(node, *op, inputs, *unmoved, *magnitudes) : std::nullopt;
    double eps = float_epsilon(out.dtype()), max = float_max(out.dtype());
    for (int64_t k = 0; k < out.numel(); ++k) {
      double v = out.get(k), by = eps * magnitudes->get(k) + (carried ? carried->get(k) : 0);
      if (!std::isfinite(v) || by == 0) continue;
      double toward = direction != 0 ? direction : (std::abs(v) <= by ? -v / by : v < 0 ? 1 : -1);
      out.set(k, std::clamp(v + toward * by, -max, max));
    }
  };
}

// Per element of a standardizing op's result, how far its block's mean rounded in the dtype
// moves it: the mean off by eps * log2(block) of its terms' mean magnitude, times the element's
// scale / sqrt(var + epsilon). The scale comes from the op run on blocks of +1 and -1 in turn,
// whose standardized values are known; `bias` is its result on zeros. nullopt where the op
// has no epsilon or a block is empty.
std::optional<Tensor> mean_rounding(const Node& node, const OpDef& op,
                                    const std::vector<const Tensor*>& inputs, const Tensor& bias) {
  const Tensor& x = *inputs[0];
  int64_t block = normalized_block(node, x.shape());
  if (block < 1 || x.numel() % block != 0 || !has_attr(node.attrs, "epsilon")) return std::nullopt;
  double epsilon = onnx_float_attr(node.attrs, "epsilon"), eps = float_epsilon(x.dtype());
  Tensor pattern = x;
  for (int64_t k = 0; k < pattern.numel(); ++k) pattern.set(k, (k % block) % 2 ? -1 : 1);
  std::vector<const Tensor*> in = inputs;
  in[0] = &pattern;
  Tensor unit = first_result(node, op, in);
  if (unit.numel() != x.numel() || bias.numel() != x.numel()) return std::nullopt;
  // The pattern's mean and deviation are those of the first block (each block alike).
  auto [p_mean, p_var] = block_statistics(pattern, 0, block);
  double p_dev = std::sqrt(p_var + epsilon);
  Tensor effect(DType::f64, x.shape());
  for (int64_t start = 0; start < x.numel(); start += block) {
    double dev = std::sqrt(block_statistics(x, start, block).second + epsilon), magnitude = 0;
    for (int64_t k = start; k < start + block; ++k) magnitude += std::abs(x.get(k));
    double off =
        eps * std::log2(std::max<int64_t>(2, block)) * magnitude / static_cast<double>(block);
    for (int64_t k = start; k < start + block; ++k) {
      double n = (pattern.get(k) - p_mean) / p_dev;  // never 0: +-1 against a mean below 1
      double scale = (unit.get(k) - bias.get(k)) / n;
      effect.set(k, off * std::abs(scale) / dev);
    }
  }
  return effect;
}

// The results of an op that standardizes blocks by their own mean and deviation (tag
// "standardizes": layer_norm, instance_norm, group_norm) as rounding in the dtype may make them,
// `direction` (+1 or -1) times: its input's elements moved by eps(dtype) of themselves, up and
// down in turn, as computing x - mean in the dtype may round them (a plane [0.38414547,
// 0.3841812] times a scale of 4.3e9 gives 88704 in f32 where the exact value is 88607: seed 6812
// default #5); and the result moved by eps(dtype) times |n * scale| + |b|, as computing
// n * scale + b in the dtype may round it (n * -FLT_MAX + -FLT_MAX keeps only 1 + n: #24); by
// what its block's mean rounded in the dtype moves it (mean_rounding: an element 1e-6 from its
// group's mean, whose f32 mean is a few ulps off, is 1.3% off in ONNX Runtime and onnx.reference:
// seed 7418 default #43); and the standardized value moved by eps(dtype) * log2(block) of
// itself, the rounding a blocked or pairwise sum of the block's statistics in the dtype leaves on
// its deviation (ONNX Runtime's variance of 65,536 f32 values is 8 eps off, its standardized
// value 7 ulps from pi/2, and tan after it 56 elements off: seed 6913 default #21). Not
// sqrt(block): a wider band crosses tan's poles, whose two sides no pair of band ends holds.
AdjustResults standardization_rounding(double direction) {
  return [direction](const Node& node, const std::vector<const Tensor*>& inputs,
                     std::vector<Tensor>& results) {
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (!op || !op->has_tag("standardizes") || results.empty() || inputs.empty() || !inputs[0] ||
        !is_float(inputs[0]->dtype()) ||
        std::any_of(inputs.begin(), inputs.end(), [](const Tensor* t) { return !t; }))
      return;
    const Tensor& x = *inputs[0];
    double eps = float_epsilon(x.dtype()), max = float_max(results[0].dtype());
    Tensor rounded = x, zeros = x;  // in x's dtype, as the kernel takes it
    for (int64_t k = 0; k < rounded.numel(); ++k) {
      double v = rounded.get(k);
      zeros.set(k, 0);
      if (std::isfinite(v))
        rounded.set(k, v + (k % 2 ? -direction : direction) * eps * std::abs(v));
    }
    auto run = [&](const Tensor& with) {
      std::vector<const Tensor*> in = inputs;
      in[0] = &with;
      return first_result(node, *op, in);
    };
    // Standardized zeros are 0: what is left is b, broadcast as the op broadcasts it.
    Tensor moved = run(rounded), bias = run(zeros);
    Tensor& out = results[0];
    if (moved.numel() != out.numel() || bias.numel() != out.numel()) return;
    double statistics = eps * std::log2(std::max<double>(2, normalized_block(node, x.shape())));
    std::optional<Tensor> mean_moves = mean_rounding(node, *op, inputs, bias);
    for (int64_t k = 0; k < out.numel(); ++k) {
      double v = out.get(k), m = moved.get(k), b = bias.get(k);
      if (!std::isfinite(v) || !std::isfinite(m) || !std::isfinite(b)) continue;
      double terms = std::abs(v - b) + std::abs(b);
      double standardized = (m - b) * (1 + direction * statistics);
      double mean_move = mean_moves && std::isfinite(mean_moves->get(k)) ? mean_moves->get(k) : 0;
      // Every move widens |n * scale| (as the reference has it) in one direction and narrows it
      // in the other: moves of opposite signs would cancel where each alone reaches the
      // compiler's value.
      double away = v < b ? -direction : direction;
      out.set(k, std::clamp(b + standardized + away * (eps * terms + mean_move), -max, max));
    }
  };
}

// How far from the correctly rounded value a library's approximated function may be, in ulps of
// its dtype: ONNX Runtime's f32 acos was 2 off, fast tanh and exp kernels are within 4.
constexpr double kApproximationUlps = 4;

// The float results of an approximated op (tag "approximated": exp, tanh, sin, asin, pow,
// softmax...) moved `direction` times kApproximationUlps ulps of their dtype, kept finite. Next
// to a pole the few ulps are a large difference downstream: tan(tan(acos(0.0112))) is 2.914 with
// ONNX Runtime's acos and 2.897 with the correctly rounded one.
AdjustResults approximation_error(double direction) {
  return [direction](const Node& node, const std::vector<const Tensor*>&,
                     std::vector<Tensor>& results) {
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (!op || !op->has_tag("approximated")) return;
    for (Tensor& out : results) {
      if (!is_float(out.dtype())) continue;
      double max = float_max(out.dtype());
      for (int64_t k = 0; k < out.numel(); ++k) {
        double v = out.get(k);
        if (!std::isfinite(v)) continue;
        double by = kApproximationUlps * ulp_of(v, out.dtype());
        out.set(k, std::clamp(v + direction * by, -max, max));
      }
    }
  };
}

// How far a compiler that computes an interpolation's source coordinates in f32 may put them, in
// ulps of f32 of the coordinate: ONNX Runtime computes x * (L_in - 1) / (L_out - 1), the product
// rounded (seed 6812 default #7: products up to 1.9e9, 128 apart, and coordinates 0.004 off).
constexpr double kCoordinateUlps = 2;

// The float results of a resize (tag "resize") as the f32 rounding of their source coordinates
// may make them, `direction` times: in linear mode moved by the slope of their interpolation
// times that rounding (a 32767 -> 98301 resize of values 1 apart is then up to 0.008 off: seed
// 7216 default #39); in nearest mode rounding to the nearest index, the input value on the
// other side where the coordinate lies that close to the middle between two (a 60852 -> 121704
// resize took the other neighbour in 238 elements: seed 7317 default #25). The slope, and the
// two neighbours, are the resize with nearest floor and ceil; the coordinates, the resize of the
// index along each resized axis. With several resized axes the neighbours are the diagonal's.
AdjustResults coordinate_rounding(double direction) {
  return [direction](const Node& node, const std::vector<const Tensor*>& inputs,
                     std::vector<Tensor>& results) {
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (!op || !op->has_tag("resize") || results.empty() || inputs.size() != 1 || !inputs[0] ||
        !is_float(inputs[0]->dtype()))
      return;
    bool linear = attr_string(node.attrs, "mode") == "linear";
    const std::string& rounding = attr_string(node.attrs, "nearest_mode");
    if (!linear && !rounding.starts_with("round_prefer")) return;  // floor and ceil: not modelled
    const Tensor& x = *inputs[0];
    Tensor& out = results[0];
    auto resize = [&](const Tensor& in, const char* mode, const char* nearest) {
      Attrs a = node.attrs;
      a["mode"] = std::string(mode);
      if (nearest) a["nearest_mode"] = std::string(nearest);
      return op->kernel({&in}, a, op->infer({in.type()}, a, 1)).at(0);
    };
    Tensor below = resize(x, "nearest", "floor"), above = resize(x, "nearest", "ceil");
    double unit = kCoordinateUlps * float_epsilon(DType::f32);
    Tensor reach(DType::f64, out.shape());  // the largest source coordinate, per element
    std::vector<bool> tie(static_cast<size_t>(out.numel()), false);  // within reach of a middle
    const Shape& s = x.shape();
    for (size_t axis = 2; axis < s.size(); ++axis) {
      if (s[axis] == out.shape()[axis]) continue;  // an axis kept: its coordinates are exact
      Tensor ramp(DType::f64, s);
      int64_t inner = numel(Shape(s.begin() + static_cast<int64_t>(axis) + 1, s.end()));
      for (int64_t k = 0; k < ramp.numel(); ++k)
        ramp.set(k, static_cast<double>((k / inner) % s[axis]));
      Tensor at = resize(ramp, "linear", nullptr);
      for (int64_t k = 0; k < reach.numel(); ++k) {
        double c = std::abs(at.get(k));
        reach.set(k, std::max(reach.get(k), c));
        if (std::abs(c - std::floor(c) - 0.5) <= unit * c) tie[static_cast<size_t>(k)] = true;
      }
    }
    double max = float_max(out.dtype());
    for (int64_t k = 0; k < out.numel(); ++k) {
      double v = out.get(k), slope = above.get(k) - below.get(k);
      if (!std::isfinite(v) || !std::isfinite(slope)) continue;
      if (!linear) {
        if (tie[static_cast<size_t>(k)]) out.set(k, direction > 0 ? above.get(k) : below.get(k));
        continue;
      }
      out.set(k, std::clamp(v + direction * unit * reach.get(k) * std::abs(slope), -max, max));
    }
  };
}

// One node's first result computed in f64 from its inputs, float ones made f64 and input i
// replaced by x.
Tensor evaluate_f64(const Node& node, const OpDef& op, const std::vector<const Tensor*>& inputs,
                    size_t i, const Tensor& x) {
  std::vector<Tensor> wide;
  wide.reserve(inputs.size());
  for (size_t j = 0; j < inputs.size(); ++j)
    wide.push_back(j == i                         ? x
                   : is_float(inputs[j]->dtype()) ? inputs[j]->cast(DType::f64)
                                                  : *inputs[j]);
  std::vector<const Tensor*> in;
  for (const Tensor& t : wide) in.push_back(&t);
  return first_result(node, op, in);
}

// x with every finite element moved by `by` of it.
Tensor moved(const Tensor& x, const std::function<double(double)>& by) {
  Tensor out = x;
  for (int64_t k = 0; k < out.numel(); ++k) {
    double v = out.get(k);
    if (std::isfinite(v)) out.set(k, v + by(v));
  }
  return out;
}

// t made f64 and broadcast to `shape`.
Tensor broadcast_f64(const Tensor& t, const Shape& shape) {
  const OpDef& expand = OpRegistry::instance().get("expand");
  Tensor wide = t.cast(DType::f64);
  Attrs attrs{{"shape", std::vector<int64_t>(shape.begin(), shape.end())}};
  return expand.kernel({&wide}, attrs, expand.infer({wide.type()}, attrs, 1)).at(0);
}

// Whether a pole of an op tagged "poles" (tan's, at pi/2 + k pi) lies within `window` of x.
bool pole_within(double x, double window) {
  return std::abs(std::remainder(x - M_PI / 2, M_PI)) <= window;
}

// `moves` followed, where they move the input of a periodic op or of one with poles far enough
// from the unmoved evaluation's (`unmoved`, every value of the graph), by the end of its range in
// the direction's sign: the two directions then hold the whole range, as every result is
// possible there. An op with poles (tag "poles": tan): where a pole lies within the distance the
// moves went, either way, or within 2 kApproximationUlps ulps; its range is infinite. A periodic
// op (tag "periodic": sin, cos, float mod): where they went half a period (a mean of +-9e15
// moved by its rounding by 3.6e8, then tan and a remainder, is any value; ONNX Runtime's atan of
// 3.4e6, one ulp high, is 2.5 ulps from pi/2, and tan of it 5.1e6 where the reference's is 3.2e6:
// seed 7115 oatest #9, seed 7216 default #27 and #40).
AdjustResults open_across_periods(AdjustResults moves, double direction, const TensorMap& unmoved) {
  return [moves = std::move(moves), direction, &unmoved](const Node& node,
                                                         const std::vector<const Tensor*>& inputs,
                                                         std::vector<Tensor>& results) {
    moves(node, inputs, results);
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (direction == 0 || !op || inputs.empty() || !inputs[0] || results.empty()) return;
    bool poles = op->has_tag("poles"), periodic = op->has_tag("periodic");
    auto before = unmoved.find(node.inputs[0]);
    const Tensor& x = *inputs[0];
    Tensor& out = results[0];
    if ((!poles && !periodic) || before == unmoved.end() || !is_float(x.dtype()) ||
        before->second.numel() != x.numel() || out.numel() != x.numel())
      return;
    // A float mod's period, and the bound of its results, is its divisor's magnitude; sin's and
    // cos's are 2 pi and 1.
    std::optional<Tensor> divisor;
    if (node.op == "mod") {
      if (inputs.size() != 2 || !inputs[1] || !is_float(inputs[1]->dtype())) return;
      divisor = broadcast_f64(*inputs[1], out.shape());
    }
    for (int64_t k = 0; k < x.numel(); ++k) {
      double at = before->second.get(k), moved = x.get(k);
      if (!std::isfinite(at) || std::isnan(moved)) continue;
      // An infinite input went past every period: the range of the op before it opened.
      double went = std::abs(moved - at);
      double period = divisor ? std::abs(divisor->get(k)) : 2 * M_PI;
      if (poles && pole_within(at, std::max(went, 2 * kApproximationUlps * ulp_of(at, x.dtype()))))
        out.set(k, direction * HUGE_VAL);
      else if (periodic && went >= period / 2)
        out.set(k, direction * (divisor ? period : 1.0));
    }
  };
}

// An `equal` steps at the single point where its operands meet, which a move by the tolerance
// jumps over: each false element whose float operands lie within tolerance of each other turns
// true, as a compiler's value that far off may meet the other exactly.
void equal_within_tolerance(const std::vector<const Tensor*>& inputs, const Tolerance& tol,
                            Tensor& out) {
  Tensor a = broadcast_f64(*inputs[0], out.shape()), b = broadcast_f64(*inputs[1], out.shape());
  for (int64_t k = 0; k < out.numel(); ++k)
    if (out.get(k) == 0 && tol.allows(a.get(k), b.get(k), inputs[0]->dtype())) out.set(k, 1);
}

// The results of an op that takes steps (tag "steps": floor, ceil, round, sign, comparisons, a
// cast to an integer or bool), each taken the other way where the compiler's tolerated
// difference in its input can take it: a computed float input moved `direction` times its
// tolerance (ONNX Runtime's sigmoid gives 0 for 2e-23, inside every absolute tolerance, and ceil
// then gives 0 for 1). Only an element whose input lies off the step (its neighbours on either
// side give the same result) and only a computed input (not one of `exact`) moves: ceil of an
// integer, or of a graph input, has one right answer. A comparison moves its first computed
// operand, on the step too where its operands differ within tolerance of each other; an equal
// turns true where they lie within tolerance.
AdjustResults step_taken_other_way(double direction, std::set<std::string> exact,
                                   const ToleranceTable& tolerances) {
  return [direction, exact = std::move(exact), &tolerances](
             const Node& node, const std::vector<const Tensor*>& inputs,
             std::vector<Tensor>& results) {
    const OpDef* op = OpRegistry::instance().find(node.op);
    if (!op || !op->has_tag("steps") || results.empty()) return;
    if (node.op == "cast" && is_float(results[0].dtype())) return;  // it rounds, no step
    size_t i = 0;
    while (i < inputs.size() &&
           (!inputs[i] || !is_float(inputs[i]->dtype()) || exact.count(node.inputs[i])))
      ++i;
    if (i == inputs.size() ||
        std::any_of(inputs.begin(), inputs.end(), [](const Tensor* t) { return !t; }))
      return;
    Tolerance tol = tolerances.of(inputs[i]->dtype());
    if (node.op == "equal") return equal_within_tolerance(inputs, tol, results[0]);
    Tensor x = inputs[i]->cast(DType::f64);
    Tensor here = evaluate_f64(node, *op, inputs, i, x);
    Tensor above = evaluate_f64(node, *op, inputs, i,
                                moved(x, [](double v) { return std::nextafter(v, HUGE_VAL) - v; }));
    Tensor below = evaluate_f64(
        node, *op, inputs, i, moved(x, [](double v) { return std::nextafter(v, -HUGE_VAL) - v; }));
    // A cast to bool steps at the single point 0, which a move by the tolerance jumps over
    // (nonzero again): a value within tolerance of 0 moves onto it (ORT's f32 sigmoid is 0 below
    // -18, then true becomes false; seed 6711 oatest #6).
    bool onto_zero = node.op == "cast" && results[0].dtype() == DType::boolean;
    Tensor other = evaluate_f64(node, *op, inputs, i, moved(x, [&](double v) {
                                  double d = tol.atol + tol.rtol * std::abs(v);
                                  return onto_zero && std::abs(v) <= d ? -v : direction * d;
                                }));
    Tensor& out = results[0];
    if (here.numel() != out.numel()) return;
    // A comparison whose operands differ but lie within tolerance of each other may come out
    // either way, on the step too: floor(v) < v with v the least f64 subnormal is on it (one ulp
    // up, floor(v) meets v), and ORT's sigmoid of -744.6 gives 0 where v is 4.9e-324 (seed 6913
    // default #22). Equal operands have one answer: a value compared with its own copy (row 12).
    std::optional<Tensor> a, b;
    if (inputs.size() == 2 && out.dtype() == DType::boolean && is_float(inputs[0]->dtype()) &&
        is_float(inputs[1]->dtype())) {
      a = broadcast_f64(*inputs[0], out.shape());
      b = broadcast_f64(*inputs[1], out.shape());
    }
    for (int64_t k = 0; k < out.numel(); ++k) {
      double v = here.get(k);
      bool near =
          a && a->get(k) != b->get(k) && tol.allows(a->get(k), b->get(k), inputs[0]->dtype());
      if (!near && (above.get(k) != v || below.get(k) != v)) continue;  // on the step, or NaN
      if (is_integer(out.dtype()))
        out.set_int(k, other.get_int(k));
      else
        out.set(k, other.get(k));
    }
  };
}

// The results of a cast from a computed float to a wider float, moved `direction` times the
// narrower dtype's tolerance and rounded to it again: the value keeps the precision it was
// computed in, and stays one its dtype holds (the cast's input is exact in its dtype in every
// evaluation). ONNX Runtime's f32 asin is a few f32 ulps off, inside f32's tolerance; cast to f64
// and squared it would otherwise be judged at f64's. A cast of a value every compiler holds bit
// for bit (one of `exact`) does not move.
AdjustResults cast_up_at_narrower_tolerance(double direction, std::set<std::string> exact,
                                            const ToleranceTable& tolerances) {
  return [direction, exact = std::move(exact), &tolerances](
             const Node& node, const std::vector<const Tensor*>& inputs,
             std::vector<Tensor>& results) {
    if (node.op != "cast" || inputs.size() != 1 || !inputs[0] || results.empty()) return;
    DType from = inputs[0]->dtype();
    Tensor& out = results[0];
    if (!narrower(from, out.dtype()) || !is_float(out.dtype()) || exact.count(node.inputs[0]))
      return;
    Tolerance tol = tolerances.of(from);
    for (int64_t k = 0; k < out.numel(); ++k) {
      double v = out.get(k);
      if (std::isfinite(v)) out.set(k, v + direction * (tol.atol + tol.rtol * std::abs(v)));
    }
    out = out.cast(from).cast(out.dtype());
  };
}

// Whether every finite element of `t` is a value of `dtype`.
bool holds_only(const Tensor& t, DType dtype) {
  Tensor rounded = t.cast(dtype);
  for (int64_t k = 0; k < t.numel(); ++k) {
    double v = t.get(k);
    if (std::isfinite(v) && rounded.get(k) != v) return false;
  }
  return true;
}

// A cast of `value` to `to` added to `wide` under a fresh name (value + suffix), which it
// returns; infer_graph puts the node in order.
std::string add_cast(Graph& wide, const std::string& value, DType to, const std::string& suffix) {
  std::string name = fresh_value_name(wide, value + suffix);
  wide.nodes.push_back(Node{.name = name,
                            .op = "cast",
                            .inputs = {value},
                            .outputs = {name},
                            .attrs = {{"to", std::string(dtype_name(to))}},
                            .opaque = std::nullopt});
  return name;
}

// In `wide`, g widened to `to`, every explicit cast up from a float that the widening made wider
// rounds its input to that float first, as the cast's input is exact in its dtype in every
// evaluation: a compiler that computes an f16 product in f32 and casts it to f64 must give an
// f16 value (ONNX Runtime 1.16.3 and 1.30.0 do not where Mul has no f16 kernel: the rounding the
// Cast owes is lost, the class of its #8787/#9915 that PR #17953 fixed for other casts).
void round_before_casts_up(Graph& wide, const Graph& g, DType to) {
  size_t count = wide.nodes.size();
  for (size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op != "cast" || n.inputs.size() != 1 || n.outputs.size() != 1) continue;
    DType from = g.type_of(n.inputs[0]).dtype;
    if (!held_in(g, n.outputs[0]) || !narrower(from, to)) continue;
    wide.nodes[i].inputs[0] = add_cast(wide, n.inputs[0], from, "_rounded");
  }
}

// In `wide`, g widened to `to`, the float inputs of every op that only moves data (tag "shape":
// reshapes, slices, concatenations) rounded to their narrower dtype in g first. A runtime has
// kernels of every dtype for those, so an island of math it keeps in f32 ends there: ONNX
// Runtime rounds an f32 Sub's result to f16 before its f16 Flatten and runs Selu -> Cos after it
// in f32 again (seed 6610 oatest #9: selu(65504) never overflows to inf).
void round_before_moves(Graph& wide, const Graph& g, DType to) {
  const OpRegistry& reg = OpRegistry::instance();
  for (size_t i = 0; i < g.nodes.size(); ++i) {  // wide's first nodes are g's, in its order
    const OpDef* op = reg.find(g.nodes[i].op);
    if (!op || !op->has_tag("shape")) continue;
    for (size_t j = 0; j < g.nodes[i].inputs.size(); ++j) {
      const std::string& in = g.nodes[i].inputs[j];
      if (in.empty()) continue;
      DType from = g.type_of(in).dtype;
      if (!narrower(from, to)) continue;
      std::string narrow = add_cast(wide, in, from, "_stored");
      wide.nodes[i].inputs[j] = add_cast(wide, narrow, to, "_loaded");
    }
  }
}

}  // namespace

std::optional<DType> held_in(const Graph& g, const std::string& value) {
  const Node* n = g.producer(value);
  if (!n || n->op != "cast" || n->inputs.size() != 1) return std::nullopt;
  DType from = g.type_of(n->inputs[0]).dtype, to = g.type_of(value).dtype;
  if (!is_float(to) || !narrower(from, to)) return std::nullopt;
  return held_in(g, n->inputs[0]).value_or(from);
}

std::optional<Graph> widened_graph(const Graph& g, DType to, WideMoves moves) {
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
    round_before_casts_up(wide, g, to);
    if (moves == WideMoves::RoundedToTheirDType) round_before_moves(wide, g, to);
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

void mark_lost_roundings(RunComparison& c, const Graph& g, const RunResult& actual,
                         const RunResult& expected) {
  for (OutputDiff& d : c.outputs) {
    if (d.verdict != Verdict::Pass || !g.types.count(d.actual_name)) continue;
    std::optional<DType> held = held_in(g, d.actual_name);
    auto a = actual.outputs.find(d.actual_name);
    auto e = expected.outputs.find(d.expected_name);
    if (!held || a == actual.outputs.end() || e == expected.outputs.end()) continue;
    Tensor rounded = a->second.cast(*held);
    for (int64_t k = 0; k < a->second.numel(); ++k) {
      double v = a->second.get(k);
      if (!std::isfinite(v) || rounded.get(k) == v) continue;
      if (d.mismatched++ == 0) {
        d.first_mismatch = k;
        d.first_actual = v;
        d.first_expected = e->second.get(k);
      }
    }
    if (d.mismatched == 0) continue;
    d.verdict = Verdict::Mismatch;
    c.verdict = worst(c.verdict, d.verdict);
    c.message = fmt::format("{} holds values no {} holds: the rounding its cast owes is lost",
                            d.actual_name, dtype_name(*held));
  }
}

PrecisionBands::PrecisionBands(const std::vector<const Graph*>& graphs,
                               const std::vector<const TensorMap*>& reference,
                               const TensorMap& inputs, const ToleranceTable& tolerances)
    : graphs_(graphs), reference_(reference), inputs_(inputs), tolerances_(tolerances) {}

bool PrecisionBands::explains(size_t g, const TensorMap& run,
                              const std::vector<std::string>& outputs) {
  if (!reference_[g] || outputs.empty()) return false;
  const Graph& graph = *graphs_[g];
  for (const std::string& name : outputs) {
    auto actual = run.find(name);
    if (actual == run.end() || !reference_[g]->count(name)) return false;
    // What an explicit cast up made of a narrower float is that float's in every evaluation.
    std::optional<DType> held = graph.types.count(name) ? held_in(graph, name) : std::nullopt;
    if (held && !holds_only(actual->second, *held)) return false;
  }
  const Evaluations& e = evaluations(g);
  // One wider type for the whole run, each with every move; the moves alone where g has none.
  for (size_t w = 0; w < std::max<size_t>(e.wide.size(), 1); ++w) {
    bool all = true;
    for (size_t i = 0; i < outputs.size() && all; ++i) {
      std::vector<const Tensor*> band;
      auto add = [&](const TensorMap& values) {
        auto v = values.find(outputs[i]);
        if (v != values.end()) band.push_back(&v->second);
      };
      if (w < e.wide.size()) add(e.wide[w]);
      for (const TensorMap& values : e.moved) add(values);
      all =
          !band.empty() && within_precision_band(run.at(outputs[i]), reference_[g]->at(outputs[i]),
                                                 band, tolerances_);
    }
    if (all) return true;
  }
  return false;
}

const PrecisionBands::Evaluations& PrecisionBands::evaluations(size_t g) {
  auto it = evaluations_.find(g);
  if (it != evaluations_.end()) return it->second;
  Evaluations e;
  // f16 and bf16 in f32 is what a compiler does that computes their math in f32 (Inductor keeps
  // bf16 intermediates of a fused kernel in f32), either throughout or in islands that end where
  // data only moves (ONNX Runtime's inserted casts); f64 covers the rest.
  for (auto [to, moves] : {std::pair{DType::f32, WideMoves::Wide},
                           std::pair{DType::f32, WideMoves::RoundedToTheirDType},
                           std::pair{DType::f64, WideMoves::Wide}}) {
    std::optional<Graph> w = widened_graph(*graphs_[g], to, moves);
    if (!w) continue;
    try {
      e.wide.push_back(evaluate(*w, widen_inputs(*w, inputs_)));
    } catch (const Error&) {
      // The wide graph fails where the narrow one did not: no band from it.
    }
  }
  // The graph itself with every sum moved toward 0, then up and down, by the rounding of another
  // order; and up and down: every standardization by its rounding in the dtype, every step that a
  // tolerated difference reaches, every computed value cast to a wider float by its own dtype's
  // tolerance, every approximated function's results by the ulps a library may be off, and every
  // resize by its coordinates' rounding in f32; each opened across poles and periods.
  std::set<std::string> exact = exact_values(*graphs_[g]);
  try {
    e.moved.push_back(evaluate(*graphs_[g], inputs_, {.adjust = summation_rounding(0, nullptr)}));
  } catch (const Error&) {
    // As below: no band from it.
  }
  // The reference's own values: how far the moves take each value (reference_[g] is set: explains
  // asks for no evaluations without it).
  const TensorMap& unmoved = *reference_[g];
  for (double direction : {1.0, -1.0}) {
    for (AdjustResults adjust :
         {summation_rounding(direction, &unmoved), standardization_rounding(direction),
          step_taken_other_way(direction, exact, tolerances_),
          cast_up_at_narrower_tolerance(direction, exact, tolerances_),
          approximation_error(direction), coordinate_rounding(direction)}) {
      try {
        e.moved.push_back(evaluate(*graphs_[g], inputs_,
                                   {.adjust = open_across_periods(adjust, direction, unmoved)}));
      } catch (const Error&) {
        // A moved value fails a kernel downstream (an index, a shape): no band from it.
      }
    }
  }
  return evaluations_.emplace(g, std::move(e)).first->second;
}

}  // namespace retort
