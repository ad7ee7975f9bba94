#include "core/compare/report_format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace retort {

namespace {

// JSON has no Inf or NaN: those become the strings "inf", "-inf", "nan".
nlohmann::json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

nlohmann::json diff_json(const OutputDiff& d) {
  return {{"actual", d.actual_name},
          {"expected", d.expected_name},
          {"verdict", verdict_name(d.verdict)},
          {"actual_type", d.actual_type},
          {"expected_type", d.expected_type},
          {"max_abs_error", number(d.max_abs_error)},
          {"max_rel_error", number(d.max_rel_error)},
          {"chebyshev", number(d.chebyshev)},
          {"mismatched", d.mismatched},
          {"numel", d.numel},
          {"first_mismatch", d.first_mismatch},
          {"first_actual", number(d.first_actual)},
          {"first_expected", number(d.first_expected)}};
}

}  // namespace

std::string compare_report_text(const CompareReport& r) {
  std::string out;
  size_t w0 = 7;
  for (const auto& b : r.backends) w0 = std::max(w0, b.size());
  std::vector<size_t> widths;
  for (size_t g = 0; g < r.graphs.size(); ++g) {
    size_t w = r.graphs[g].size();
    for (size_t b = 0; b < r.backends.size(); ++b)
      w = std::max(w, verdict_name(r.cell(b, g).verdict).size());
    widths.push_back(w);
  }
  out += fmt::format("{:<{}}", "backend", w0);
  for (size_t g = 0; g < r.graphs.size(); ++g)
    out += fmt::format("  {:<{}}", r.graphs[g], widths[g]);
  out += "\n";
  for (size_t b = 0; b < r.backends.size(); ++b) {
    out += fmt::format("{:<{}}", r.backends[b], w0);
    for (size_t g = 0; g < r.graphs.size(); ++g)
      out += fmt::format("  {:<{}}", verdict_name(r.cell(b, g).verdict), widths[g]);
    out += "\n";
  }
  for (size_t b = 0; b < r.backends.size(); ++b)
    for (size_t g = 0; g < r.graphs.size(); ++g)
      if (r.cell(b, g).verdict == Verdict::unsupported)
        out += fmt::format("note: {} on {}: unsupported: {}\n", r.backends[b], r.graphs[g],
                           r.cell(b, g).message);
  std::vector<std::string> counts;
  for (std::string_view oracle : {"equivalence", "optimization", "reference"}) {
    size_t checks = r.checks.count(std::string(oracle)) ? r.checks.at(std::string(oracle)) : 0;
    size_t bugs = 0;
    std::map<Verdict, size_t> not_bugs;  // undefined, precision, nondeterministic
    for (const auto& f : r.findings) {
      if (oracle_name(f.oracle) != oracle) continue;
      if (is_bug(f.verdict))
        ++bugs;
      else
        ++not_bugs[f.verdict];
    }
    std::vector<std::string> filtered;
    for (const auto& [verdict, n] : not_bugs)
      filtered.push_back(fmt::format("{} {}", n, verdict_name(verdict)));
    out += fmt::format(
        "{}: {} checks, {} failed{}\n", oracle, checks, bugs,
        filtered.empty() ? "" : fmt::format(", {} (not bugs)", fmt::join(filtered, ", ")));
  }
  size_t number = 0;
  for (const auto& f : r.findings)
    if (is_bug(f.verdict)) out += fmt::format("#{} {}\n", ++number, f.str());
  for (const auto& f : r.findings)
    if (!is_bug(f.verdict)) out += f.str() + "\n";
  for (const auto& n : r.notes) out += fmt::format("note: {}\n", n);
  out +=
      fmt::format("{} {} over {} {}\n", r.bug_count(), r.bug_count() == 1 ? "finding" : "findings",
                  r.seeds.size(), r.seeds.size() == 1 ? "run" : "runs");
  return out;
}

std::string compare_report_json(const CompareReport& r) {
  nlohmann::json j;
  j["backends"] = r.backends;
  j["graphs"] = r.graphs;
  j["seeds"] = r.seeds;
  nlohmann::json tol = nlohmann::json::object();
  for (DType d : kAllDTypes) {
    Tolerance t = r.tolerances.of(d);
    tol[std::string(dtype_name(d))] = {{"atol", t.atol}, {"rtol", t.rtol}};
  }
  j["tolerances"] = tol;
  j["cells"] = nlohmann::json::array();
  for (size_t b = 0; b < r.backends.size(); ++b)
    for (size_t g = 0; g < r.graphs.size(); ++g) {
      const CompareCell& c = r.cell(b, g);
      j["cells"].push_back({{"backend", r.backends[b]},
                            {"graph", r.graphs[g]},
                            {"verdict", verdict_name(c.verdict)},
                            {"message", c.message},
                            {"millis", c.millis}});
    }
  j["checks"] = r.checks;
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings) {
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& d : f.outputs) outputs.push_back(diff_json(d));
    j["findings"].push_back({{"oracle", oracle_name(f.oracle)},
                             {"verdict", verdict_name(f.verdict)},
                             {"bug", is_bug(f.verdict)},
                             {"backend_a", f.backend_a},
                             {"graph_a", f.graph_a},
                             {"backend_b", f.backend_b},
                             {"graph_b", f.graph_b},
                             {"seed", f.seed},
                             {"outputs", outputs},
                             {"message", f.message},
                             {"undefined", f.undefined}});
  }
  j["notes"] = r.notes;
  j["bugs"] = r.bug_count();
  return j.dump(2);
}

}  // namespace retort
