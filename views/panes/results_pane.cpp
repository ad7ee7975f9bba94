#include <algorithm>

#include <fmt/format.h>

#include "core/compare/verdict.h"
#include "views/panes/panes.h"
#include "views/panes/session_text.h"

namespace retort {

namespace {

// One row per backend, one column per graph; a row that holds a bug is drawn as an error. A
// column is as wide as its widest verdict, so every verdict sits under its graph.
void add_cell_table(const CompareReport& r, std::vector<StyledLine>& lines) {
  size_t first = 8;
  for (const auto& b : r.backends) first = std::max(first, b.size());
  std::vector<size_t> widths;
  for (size_t g = 0; g < r.graphs.size(); ++g) {
    size_t w = std::max<size_t>(r.graphs[g].size(), 8);
    for (size_t b = 0; b < r.backends.size(); ++b)
      w = std::max(w, verdict_name(r.cell(b, g).verdict).size());
    widths.push_back(w);
  }
  std::string header = fmt::format("{:<{}}", "backend", first);
  for (size_t g = 0; g < r.graphs.size(); ++g)
    header += fmt::format("  {:<{}}", r.graphs[g], widths[g]);
  lines.push_back({header, Style::Dim});
  for (size_t b = 0; b < r.backends.size(); ++b) {
    std::string row = fmt::format("{:<{}}", r.backends[b], first);
    bool bug = false, all_pass = true;
    for (size_t g = 0; g < r.graphs.size(); ++g) {
      Verdict v = r.cell(b, g).verdict;
      bug = bug || is_bug(v);
      all_pass = all_pass && v == Verdict::Pass;
      row += fmt::format("  {:<{}}", verdict_name(v), widths[g]);
    }
    lines.push_back({row, bug ? Style::Error : all_pass ? Style::Good : Style::Plain});
  }
}

// Milliseconds in a few characters and never in exponent form: 21170, 812, 12.5, 0.19.
std::string ms_text(double ms) {
  if (ms >= 100) return fmt::format("{:.0f}", ms);
  return ms >= 10 ? fmt::format("{:.1f}", ms) : fmt::format("{:.2f}", ms);
}

// Compile and run milliseconds per cell, as the workers measured them ("812+0.4"); only when
// some worker did (ref and workers that do not say have none).
void add_time_table(const CompareReport& r, std::vector<StyledLine>& lines) {
  bool any = std::any_of(r.cells.begin(), r.cells.end(),
                         [](const CompareCell& c) { return c.compile_ms || c.run_ms; });
  if (!any) return;
  auto text = [](const CompareCell& c) {
    if (!c.compile_ms && !c.run_ms) return std::string("-");
    return ms_text(c.compile_ms.value_or(0)) + "+" + ms_text(c.run_ms.value_or(0));
  };
  size_t first = 8;
  for (const auto& b : r.backends) first = std::max(first, b.size());
  std::vector<size_t> widths;
  for (size_t g = 0; g < r.graphs.size(); ++g) {
    size_t w = std::max<size_t>(r.graphs[g].size(), 8);
    for (size_t b = 0; b < r.backends.size(); ++b) w = std::max(w, text(r.cell(b, g)).size());
    widths.push_back(w);
  }
  lines.push_back({"milliseconds, compile+run:", Style::Dim});
  std::string header = fmt::format("{:<{}}", "ms", first);
  for (size_t g = 0; g < r.graphs.size(); ++g)
    header += fmt::format("  {:<{}}", r.graphs[g], widths[g]);
  lines.push_back({header, Style::Dim});
  for (size_t b = 0; b < r.backends.size(); ++b) {
    std::string row = fmt::format("{:<{}}", r.backends[b], first);
    for (size_t g = 0; g < r.graphs.size(); ++g)
      row += fmt::format("  {:<{}}", text(r.cell(b, g)), widths[g]);
    lines.push_back({row, Style::Plain});
  }
}

}  // namespace

std::vector<StyledLine> results_text(const Session& s) {
  const CompareReport* r = s.compare_report();
  if (!r) return {{"no comparisons yet — run compare", Style::Dim}};
  std::vector<StyledLine> lines;
  add_cell_table(*r, lines);
  add_time_table(*r, lines);
  size_t bugs = r->bug_count();
  lines.push_back({bugs ? fmt::format("{} finding(s); `inspect` narrows one, `export repro DIR` "
                                      "writes it out",
                                      bugs)
                        : "no findings",
                   bugs ? Style::Error : Style::Good});
  for (size_t n = 1; n <= bugs; ++n)
    lines.push_back({fmt::format("#{} {}", n, r->bug(n)->str()), Style::Error});
  for (const auto& note : r->notes) lines.push_back({note, Style::Dim});
  return lines;
}

// A larger share than the e-graph and variants above it: at 80x24 (rows 3/5/6) a compare of
// ref, ort:O0 and ort:O3 shows whole.
std::unique_ptr<Pane> make_results_pane() {
  return std::make_unique<SessionTextPane>(
      PaneSpec{.name = "results", .weight = 36, .topics = {Topic::Results}, .header_lines = 1},
      results_text);
}

}  // namespace retort
