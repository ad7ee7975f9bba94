#include "core/exec/inputs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/base/terminal_text.h"
#include "core/ops/registry.h"
#include "core/tensor/number_text.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

struct Requirement {
  InputDomain domain;
  std::string op;
};

// Whether every value of domain `inner` also lies in domain `outer` (set inclusion).
bool domain_within(const InputDomain& inner, const InputDomain& outer) {
  using D = ValueDomain;
  if (inner == outer || outer.kind == D::Any) return true;
  if (outer.kind == D::NotNaN) return inner.kind != D::Any;  // every other domain excludes NaN
  if (outer.kind == D::Finite)                               // the bounded domains
    return inner.kind == D::UnitClosed || inner.kind == D::Probability ||
           inner.kind == D::AxisIndex || inner.kind == D::IntegerTarget;
  switch (inner.kind) {
    case D::Positive:
      return outer.kind == D::NonNegative || outer.kind == D::NonZero;
    case D::AtLeastOne:
      return outer.kind == D::Positive || outer.kind == D::NonNegative || outer.kind == D::NonZero;
    case D::Probability:
      return outer.kind == D::NonNegative || outer.kind == D::UnitClosed;
    case D::AxisIndex:  // the indices of a shorter axis are indices of a longer one
      return outer.kind == D::AxisIndex && inner.axis_size <= outer.axis_size;
    default:
      return false;
  }
}

// The domains that the ops reading `input` directly need, in node order, one per op and domain.
std::vector<Requirement> requirements_of(const Graph& g, const std::string& input) {
  const OpRegistry& reg = OpRegistry::instance();
  std::vector<Requirement> reqs;
  for (const Node& node : g.nodes) {
    if (node.is_opaque()) continue;
    const OpDef* op = reg.find(node.op);
    if (!op) continue;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i] != input) continue;
      ValueDomain kind = op->domain_of_input(i);
      if (kind == ValueDomain::Any || drawn_as_any(kind)) continue;
      InputDomain d = op->domain_of_input(i, input_types(g, node), node.attrs);
      bool seen = false;
      for (const auto& r : reqs) seen |= r.domain == d && r.op == op->name;
      if (!seen) reqs.push_back({d, op->name});
    }
  }
  return reqs;
}

std::string describe(const InputDomain& d) {
  std::string name = d.str();
  if (name.starts_with('[')) return fmt::format("values in {}", name);
  if (name.starts_with('>') || name.starts_with('<')) return fmt::format("values {}", name);
  return fmt::format("{} values", name);
}

std::string ops_needing(const std::vector<Requirement>& reqs, const InputDomain& d) {
  std::vector<std::string> ops;
  for (const auto& r : reqs)
    if (domain_within(d, r.domain) && std::find(ops.begin(), ops.end(), r.op) == ops.end())
      ops.push_back(r.op);
  return fmt::format("{} {}", fmt::join(ops, ", "), ops.size() == 1 ? "needs them" : "need them");
}

// Picks the narrowest required domain that satisfies all the others; when none does (positive
// and [-1, 1], say), the first one wins and the note says which needs are not guaranteed.
InputDomain choose_domain(const std::string& input, const std::vector<Requirement>& reqs,
                          std::vector<std::string>* notes) {
  for (const auto& candidate : reqs) {
    bool covers_all = true;
    for (const auto& r : reqs) covers_all &= domain_within(candidate.domain, r.domain);
    if (!covers_all) continue;
    if (notes)
      notes->push_back(fmt::format("{}: {} ({})", input, describe(candidate.domain),
                                   ops_needing(reqs, candidate.domain)));
    return candidate.domain;
  }
  InputDomain chosen = reqs.front().domain;
  if (notes) {
    std::vector<std::string> unmet;
    for (const auto& r : reqs)
      if (!domain_within(chosen, r.domain))
        unmet.push_back(fmt::format("{} for {}", describe(r.domain), r.op));
    notes->push_back(fmt::format("{}: {} ({}); not guaranteed: {}", input, describe(chosen),
                                 ops_needing(reqs, chosen), fmt::join(unmet, ", ")));
  }
  return chosen;
}

// The smallest and largest value of an integer dtype, within what a double holds exactly.
std::pair<double, double> integer_limits(DType t) {
  int bits = std::min(integer_bits(t), 53);
  if (!is_signed(t)) return {0, std::ldexp(1.0, bits) - 1};
  return {-std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1) - 1};
}

