#include "core/compare/compare.h"

#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/backend/family.h"
#include "core/base/error.h"
#include "core/compare/output_match.h"
#include "core/compare/precision.h"
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
    fail(
        "'{}' has inputs ({}) but the original has ({}); compare needs the same inputs: the "
        "variant was made from another graph (`variants drop {}` removes it)",
        g.name, fmt::join(names(*g.graph), ", "), fmt::join(names(original), ", "), g.name);
}

// The reference run of one graph: its outputs as a RunResult and where its inputs make an op
// undefined.
struct Expected {
  RunResult result;
  std::optional<UndefinedUse> undefined;
  TensorMap values;  // every value of the graph, for the precision bands
};

Expected run_reference(const Graph& g, const TensorMap& inputs) {
  Expected e;
  try {
    e.values = evaluate(g, inputs, {.keep_intermediates = true});
    e.undefined = find_undefined(g, e.values);
    for (const auto& o : g.outputs) e.result.outputs.emplace(o, e.values.at(o));
  } catch (const Error& err) {
    e.result.status = RunStatus::Error;
    e.result.message = err.what();
    // The inputs may be why the reference failed (a gather index out of range is an evaluation
    // error), so check the values known without evaluating.
    TensorMap known = inputs;
    for (const auto& c : g.constants) known.emplace(c.name, c.value);
    e.undefined = find_undefined(g, known);
  }
  return e;
}

// Whether an output that differs is computed from an undefined use: the actual side's of graph
// a, the expected side's of graph b.
bool differs_downstream_of_undefined(const RunComparison& c,
                                     const std::optional<UndefinedUse>& in_a,
                                     const std::optional<UndefinedUse>& in_b) {
  return std::any_of(c.outputs.begin(), c.outputs.end(), [&](const OutputDiff& d) {
    return d.verdict != Verdict::Pass && ((in_a && in_a->tainted.count(d.actual_name)) ||
                                          (in_b && in_b->tainted.count(d.expected_name)));
  });
}

std::string first_failure(const RunComparison& c) {
  if (!c.message.empty()) return c.message;
  for (const auto& d : c.outputs)
    if (d.verdict != Verdict::Pass) return d.str();
  return {};
}

// A difference in values (not a failed run): what a repeated run must show again before it is
// reported as a miscompilation.
bool is_value_difference(Verdict v) {
  return v == Verdict::Mismatch || v == Verdict::NanInfMismatch || v == Verdict::ShapeDtypeMismatch;
}

// Repeats a backend's run of a graph on the same inputs, once, when a check is about to report
// a difference in its values: outputs that change between identical runs are nondeterminism,
// not a miscompilation (threads reducing in another order, uninitialised memory).
class Reruns {
 public:
  Reruns(const std::vector<Backend*>& backends, const std::vector<CompareGraph>& graphs,
         const std::vector<std::string>& onnx, const TensorMap& inputs,
         const std::vector<std::vector<RunResult>>& results,
         const std::vector<ProgramMutation>& mutations)
      : backends_(backends),
        graphs_(graphs),
        onnx_(onnx),
        inputs_(inputs),
        results_(results),
        mutations_(mutations) {}

  // Empty when the repeated run gave the same outputs bit for bit; else what changed.
  const std::string& changed(size_t b, size_t g) {
    auto key = std::make_pair(b, g);
    auto it = changed_.find(key);
    if (it != changed_.end()) return it->second;
    const RunResult& first = results_[b][g];
    RunRequest request{
        .graph = graphs_[g].graph, .onnx = onnx_[g], .inputs = inputs_, .outputs = {}};
    request.mutations = mutations_;
    const RunResult& again = again_.emplace(key, backends_[b]->run(request)).first->second;
    std::string text;
    if (again.status != first.status)
      text = fmt::format("a repeated run of {} on {} ended {} instead of {}",
                         backends_[b]->info().name, graphs_[g].name, run_status_name(again.status),
                         run_status_name(first.status));
    for (const auto& [name, value] : first.outputs) {
      auto other = again.outputs.find(name);
      if (!text.empty()) break;
      if (other == again.outputs.end() || !(other->second == value))
        text = fmt::format("a repeated run of {} on {} gave other values for output '{}'",
                           backends_[b]->info().name, graphs_[g].name, name);
    }
    return changed_.emplace(key, std::move(text)).first->second;
  }

