// Commands that narrow a failure down: bisect (the rewrite that brings it in) and reduce (the
// smallest graph that still shows it).
#include <fmt/format.h>

#include "app/commands.h"
#include "core/base/error.h"
#include "core/io/number_text.h"
#include "core/session/bisect.h"

namespace retort {

namespace {

OptionSpec seed_option() {
  return {"--seed", "S", "draw the inputs with seed S instead of the session seed"};
}

void run_bisect(Session& s, const Args& args, Output& out) {
  auto backend = args.option("--backend");
  if (!backend) fail("bisect {} needs --backend NAME: the backend it fails on", *args.arg(0));
  BisectOptions options{.variant = *args.arg(0),
                        .backend = *backend,
                        .seed = seed_for(s, args),
                        .runs = 1,
                        .tolerances = tolerances_for(s, args)};
  if (auto runs = args.option("--runs")) options.runs = parse_u64(*runs, "--runs");
  if (options.runs == 0) fail("--runs must be at least 1");
  VariantBisection b = bisect_variant(s, options);
  const BisectResult& r = b.result;
  out.print("bisect {} on {}: {} states from the original to the variant, {} checked",
            options.variant, options.backend, b.length, r.tried);
  out.print("state {} passes, state {} fails: {}", r.pass_state, r.pass_state + 1, b.step_text);
  out.print("failure: {}", b.signature.str());
  out.print("signature: {}", b.signature.key());
  s.set_variant("bisect_pass", r.passing);
  s.set_variant("bisect_fail", r.failing);
  out.print(
      "kept bisect_pass ({} ops) and bisect_fail ({} ops), one rewrite apart: "
      "`compare bisect_pass bisect_fail --backends ref,{}`",
      r.passing.op_count(), r.failing.op_count(), options.backend);
}

}  // namespace

void register_reduce_commands(CommandRegistry& r) {
  r.add({.name = "bisect",
         .args = {{"VARIANT", Completion::VariantName}},
         .options = {{"--backend", "NAME", "the backend the variant fails on (required)"},
                     seed_option(),
                     {"--runs", "N", "check each state with N seeds S, S+1, ... (default 1)"},
                     {"--atol", "A", "absolute tolerance for every float dtype (this run only)"},
                     {"--rtol", "R", "relative tolerance for every float dtype (this run only)"}},
         .summary = "Find the rewrite that makes a variant fail on a backend.",
         .help =
             "Walks the rewrite trace from the original toward VARIANT (an extracted variant):\n"
             "state t replays the first t trace steps and extracts the term closest to the\n"
             "variant, so state 0 is the original and the last state the variant. A state fails\n"
             "when comparing it with the original on ref and NAME shows the variant's failure\n"
             "(the same signature, see `help compare`). Binary search finds a passing state\n"
             "next to a failing one; the trace step between them is the rewrite that brings the\n"
             "failure in, printed with its rule and match. The two graphs, one rewrite apart,\n"
             "are kept as the variants bisect_pass and bisect_fail.",
         .run = run_bisect});
}

}  // namespace retort
