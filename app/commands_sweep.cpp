// `sweep`: the differential conformance sweep of the reference against a second reference
// (core/compare/sweep.h).
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/backend_names.h"
#include "app/commands.h"
#include "app/sigint_cancels.h"
#include "core/base/error.h"
#include "core/base/words.h"
#include "core/compare/sweep.h"

namespace retort {

namespace {

std::vector<InputPlan> plans_option(const std::string& text) {
  std::vector<InputPlan> plans;
  for (const auto& word : split_list(text)) {
    auto plan = parse_input_range(word);
    if (!plan) fail("--plans: '{}' is no input plan (standard, full, special, wide, LO..HI)", word);
    plans.push_back(*plan);
  }
  if (plans.empty()) fail("--plans needs at least one input plan");
  return plans;
}

std::string verdict_counts(const SweepResult& r) {
  std::vector<std::string> parts;
  for (const auto& [verdict, n] : r.verdicts)
    parts.push_back(fmt::format("{} {}", verdict_name(verdict), n));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string dtypes_text(const std::vector<DType>& dtypes) {
  if (dtypes.empty()) return "*";
  std::vector<std::string_view> names;
  for (DType t : dtypes) names.push_back(dtype_name(t));
  return fmt::format("{}", fmt::join(names, ","));
}

void print_sweep(const SweepResult& r, bool all, Output& out) {
  out.print("{} ops, {} op x dtype pairs, {} graphs, {} runs: {}", r.ops, r.op_dtypes, r.graphs,
            r.runs, verdict_counts(r));
  out.print("agree {}, {} cannot run {}, disagree {}", r.agree, r.other, r.unsupported,
            r.disagreements.size());
  // Explained disagreements, one line per row of the table with its count.
  std::map<const KnownDisagreement*, size_t> rows;
  for (const auto& d : r.disagreements)
    if (d.known) ++rows[d.known];
  for (const auto& k : known_disagreements())
    if (rows.count(&k))
      out.print("  {:5}  {} {}: {} ({})", rows[&k], k.op, dtypes_text(k.dtypes), k.reason, k.klass);
  for (const auto& d : r.disagreements) {
    if (d.known && !all) continue;
    out.print("{} {} {} {} (seed {}, {} inputs): {}", d.known ? "explained" : "UNEXPLAINED", d.op,
              dtype_name(d.dtype), verdict_name(d.verdict), d.seed, d.plan, d.detail);
    if (!d.known) out.write(d.graph);
  }
  std::vector<std::string> classes;
  for (const auto& [klass, n] : r.by_class()) classes.push_back(fmt::format("{} {}", klass, n));
  out.print("disagreements: {} explained ({}), {} unexplained", r.explained(),
            classes.empty() ? std::string("none") : fmt::format("{}", fmt::join(classes, ", ")),
            r.unexplained());
}

void run_sweep_command(Session& s, const Args& args, Output& out) {
  std::string name = args.arg(0) ? *args.arg(0) : "onnx-ref";
  std::vector<std::string> resolved = resolve_backends(s, {name}, out);
  if (resolved.size() != 1 || resolved[0] == "ref")
    fail("sweep compares the reference with one other backend, not '{}'", name);
  SweepOptions options;
  options.seed = seed_for(s, args);
  options.tolerances = tolerances_for(s, args);
  if (auto d = args.option("--draws")) options.draws = parse_u64(*d, "--draws");
  if (options.draws == 0) fail("--draws must be at least 1");
  if (auto ops = args.option("--ops")) options.ops = split_list(*ops);
  if (auto plans = args.option("--plans")) options.plans = plans_option(*plans);
  options.progress = [&](size_t done, size_t all) { out.progress("ops", done, all); };
  s.cancel_flag().store(false);
  options.cancel = &s.cancel_flag();
  SweepResult result;
  {
    SigintCancels guard(s.cancel_flag());
    result = run_sweep(s.backends().get(resolved[0]), options);
  }
  out.print("sweep of {} against ref (seed {}, {} {})", result.other, options.seed, options.draws,
            options.draws == 1 ? "draw" : "draws");
  print_sweep(result, args.has("--all"), out);
  if (result.unexplained() > 0)
    fail("{} unexplained {}", result.unexplained(),
         result.unexplained() == 1 ? "disagreement" : "disagreements");
}

}  // namespace

void register_sweep_commands(CommandRegistry& r) {
  r.add(
      {.name = "sweep",
       .args = {{"BACKEND", Completion::BackendName, true}},
       .options = {{"--ops", "OPS", "only these registry ops, comma-separated"},
                   {"--draws", "N", "attribute and shape draws per op x dtype (default 3)"},
                   {"--plans", "P", "input plans, comma-separated (default standard,full,special)"},
                   {"--seed", "S", "draw k uses seed S+k (default: the session seed)"},
                   {"--atol", "A", "absolute tolerance for every float dtype (this run only)"},
                   {"--rtol", "R", "relative tolerance for every float dtype (this run only)"},
                   {"--all", "", "also print each explained disagreement"}},
       .summary = "Sweep every op and dtype: the reference against a second reference.",
       .help =
           "The differential conformance sweep: every registry op x every dtype it accepts x\n"
           "N drawn attributes and shapes, as one-node graphs, x the input plans, each run on\n"
           "BACKEND (default onnx-ref, ONNX's own reference implementation; installed when it\n"
           "is not) and checked against Retort's reference by the reference oracle of\n"
           "`compare` (undefined inputs and skipped roundings are no disagreement). Prints the\n"
           "verdict counts, each known disagreement with its count and reason (an\n"
           "onnx.reference bug, or where the spec is silent), then every unexplained one with\n"
           "its graph; fails when any is unexplained. See docs/conformance.md.",
       .run = run_sweep_command});
}

}  // namespace retort