  // The repeated run of backend b on graph g (after changed(b, g)).
  const RunResult& again(size_t b, size_t g) const { return again_.at({b, g}); }

 private:
  const std::vector<Backend*>& backends_;
  const std::vector<CompareGraph>& graphs_;
  const std::vector<std::string>& onnx_;
  const TensorMap& inputs_;
  const std::vector<std::vector<RunResult>>& results_;
  const std::vector<ProgramMutation>& mutations_;
  std::map<std::pair<size_t, size_t>, std::string> changed_;
  std::map<std::pair<size_t, size_t>, RunResult> again_;
};

// Whether a backend that changed between two runs was wrong both times against the exact
// reference: threads reducing in another order stay within tolerance of it, so a repeated run
// as far from the reference reads something no input defines (uninitialised memory), a bug
// whichever run is taken. Against another backend nothing is exact, so that stays
// nondeterminism.
bool wrong_again(const Check& check, const RunComparison& first, const Reruns& reruns,
                 const RunResult& reference, const GraphOutputs& matched,
                 const ToleranceTable& tolerances) {
  if (check.backend_b != kReferenceSide) return false;
  RunComparison again = compare_runs(reruns.again(check.backend_a, check.graph_a), reference,
                                     matched.pairs(check.graph_a, check.graph_b), tolerances);
  return again.verdict == first.verdict;
}

// Whether every differing output of a check lies, on each side, in the precision band of its
// graph (core/compare/precision.h), one wider type explaining all of that side's: a side
// that skipped intermediate roundings, not a miscompilation. The reference side is its own band.
bool explained_by_precision(const Check& check, const RunComparison& c, const RunResult& a,
                            const RunResult& b, PrecisionBands& bands) {
  std::vector<std::string> of_a, of_b;
  for (const auto& d : c.outputs) {
    if (d.verdict == Verdict::Pass) continue;
    if (d.verdict != Verdict::Mismatch && d.verdict != Verdict::NanInfMismatch) return false;
    of_a.push_back(d.actual_name);
    of_b.push_back(d.expected_name);
  }
  return bands.explains(check.graph_a, a.outputs, of_a) &&
         (check.backend_b == kReferenceSide || bands.explains(check.graph_b, b.outputs, of_b));
}

// The shortest error text that counts as repeating another mode's refusal: a whole sentence of the
// compiler's, not a word that any message holds.
constexpr size_t kRepeatedRefusalChars = 12;

// An error that repeats, word for word, what another mode of the same release refused on the same
// graph is that refusal: ONNX Runtime's constant folding raises a kernel's "Cannot slice scalars"
// while loading at O3 where O0 refuses the model when it runs it. Two modes failing alike on a
// form the release does not run are no miscompilation. The error is compared without the
// wrappers its release puts around another error's text (error_core): 1.16.3 says "Exception
// during initialization: " before the kernel's words at O3.
void mark_repeated_refusals(const std::vector<std::string>& names,
                            std::vector<std::vector<RunResult>>& results) {
  for (size_t b = 0; b < names.size(); ++b)
    for (size_t g = 0; g < results[b].size(); ++g) {
      RunResult& r = results[b][g];
      std::string text = error_core(names[b], r.message);
      if (r.status != RunStatus::Error || text.size() < kRepeatedRefusalChars) continue;
      for (size_t other = 0; other < names.size(); ++other) {
        const RunResult& refused = results[other][g];
        if (other == b || refused.status != RunStatus::Unsupported ||
            oracle_group(names[other]) != oracle_group(names[b]) ||
            refused.message.find(text) == std::string::npos)
          continue;
        r.status = RunStatus::Unsupported;
        r.message = fmt::format("{} refuses what {} refuses: {}", names[b], names[other], text);
        break;
      }
    }
}

}  // namespace