std::vector<double> special_values(DType t) {
  if (is_float(t)) {
    double max = float_max(t);
    double inf = std::numeric_limits<double>::infinity();
    return {0.0, -0.0, 1.0, -1.0, max, -max, inf, -inf, std::numeric_limits<double>::quiet_NaN()};
  }
  auto [lo, hi] = integer_limits(t);
  std::vector<double> v{0, 1, lo, hi};
  if (is_signed(t)) v.push_back(-1);
  return v;
}

// x + offset, held to [lo, hi] without signed overflow (x may be an end of int64).
int64_t offset_within(int64_t x, int64_t offset, int64_t lo, int64_t hi) {
  if (offset > 0) return x > hi - offset ? hi : x + offset;
  return x < lo - offset ? lo : x + offset;
}

// The integers of `t` where narrower paths go wrong: its ends, half its range (a sum of two
// wraps), the square root of its range (a product of two wraps), and for i64 the ends of 32 bits
// and of a double's exact integers.
std::vector<int64_t> wide_anchors(DType t) {
  auto [lo, hi] = integer_range(t);
  int bits = integer_bits(t) - (is_signed(t) ? 1 : 0);  // magnitude bits
  std::vector<int64_t> v{lo, hi, int64_t{1} << (bits - 1), int64_t{1} << ((bits + 1) / 2)};
  if (t == DType::i64)
    for (int e : {31, 53}) v.push_back(int64_t{1} << e);  // 2^32 and 2^62 are there already
  if (is_signed(t)) {
    size_t positive = v.size();
    for (size_t i = 2; i < positive; ++i) v.push_back(-v[i]);
  }
  return v;
}

// One integer of the wide plan, exactly: a standard value, an anchor moved by -2..2, or a
// magnitude in [2^e, 2^(e+1)) for e drawn over the dtype's bits, either sign where it has one.
int64_t wide_integer(DType t, Rng& rng) {
  int64_t pick = rng.uniform_int(0, 7);
  if (pick < 2) {
    int64_t v = rng.uniform_int(-8, 8);
    return is_signed(t) ? v : std::abs(v);
  }
  if (pick < 5) {
    std::vector<int64_t> anchors = wide_anchors(t);
    auto [lo, hi] = integer_range(t);
    // Drawn one after the other: as two arguments of one call their order is unspecified, and
    // g++ and clang would draw other values from one seed.
    int64_t offset = rng.uniform_int(-2, 2);
    int64_t anchor = pick_from(rng, anchors);
    return offset_within(anchor, offset, lo, hi);
  }
  int bits = integer_bits(t) - (is_signed(t) ? 1 : 0);
  int e = static_cast<int>(rng.uniform_int(bits / 2, bits - 1));
  int64_t v = rng.uniform_int(int64_t{1} << e, ((int64_t{1} << e) - 1) * 2 + 1);
  return is_signed(t) && rng.coin() ? -v : v;
}

// One float of the wide plan: a standard value, or +-(2^k + -2..2) for a k where an integer
// dtype ends (rounded to the dtype when stored), within the dtype's range.
double wide_float(DType t, Rng& rng) {
  if (rng.uniform_int(0, 3) == 0) return rng.uniform(-1, 1);
  std::vector<int> powers;
  for (int k : {7, 8, 15, 16, 31, 32, 53, 63, 64})
    if (std::ldexp(1.0, k) + 2 <= float_max(t)) powers.push_back(k);
  int power = pick_from(rng, powers);  // before the offset: one draw order on every compiler
  double v = std::ldexp(1.0, power) + static_cast<double>(rng.uniform_int(-2, 2));
  return rng.coin() ? -v : v;
}

Tensor draw_with_range(const TensorType& type, Rng& rng, const InputPlan& plan) {
  if (type.dtype == DType::boolean || plan.range == InputRange::Standard)
    return random_tensor(type, rng);
  if (plan.range == InputRange::Wide) {
    Tensor t(type);
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (is_float(type.dtype))
        t.set(i, wide_float(type.dtype, rng));
      else
        t.set_int(i, wide_integer(type.dtype, rng));
    }
    return t;
  }
  if (plan.range == InputRange::Interval) {
    double lo = plan.lo, hi = plan.hi;
    if (is_integer(type.dtype)) {
      auto [min, max] = integer_limits(type.dtype);
      lo = std::clamp(lo, min, max);
      hi = std::clamp(hi, min, max);
    }
    return random_tensor_in(type, rng, lo, hi);
  }
  Tensor t(type);
  std::vector<double> special = special_values(type.dtype);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v;
    if (plan.range == InputRange::Special) {
      if (rng.coin()) {
        v = special[static_cast<size_t>(
            rng.uniform_int(0, static_cast<int64_t>(special.size()) - 1))];
      } else {
        v = is_float(type.dtype) ? rng.uniform(-1, 1) : static_cast<double>(rng.uniform_int(-8, 8));
        if (!is_signed(type.dtype)) v = std::fabs(v);
      }
    } else if (is_float(type.dtype)) {
      int exponent = static_cast<int>(rng.uniform_int(-8, 13));  // first, as g++ drew it
      v = std::ldexp(rng.uniform(1, 2), exponent);
      if (rng.coin()) v = -v;
    } else {
      auto [lo, hi] = integer_limits(type.dtype);
      v = static_cast<double>(rng.uniform_int(static_cast<int64_t>(lo), static_cast<int64_t>(hi)));
    }
    if (is_float(type.dtype))
      t.set(i, v);
    else
      t.set_int(i, static_cast<int64_t>(v));
  }
  return t;
}

}  // namespace

