#include "core/compare/tensor_diff.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace retort {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool same_non_finite(double a, double e) {
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
  return a == e;  // equal infinities
}

void note_mismatch(OutputDiff& d, int64_t i, double a, double e) {
  if (d.mismatched++ == 0) {
    d.first_mismatch = i;
    d.first_actual = a;
    d.first_expected = e;
  }
}

}  // namespace

OutputDiff diff_tensors(const Tensor& actual, const Tensor& expected,
                        const ToleranceTable& tolerances) {
  OutputDiff d;
  d.actual_type = actual.type().str();
  d.expected_type = expected.type().str();
  d.numel = expected.numel();
  if (actual.type() != expected.type()) {
    d.verdict = Verdict::ShapeDtypeMismatch;
    return d;
  }
  if (!is_float(expected.dtype())) {
    d.integer = true;
    for (int64_t i = 0; i < d.numel; ++i) {
      int64_t a = actual.get_int(i), e = expected.get_int(i);
      if (a == e) continue;
      // Unsigned, so that the distance of two i64 values is exact (and cannot overflow).
      auto ua = static_cast<uint64_t>(a), ue = static_cast<uint64_t>(e);
      double diff = static_cast<double>(a > e ? ua - ue : ue - ua);
      d.max_abs_error = std::max(d.max_abs_error, diff);
      d.max_rel_error = std::max(d.max_rel_error, e == 0 ? kInf : diff / std::abs(double(e)));
      if (d.mismatched == 0) {
        d.first_actual_int = a;
        d.first_expected_int = e;
      }
      note_mismatch(d, i, static_cast<double>(a), static_cast<double>(e));
    }
    d.chebyshev = d.max_abs_error;
    d.verdict = d.mismatched ? Verdict::Mismatch : Verdict::Pass;
    return d;
  }
  Tolerance tol = tolerances.of(expected.dtype());
  bool non_finite_mismatch = false;
  for (int64_t i = 0; i < d.numel; ++i) {
    double a = actual.get(i), e = expected.get(i);
    if (!std::isfinite(a) || !std::isfinite(e)) {
      if (same_non_finite(a, e)) continue;
      non_finite_mismatch = true;
      d.chebyshev = kInf;
      note_mismatch(d, i, a, e);
      continue;
    }
    double diff = std::abs(a - e);
    d.max_abs_error = std::max(d.max_abs_error, diff);
    d.chebyshev = std::max(d.chebyshev, diff);
    if (diff > 0) d.max_rel_error = std::max(d.max_rel_error, e == 0 ? kInf : diff / std::abs(e));
    if (!tol.allows(a, e, expected.dtype())) note_mismatch(d, i, a, e);
  }
  d.verdict = non_finite_mismatch ? Verdict::NanInfMismatch
              : d.mismatched      ? Verdict::Mismatch
                                  : Verdict::Pass;
  return d;
}

std::string OutputDiff::str() const {
  std::string name = actual_name == expected_name
                         ? actual_name
                         : fmt::format("{} vs {}", actual_name, expected_name);
  if (verdict == Verdict::ShapeDtypeMismatch)
    return fmt::format("{}: shape/dtype mismatch: {} vs {}", name, actual_type, expected_type);
  if (verdict == Verdict::Pass)
    return fmt::format("{}: pass (max_abs={:.3g} max_rel={:.3g})", name, max_abs_error,
                       max_rel_error);
  // Integers exactly: an i64 difference of 188 at 1.2e16 reads "...432 vs ...620", not
  // "1.1591e+16 vs 1.1591e+16".
  auto measure = [this](double v) {
    return integer ? fmt::format("{:.17g}", v) : fmt::format("{:.3g}", v);
  };
  std::string first = integer ? fmt::format("{} vs {}", first_actual_int, first_expected_int)
                              : fmt::format("{:.7g} vs {:.7g}", first_actual, first_expected);
  return fmt::format(
      "{}: {} in {}/{} elements, max_abs={} max_rel={:.3g} chebyshev={}; first at "
      "[{}]: {}",
      name, verdict_name(verdict), mismatched, numel, measure(max_abs_error), max_rel_error,
      measure(chebyshev), first_mismatch, first);
}

RunComparison compare_runs(const RunResult& actual, const RunResult& expected,
                           const std::vector<std::pair<std::string, std::string>>& pairs,
                           const ToleranceTable& tolerances) {
  RunComparison c;
  if (actual.status != RunStatus::Ok || expected.status != RunStatus::Ok) {
    Verdict va = verdict_of_status(actual.status), ve = verdict_of_status(expected.status);
    bool actual_worse = va >= ve;
    const RunResult& failed = actual_worse ? actual : expected;
    c.verdict = actual_worse ? va : ve;
    // The verdict already names the status (crash, error...): the message says it once.
    c.message = actual_worse ? failed.message
                             : fmt::format("in the run compared against: {}", failed.message);
    return c;
  }
  for (const auto& [a_name, e_name] : pairs) {
    auto a = actual.outputs.find(a_name);
    auto e = expected.outputs.find(e_name);
    if (a == actual.outputs.end() || e == expected.outputs.end()) {
      OutputDiff d;
      d.actual_name = a_name;
      d.expected_name = e_name;
      d.verdict = Verdict::ShapeDtypeMismatch;
      d.actual_type = a == actual.outputs.end() ? "missing" : a->second.type().str();
      d.expected_type = e == expected.outputs.end() ? "missing" : e->second.type().str();
      c.verdict = worst(c.verdict, d.verdict);
      c.outputs.push_back(std::move(d));
      continue;
    }
    OutputDiff d = diff_tensors(a->second, e->second, tolerances);
    d.actual_name = a_name;
    d.expected_name = e_name;
    c.verdict = worst(c.verdict, d.verdict);
    c.outputs.push_back(std::move(d));
  }
  return c;
}

}  // namespace retort
