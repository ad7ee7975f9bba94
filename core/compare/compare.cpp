#include "core/compare/compare.h"

#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/compare/undefined_check.h"
#include "core/exec/inputs.h"
#include "core/io/onnx_io.h"

namespace retort {

namespace {

void check_same_inputs(const Graph& original, const CompareGraph& g) {
  auto names = [](const Graph& x) {
    std::vector<std::string> out;
    for (const auto& in : x.inputs) out.push_back(fmt::format("{}: {}", in.name, in.type.str()));
    return out;
  };
  if (names(original) != names(*g.graph))
    fail("'{}' has inputs ({}) but the original has ({}); compare needs the same inputs", g.name,
         fmt::join(names(*g.graph), ", "), fmt::join(names(original), ", "));
}

// The reference run of one graph: its outputs as a RunResult and where its inputs make an op
// undefined.
struct Expected {
  RunResult result;
  std::optional<UndefinedUse> undefined;
};

Expected run_reference(const Graph& g, const TensorMap& inputs) {
  Expected e;
  try {
    TensorMap values = evaluate(g, inputs, {.keep_intermediates = true});
    e.undefined = find_undefined(g, values);
    for (const auto& o : g.outputs) e.result.outputs.emplace(o, values.at(o));
  } catch (const Error& err) {
    e.result.status = RunStatus::error;
    e.result.message = err.what();
    // The inputs may be why the reference failed (a gather index out of range is an evaluation
    // error), so check the values known without evaluating.
    TensorMap known = inputs;
    for (const auto& c : g.constants) known.emplace(c.name, c.value);
    e.undefined = find_undefined(g, known);
  }
  return e;
}

std::vector<std::pair<std::string, std::string>> output_pairs(const Graph& a, const Graph& b) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 0; i < a.outputs.size() && i < b.outputs.size(); ++i)
    pairs.emplace_back(a.outputs[i], b.outputs[i]);
  return pairs;
}

std::string first_failure(const RunComparison& c) {
  if (!c.message.empty()) return c.message;
  for (const auto& d : c.outputs)
    if (d.verdict != Verdict::pass) return d.str();
  return {};
}

}  // namespace

std::string Finding::str() const {
  std::string against = backend_b == backend_a ? graph_b
                        : graph_b == graph_a   ? backend_b
                                               : fmt::format("{} on {}", backend_b, graph_b);
  std::string detail = message;
  for (const auto& d : outputs) {
    if (d.verdict == Verdict::pass) continue;
    if (!detail.empty()) detail += "; ";
    detail += d.str();
  }
  if (!undefined.empty()) detail += fmt::format(" (undefined: {})", undefined);
  return fmt::format("[{}] {} on {} vs {} (seed {}): {}: {}", oracle_name(oracle), backend_a,
                     graph_a, against, seed, verdict_name(verdict), detail);
}

size_t CompareReport::bug_count() const {
  size_t n = 0;
  for (const auto& f : findings) n += is_bug(f.verdict);
  return n;
}

const Finding* CompareReport::bug(size_t n) const {
  for (const auto& f : findings)
    if (is_bug(f.verdict) && --n == 0) return &f;
  return nullptr;
}

