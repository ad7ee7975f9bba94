// Commands that run graphs: on generated inputs, and on the ONNX conformance tests.
#include <fmt/format.h>

#include "app/commands.h"
#include "core/base/error.h"
#include "core/compare/undefined_check.h"
#include "core/exec/conformance.h"
#include "core/exec/inputs.h"
#include "core/exec/interpreter.h"
#include "core/tensor/summary.h"

namespace retort {

namespace {

void run_eval(Session& s, const Args& args, Output& out) {
  const std::string* name = args.arg(0);
  const Graph& g = name ? s.variant(*name) : s.graph();
  uint64_t seed = s.seed();
  if (auto text = args.option("--seed")) seed = parse_u64(*text, "--seed");
  std::vector<std::string> notes;
  TensorMap inputs = generate_inputs(g, seed, &notes);
  for (const auto& note : notes) out.print("note: {}", note);
  TensorMap values = evaluate(g, inputs, {.keep_intermediates = true});
  for (const auto& o : g.outputs) out.print("{}: {}", o, summarize_tensor(values.at(o)));
  // The interpreter gives every op a value (integer x/0 = 0); say where that value is not the
  // op's to give, as compare does.
  if (auto use = find_undefined(g, values))
    out.print("warning: these inputs make an op undefined: {}; results there are arbitrary",
              use->str());
  s.set_last_eval({name ? *name : "", std::move(values)});
}

void run_seed(Session& s, const Args& args, Output& out) {
  if (const std::string* text = args.arg(0)) s.set_seed(parse_u64(*text, "the seed"));
  out.print("seed {}", s.seed());
}

void run_conformance_command(Session&, const Args& args, Output& out) {
  const std::string* dir = args.arg(0);
  ConformanceReport report =
      run_conformance(dir ? *dir : kDefaultConformanceDir, [&](const ConformanceCase& c) {
        if (c.status == ConformanceCase::Status::Failed) out.print("FAIL {}: {}", c.name, c.reason);
        if (c.status == ConformanceCase::Status::Skipped)
          out.print("skip {}: {}", c.name, c.reason);
      });
  out.line(report.summary_line());
  if (report.failed > 0)
    fail("{} conformance {} failed", report.failed, report.failed == 1 ? "case" : "cases");
}

}  // namespace

void register_run_commands(CommandRegistry& r) {
  r.add({.name = "eval",
         .args = {{"NAME", Completion::VariantName, true}},
         .options = {{"--seed", "S", "draw the inputs with seed S instead of the session seed"}},
         .summary = "Run a graph on seeded random inputs.",
         .help =
             "Runs the current graph, or the variant NAME, on the reference interpreter.\n"
             "Each input gets values in the domain its ops need (log: positive, acos: [-1, 1]);\n"
             "a note says so. Prints one summary line per output: dtype, shape, min, max, mean,\n"
             "NaN and Inf counts and the first values. The same seed gives the same inputs.",
         .run = run_eval});
  r.add({.name = "seed",
         .args = {{"N", Completion::None, true}},
         .summary = "Print the session seed, or set it to N.",
         .help = "The seed drives every random choice of the session (inputs, generation,\n"
                 "random extraction), so a session replays the same way.",
         .run = run_seed});
  r.add({.name = "conformance",
         .args = {{"DIR", Completion::FilePath, true}},
         .summary = "Run ONNX node tests on the reference interpreter.",
         .help = fmt::format(
             "DIR holds one folder per test (model.onnx and test_data_set_*); the default is\n"
             "{}. Failures and skips are listed with their\n"
             "reasons, then the totals; the command fails when any test fails.",
             kDefaultConformanceDir),
         .run = run_conformance_command});
}

}  // namespace retort