std::string Finding::str() const {
  std::string against = backend_b == backend_a ? graph_b
                        : graph_b == graph_a   ? backend_b
                                               : fmt::format("{} on {}", backend_b, graph_b);
  // The outputs the verdict comes from first: a shape mismatch's text starts at the output of
  // the wrong shape, not at another that merely differs (issue 41).
  std::string detail = message;
  for (bool carries : {true, false})
    for (const auto& d : outputs) {
      if (d.verdict == Verdict::Pass || (d.verdict == verdict) != carries) continue;
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
                          const std::vector<Backend*>& backends, const CompareOptions& options,
                          const InputPlan& input_plan) {
  if (graphs.empty()) fail("compare needs a graph");
  if (backends.empty()) fail("compare needs at least one backend");
  if (options.runs == 0) fail("--runs must be at least 1");
  const Graph& original = *graphs[0].graph;
  for (const auto& g : graphs) check_same_inputs(original, g);
  // How each variant's outputs stand for the original's (core/compare/output_match.h), and which
  // extra outputs of two variants denote the same value.
  std::vector<const Graph*> defs;
  std::vector<std::string> names;
  for (const auto& g : graphs) {
    defs.push_back(g.graph);
    names.push_back(g.name);
  }
  GraphOutputs matched = match_graph_outputs(defs, names);

  CompareReport report;
  for (Backend* b : backends) report.backends.push_back(b->info().name);
  for (const auto& g : graphs) {
    report.graphs.push_back(g.name);
    report.graph_defs.push_back(*g.graph);
  }
  report.tolerances = options.tolerances;
  report.mutations = options.mutations;
  report.inputs = input_plan;
  report.cells.resize(backends.size() * graphs.size());
  std::vector<Check> checks = plan_checks(report.backends, graphs.size());
  // Two variants that expose the same intermediate value check it against each other.
  for (size_t b = 0; b < backends.size() && matched.with_extras >= 2; ++b)
    for (size_t g = 2; g < graphs.size(); ++g)
      for (size_t h = 1; h < g; ++h)
        if (!matched.pairs(g, h).empty()) checks.push_back({Oracle::Equivalence, b, g, b, h});

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
    TensorMap inputs = generate_inputs(original, seed, &input_notes, input_plan);
    if (run == 0)
      for (auto& n : input_notes) report.notes.push_back("input " + n);

    std::vector<Expected> expected;
    for (size_t g = 0; g < graphs.size(); ++g) {
      expected.push_back(run_reference(*graphs[g].graph, inputs));
      if (expected.back().undefined)
        report.notes.push_back(fmt::format("{} (seed {}): undefined: {}", graphs[g].name, seed,
                                           expected.back().undefined->str()));
      if (expected.back().result.status != RunStatus::Ok)
        report.notes.push_back(fmt::format("{} (seed {}): the reference failed: {}", graphs[g].name,
                                           seed, expected.back().result.message));
    }

    // results[b][g]
    std::vector<std::vector<RunResult>> results(backends.size());
    for (size_t b = 0; b < backends.size(); ++b) {
      for (size_t g = 0; g < graphs.size(); ++g) {
        RunRequest request{
            .graph = graphs[g].graph, .onnx = onnx[g], .inputs = inputs, .outputs = {}};
        request.mutations = options.mutations;
        results[b].push_back(backends[b]->run(request));
        RunResult& result = results[b].back();
        if (result.status == RunStatus::Error)
          if (const Refusal* refusal = find_refusal(report.backends[b], result.message)) {
            result.status = RunStatus::Unsupported;
            result.message =
                fmt::format("{} refuses {}: {}", report.backends[b], refusal->why, result.message);
          }
        if (options.progress)
          options.progress((run * backends.size() + b) * graphs.size() + g + 1,
                           options.runs * backends.size() * graphs.size(), report.backends[b]);
        CompareCell& cell = report.cell(b, g);
        cell.millis += result.millis;
        if (result.compile_ms)
          cell.compile_ms = std::max(cell.compile_ms.value_or(0), *result.compile_ms);
        if (result.run_ms) cell.run_ms = cell.run_ms.value_or(0) + *result.run_ms;
      }
    }

    mark_repeated_refusals(report.backends, results);
    Reruns reruns{backends, graphs, onnx, inputs, results, options.mutations};
    std::vector<const Graph*> graph_defs;
    std::vector<const TensorMap*> reference_values;
    for (size_t g = 0; g < graphs.size(); ++g) {
      graph_defs.push_back(graphs[g].graph);
      reference_values.push_back(expected[g].result.status == RunStatus::Ok ? &expected[g].values
                                                                            : nullptr);
    }
    PrecisionBands bands{graph_defs, reference_values, inputs, options.tolerances};
    for (const Check& check : checks) {
      const RunResult& a = results[check.backend_a][check.graph_a];
      const RunResult& b = check.backend_b == kReferenceSide
                               ? expected[check.graph_b].result
                               : results[check.backend_b][check.graph_b];
      // Two failed runs agree on failing; the reference oracle reports each failure once.
      if (check.oracle != Oracle::Reference && a.status != RunStatus::Ok &&
          b.status != RunStatus::Ok)
        continue;
      RunComparison c =
          compare_runs(a, b, matched.pairs(check.graph_a, check.graph_b), options.tolerances);
      if (check.backend_b == kReferenceSide)
        mark_lost_roundings(c, *graphs[check.graph_a].graph, a, b);
      ++report.checks[std::string(oracle_name(check.oracle))];
      std::string undefined;
      bool any_outcome = false, crash_open = false;
      for (size_t g : {check.graph_a, check.graph_b}) {
        if (!expected[g].undefined) continue;
        if (undefined.empty())
          undefined = fmt::format("{}: {}", graphs[g].name, expected[g].undefined->str());
        any_outcome |= expected[g].undefined->any_outcome;
        crash_open |= !expected[g].undefined->crash_open_at.empty();
      }
      // A difference in values is undefined only where an undefined use feeds it: one elsewhere in
      // the graph leaves the other outputs' values as defined as before.
      bool values_differ = c.verdict == Verdict::Mismatch || c.verdict == Verdict::NanInfMismatch ||
                           c.verdict == Verdict::ShapeDtypeMismatch;
      if (values_differ && !differs_downstream_of_undefined(c, expected[check.graph_a].undefined,
                                                            expected[check.graph_b].undefined))
        undefined.clear();
      if (!undefined.empty() && !options.keep_undefined &&
          (c.verdict == Verdict::Mismatch || c.verdict == Verdict::NanInfMismatch ||
           (c.verdict == Verdict::Error && any_outcome) ||
           (c.verdict == Verdict::Crash && (any_outcome || crash_open))))
        c.verdict = Verdict::Undefined;
      if ((c.verdict == Verdict::Mismatch || c.verdict == Verdict::NanInfMismatch) &&
          !options.count_precision && explained_by_precision(check, c, a, b, bands)) {
        c.verdict = Verdict::Precision;
        c.message =
            "within the band between the reference and evaluations in wider types (f16 and bf16 "
            "as f32, everything as f64): a wider type inside the backend";
      }
      if (is_value_difference(c.verdict)) {
        std::string changed = reruns.changed(check.backend_a, check.graph_a);
        if (changed.empty() && check.backend_b != kReferenceSide)
          changed = reruns.changed(check.backend_b, check.graph_b);
        if (!changed.empty() && !wrong_again(check, c, reruns, b, matched, options.tolerances)) {
          c.verdict = Verdict::Nondeterministic;
          c.message = changed;
        } else if (!changed.empty()) {
          c.message += std::string(c.message.empty() ? "" : "; ") +
                       "a repeated run gave other values, as wrong (uninitialised memory?)";
        }
      }
      if (check.oracle == Oracle::Reference) {
        CompareCell& cell = report.cell(check.backend_a, check.graph_a);
        if (c.verdict > cell.verdict) cell.message = first_failure(c);
        cell.verdict = worst(cell.verdict, c.verdict);
      }
      if (c.verdict == Verdict::Pass || c.verdict == Verdict::Unsupported) continue;
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
