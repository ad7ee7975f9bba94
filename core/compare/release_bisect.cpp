#include "core/compare/release_bisect.h"

#include <algorithm>

#include "core/base/error.h"

namespace retort {

bool finding_reproduces(const CompareReport& report, const Finding& finding, Backend& a, Backend* b,
                        std::string* cell) {
  auto graph = [&](const std::string& name) {
    auto it = std::find(report.graphs.begin(), report.graphs.end(), name);
    if (it == report.graphs.end()) fail("the compare report has no graph '{}'", name);
    return CompareGraph{name, &report.graph_defs[static_cast<size_t>(it - report.graphs.begin())]};
  };
  std::vector<CompareGraph> graphs{graph(report.graphs.front())};
  for (const auto& name : {finding.graph_a, finding.graph_b})
    if (std::none_of(graphs.begin(), graphs.end(), [&](const auto& g) { return g.name == name; }))
      graphs.push_back(graph(name));
  // The baseline first: without a declared baseline, a group's first backend is the baseline.
  std::vector<Backend*> backends;
  if (b) backends.push_back(b);
  backends.push_back(&a);
  // The inputs as the finding had them: its plan (`inputs --range full`, inputs fixed by hand)
  // and its program mutations; the default draws may not show the failure at all.
  CompareReport again = run_compare(graphs, backends,
                                    {.seed = finding.seed,
                                     .runs = 1,
                                     .tolerances = report.tolerances,
                                     .mutations = report.mutations},
                                    report.inputs);
  // The report names backends as they call themselves; match by position instead.
  size_t row = backends.size() - 1;
  size_t column = 0;
  while (again.graphs[column] != finding.graph_a) ++column;
  if (cell) {
    const CompareCell& c = again.cell(row, column);
    *cell = std::string(verdict_name(c.verdict)) + (c.message.empty() ? "" : ": " + c.message);
  }
  for (const auto& f : again.findings)
    if (is_bug(f.verdict) && f.oracle == finding.oracle && f.graph_a == finding.graph_a &&
        f.graph_b == finding.graph_b && f.backend_a == again.backends[row] &&
        (!b || f.backend_b == again.backends[0] || f.oracle != Oracle::Optimization))
      return true;
  return false;
}

BisectOutcome bisect_releases(const std::vector<std::string>& releases,
                              const std::function<bool(const std::string&)>& reproduces) {
  if (releases.size() < 2) fail("bisect needs two releases, not {}", releases.size());
  BisectOutcome out;
  size_t lo = 0, hi = releases.size() - 1;
  bool lo_value = reproduces(releases[lo]);
  bool hi_value = reproduces(releases[hi]);
  out.tested = 2;
  if (lo_value == hi_value)
    fail("the finding {} on both {} and {}: nothing to bisect",
         lo_value ? "reproduces" : "does not reproduce", releases[lo], releases[hi]);
  // Invariant: releases[lo] behaves like the oldest, releases[hi] does not.
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    bool v = reproduces(releases[mid]);
    ++out.tested;
    (v == lo_value ? lo : hi) = mid;
  }
  out.last_same = releases[lo];
  out.first_changed = releases[hi];
  out.oldest_reproduces = lo_value;
  return out;
}

}  // namespace retort