CompareReport run_compare(const std::vector<CompareGraph>& graphs,
                          const std::vector<Backend*>& backends, const CompareOptions& options) {
  if (graphs.empty()) fail("compare needs a graph");
  if (backends.empty()) fail("compare needs at least one backend");
  if (options.runs == 0) fail("--runs must be at least 1");
  const Graph& original = *graphs[0].graph;
  for (const auto& g : graphs) check_same_inputs(original, g);

  CompareReport report;
  for (Backend* b : backends) report.backends.push_back(b->info().name);
  for (const auto& g : graphs) {
    report.graphs.push_back(g.name);
    report.graph_defs.push_back(*g.graph);
  }
  report.tolerances = options.tolerances;
  report.cells.resize(backends.size() * graphs.size());
  const std::vector<Check> checks = plan_checks(report.backends, graphs.size());

  std::vector<std::string> onnx(graphs.size());
  for (size_t g = 0; g < graphs.size(); ++g) {
    try {
      onnx[g] = export_onnx(*graphs[g].graph);
    } catch (const Error& e) {
      report.notes.push_back(
          fmt::format("{}: no ONNX model for the workers: {}", graphs[g].name, e.what()));
    }
  }

  for (size_t run = 0; run < options.runs; ++run) {
    uint64_t seed = options.seed + run;
    report.seeds.push_back(seed);
    std::vector<std::string> input_notes;
    TensorMap inputs = generate_inputs(original, seed, &input_notes);
    if (run == 0)
      for (auto& n : input_notes) report.notes.push_back("input " + n);

    std::vector<Expected> expected;
    for (size_t g = 0; g < graphs.size(); ++g) {
      expected.push_back(run_reference(*graphs[g].graph, inputs));
      if (expected.back().undefined)
        report.notes.push_back(fmt::format("{} (seed {}): undefined: {}", graphs[g].name, seed,
                                           expected.back().undefined->str()));
      if (expected.back().result.status != RunStatus::ok)
        report.notes.push_back(fmt::format("{} (seed {}): the reference failed: {}", graphs[g].name,
                                           seed, expected.back().result.message));
    }

    // results[b][g]
    std::vector<std::vector<RunResult>> results(backends.size());
    for (size_t b = 0; b < backends.size(); ++b) {
      for (size_t g = 0; g < graphs.size(); ++g) {
        RunRequest request{
            .graph = graphs[g].graph, .onnx = onnx[g], .inputs = inputs, .outputs = {}};
        results[b].push_back(backends[b]->run(request));
        report.cell(b, g).millis += results[b].back().millis;
      }
    }

    for (const Check& check : checks) {
      const Graph& ga = *graphs[check.graph_a].graph;
      const Graph& gb = *graphs[check.graph_b].graph;
      const RunResult& a = results[check.backend_a][check.graph_a];
      const RunResult& b = check.backend_b == kReferenceSide
                               ? expected[check.graph_b].result
                               : results[check.backend_b][check.graph_b];
      // Two failed runs agree on failing; the reference oracle reports each failure once.
      if (check.oracle != Oracle::reference && a.status != RunStatus::ok &&
          b.status != RunStatus::ok)
        continue;
      RunComparison c = compare_runs(a, b, output_pairs(ga, gb), options.tolerances);
      ++report.checks[std::string(oracle_name(check.oracle))];
      std::string undefined;
      for (size_t g : {check.graph_a, check.graph_b})
        if (undefined.empty() && expected[g].undefined)
          undefined = fmt::format("{}: {}", graphs[g].name, expected[g].undefined->str());
      if (!undefined.empty() &&
          (c.verdict == Verdict::mismatch || c.verdict == Verdict::nan_inf_mismatch))
        c.verdict = Verdict::undefined;
      if (check.oracle == Oracle::reference) {
        CompareCell& cell = report.cell(check.backend_a, check.graph_a);
        if (c.verdict > cell.verdict) cell.message = first_failure(c);
        cell.verdict = worst(cell.verdict, c.verdict);
      }
      if (c.verdict == Verdict::pass || c.verdict == Verdict::unsupported) continue;
      Finding f{
          .oracle = check.oracle,
          .verdict = c.verdict,
          .backend_a = report.backends[check.backend_a],
          .graph_a = graphs[check.graph_a].name,
          .backend_b = check.backend_b == kReferenceSide ? "ref" : report.backends[check.backend_b],
          .graph_b = graphs[check.graph_b].name,
          .seed = seed,
          .outputs = std::move(c.outputs),
          .message = std::move(c.message),
          .undefined = std::move(undefined),
          .signature = {}};
      report.findings.push_back(std::move(f));
    }
  }
  return report;
}

}  // namespace retort
