#include "core/compare/report_format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/base/terminal_text.h"
#include "core/compare/signature.h"

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
          // Integers exactly: a double holds an int64 only up to 2^53.
          {"first_actual", d.integer ? nlohmann::json(d.first_actual_int) : number(d.first_actual)},
          {"first_expected",
           d.integer ? nlohmann::json(d.first_expected_int) : number(d.first_expected)}};
}

// A line of the report, whole, whose names (of variants, from a session file or a finding) and
// messages (a worker's) stay on it.
std::string line_text(const std::string& text) {
  return terminal_name(text, 4 * text.size() + 64);
}

// "1-5", "1, 3, 7-9".
std::string seed_ranges(const std::set<uint64_t>& seeds) {
  std::string out;
  for (auto it = seeds.begin(); it != seeds.end();) {
    uint64_t first = *it, last = *it;
    while (++it != seeds.end() && *it == last + 1) last = *it;
    if (!out.empty()) out += ", ";
    out += first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last);
  }
  return out;
}

// The line under a group's first finding that counts the rest.
std::string group_tail(const CompareReport& r, const FindingGroup& g) {
  std::vector<std::string> graphs;
  std::set<uint64_t> seeds;
  for (size_t i : g.members) {
    const Finding& f = r.findings[i];
    if (std::find(graphs.begin(), graphs.end(), f.graph_a) == graphs.end())
      graphs.push_back(f.graph_a);
    seeds.insert(f.seed);
  }
  const Finding& first = r.findings[g.members[0]];
  auto signature = FailureSignature::parse(first.signature);
  return line_text(fmt::format("   and {} more like it ({}): {} {}; {} {}", g.members.size() - 1,
                               signature ? signature->str() : first.signature,
                               graphs.size() == 1 ? "graph" : "graphs", fmt::join(graphs, ", "),
                               seeds.size() == 1 ? "seed" : "seeds", seed_ranges(seeds))) +
         "\n";
}

}  // namespace

std::vector<FindingGroup> group_findings(const CompareReport& r) {
  std::vector<FindingGroup> groups;
  std::map<std::pair<bool, std::string>, size_t> by_key;
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const Finding& f = r.findings[i];
    if (f.signature.empty()) {
      groups.push_back({{i}});
      continue;
    }
    auto [it, added] =
        by_key.emplace(std::make_pair(is_bug(f.verdict), f.signature), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].members.push_back(i);
  }
  return groups;
}

std::string compare_report_text(const CompareReport& r, bool every_finding) {
  std::string out;
  std::vector<std::string> backends, graphs;
  for (const auto& b : r.backends) backends.push_back(terminal_name(b));
  for (const auto& g : r.graphs) graphs.push_back(terminal_name(g));
  size_t w0 = 7;
  for (const auto& b : backends) w0 = std::max(w0, b.size());
  std::vector<size_t> widths;
  for (size_t g = 0; g < graphs.size(); ++g) {
    size_t w = graphs[g].size();
    for (size_t b = 0; b < r.backends.size(); ++b)
      w = std::max(w, verdict_name(r.cell(b, g).verdict).size());
    widths.push_back(w);
  }
  out += fmt::format("{:<{}}", "backend", w0);
  for (size_t g = 0; g < r.graphs.size(); ++g) out += fmt::format("  {:<{}}", graphs[g], widths[g]);
  out += "\n";
  for (size_t b = 0; b < r.backends.size(); ++b) {
    out += fmt::format("{:<{}}", backends[b], w0);
    for (size_t g = 0; g < r.graphs.size(); ++g)
      out += fmt::format("  {:<{}}", verdict_name(r.cell(b, g).verdict), widths[g]);
    out += "\n";
  }
  for (size_t b = 0; b < r.backends.size(); ++b)
    for (size_t g = 0; g < r.graphs.size(); ++g)
      if (r.cell(b, g).verdict == Verdict::Unsupported)
        out += fmt::format("note: {} on {}: unsupported: {}\n", backends[b], graphs[g],
                           line_text(r.cell(b, g).message));
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
  // A bug's number in the whole list, as CompareReport::bug counts.
  std::vector<size_t> number(r.findings.size(), 0);
  for (size_t i = 0, n = 0; i < r.findings.size(); ++i)
    if (is_bug(r.findings[i].verdict)) number[i] = ++n;
  std::vector<FindingGroup> groups;
  if (every_finding) {
    for (size_t i = 0; i < r.findings.size(); ++i) groups.push_back({{i}});
  } else {
    groups = group_findings(r);
  }
  size_t distinct = 0;
  for (bool bugs : {true, false})
    for (const FindingGroup& g : groups) {
      const Finding& first = r.findings[g.members[0]];
      if (is_bug(first.verdict) != bugs) continue;
      distinct += bugs;
      std::string line = line_text(first.str());
      out += bugs ? fmt::format("#{} {}\n", number[g.members[0]], line) : line + "\n";
      if (g.members.size() > 1) out += group_tail(r, g);
    }
  for (const auto& n : r.notes) out += fmt::format("note: {}\n", line_text(n));
  std::string kinds;
  if (!every_finding && distinct < r.bug_count())
    kinds = fmt::format(" ({} distinct; `compare --all` lists each)", distinct);
  out += fmt::format("{} {}{} over {} {}\n", r.bug_count(),
                     r.bug_count() == 1 ? "finding" : "findings", kinds, r.seeds.size(),
                     r.seeds.size() == 1 ? "run" : "runs");
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
    tol[std::string(dtype_name(d))] = {{"atol", t.atol}, {"rtol", t.rtol}, {"ulps", t.ulps}};
  }
  j["tolerances"] = tol;
  j["cells"] = nlohmann::json::array();
  for (size_t b = 0; b < r.backends.size(); ++b)
    for (size_t g = 0; g < r.graphs.size(); ++g) {
      const CompareCell& c = r.cell(b, g);
      nlohmann::json cell = {{"backend", r.backends[b]},
                             {"graph", r.graphs[g]},
                             {"verdict", verdict_name(c.verdict)},
                             {"message", c.message},
                             {"millis", c.millis}};
      if (c.compile_ms) cell["compile_ms"] = *c.compile_ms;
      if (c.run_ms) cell["run_ms"] = *c.run_ms;
      j["cells"].push_back(std::move(cell));
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
                             {"undefined", f.undefined},
                             {"signature", f.signature}});
  }
  j["groups"] = nlohmann::json::array();
  for (const FindingGroup& g : group_findings(r))
    j["groups"].push_back({{"signature", r.findings[g.members[0]].signature},
                           {"count", g.members.size()},
                           {"findings", g.members}});
  j["notes"] = r.notes;
  j["bugs"] = r.bug_count();
  return j.dump(2);
}

}  // namespace retort