std::string InputPlan::range_str() const {
  switch (range) {
    case InputRange::Standard:
      return "standard";
    case InputRange::Full:
      return "full";
    case InputRange::Special:
      return "special";
    case InputRange::Wide:
      return "wide";
    case InputRange::Interval:
      return fmt::format("{}..{}", float_literal(lo), float_literal(hi));
  }
  return "";
}

std::string InputPlan::str() const {
  std::string out = range_str();
  if (!fixed.empty()) {
    std::vector<std::string> names;
    for (const auto& [name, t] : fixed) names.push_back(terminal_name(name));  // a file's names
    out += fmt::format(" (fixed: {})", fmt::join(names, ", "));
  }
  return out;
}

std::optional<InputPlan> parse_input_range(const std::string& text) {
  InputPlan plan;
  if (text == "standard") return plan;
  if (text == "full" || text == "special" || text == "wide") {
    plan.range = text == "full"      ? InputRange::Full
                 : text == "special" ? InputRange::Special
                                     : InputRange::Wide;
    return plan;
  }
  // The separator is the first ".." that is not part of a number ("-1.5..2" has one).
  for (size_t dots = text.find(".."); dots != std::string::npos; dots = text.find("..", dots + 1)) {
    auto lo = parse_float_text(text.substr(0, dots));
    auto hi = parse_float_text(text.substr(dots + 2));
    if (!lo || !hi || !std::isfinite(*lo) || !std::isfinite(*hi) || *lo > *hi) continue;
    plan.range = InputRange::Interval;
    plan.lo = *lo;
    plan.hi = *hi;
    return plan;
  }
  return std::nullopt;
}

InputPlan campaign_input_plan(uint64_t case_seed, double wide) {
  InputPlan plan;
  if (wide > 0 && Rng(mix_seed(case_seed, stable_hash("wide inputs"))).coin(wide)) {
    plan.range = InputRange::Wide;
    return plan;
  }
  Rng rng(mix_seed(case_seed, stable_hash("inputs")));
  if (rng.coin()) return plan;
  switch (rng.uniform_int(0, 2)) {
    case 0:
      plan.range = InputRange::Full;
      break;
    case 1:
      plan.range = InputRange::Special;
      break;
    default:
      plan.range = InputRange::Interval;
      plan.lo = -1000;
      plan.hi = 1000;
  }
  return plan;
}

TensorMap generate_inputs(const Graph& g, uint64_t seed, std::vector<std::string>* notes,
                          const InputPlan& plan) {
  TensorMap inputs;
  for (const ValueInfo& in : g.inputs) {
    if (auto it = plan.fixed.find(in.name); it != plan.fixed.end()) {
      if (it->second.type() != in.type)
        fail("input '{}' is fixed to a {} but the graph's is {}", in.name, it->second.type().str(),
             in.type.str());
      inputs[in.name] = it->second;
      if (notes) notes->push_back(fmt::format("{}: fixed values", in.name));
      continue;
    }
    InputDomain domain;
    std::vector<Requirement> reqs = requirements_of(g, in.name);
    if (!reqs.empty() && in.type.dtype != DType::boolean)
      domain = choose_domain(in.name, reqs, notes);
    Rng rng(mix_seed(seed, stable_hash(in.name)));
    if (domain.kind == ValueDomain::Any) {
      inputs[in.name] = draw_with_range(in.type, rng, plan);
      continue;
    }
    if (plan.range != InputRange::Standard && notes)
      notes->push_back(
          fmt::format("{}: kept to its domain, not the {} range", in.name, plan.range_str()));
    inputs[in.name] = random_tensor(in.type, rng, domain);
  }
  return inputs;
}

}  // namespace retort
