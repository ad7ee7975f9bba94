// Commands that run graphs: on generated inputs, and on the ONNX conformance tests.
#include <fmt/format.h>

#include "app/command_line.h"
#include "app/commands.h"
#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/compare/undefined_check.h"
#include "core/exec/inputs.h"
#include "core/exec/interpreter.h"
#include "core/io/conformance.h"
#include "core/io/graph_files.h"
#include "core/io/npy.h"
#include "core/io/rtg.h"
#include "core/io/rtg_init.h"
#include "core/tensor/number_text.h"
#include "core/tensor/summary.h"

namespace retort {

namespace {

void run_eval(Session& s, const Args& args, Output& out) {
  const std::string* name = args.arg(0);
  const Graph& g = name ? s.variant(*name) : s.graph();
  uint64_t seed = s.seed();
  if (auto text = args.option("--seed")) seed = parse_u64(*text, "--seed");
  std::vector<std::string> notes;
  TensorMap inputs = generate_inputs(g, seed, &notes, s.input_plan());
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

// The values `input NAME = VALUE` gives an input of this type: a .npy file, a number (every
// element), an .rtg initialiser (fill(...), random(seed=...)) or an .rtg literal ([[1, 2], ...]).
Tensor input_values(const std::string& name, const TensorType& type, const std::string& value) {
  if (value.ends_with(".npy")) {
    Tensor t = read_npy(read_file(value), value);
    if (t.type() != type)
      fail("{} holds a {} but input '{}' is {}", value, t.type().str(), name, type.str());
    return t;
  }
  if (auto number = parse_float_text(value)) {
    Tensor t(type);
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, *number);
    return t;
  }
  if (auto t = tensor_from_init_text(value, type)) return *t;
  // A literal reads as the value of a one-constant graph, so it means what it means in .rtg.
  try {
    Graph g = parse_rtg(fmt::format("graph g\nconst v : {} = {}\n", type.str(), value));
    return g.constants.at(0).value;
  } catch (const Error& e) {
    fail(
        "input '{}' wants a {} value (a number, a literal, fill(...), random(...) or a .npy "
        "file), not '{}': {}",
        name, type.str(), value, e.message());
  }
}

void run_input(Session& s, const Args& args, Output& out) {
  InputPlan& plan = s.input_plan();
  std::string text = trim_blanks(args.raw);
  if (text.empty()) {
    if (plan.fixed.empty()) out.line("no input is fixed: every input is drawn (see `inputs`)");
    for (const auto& [name, t] : plan.fixed)
      out.print("{} = {}", terminal_name(name), summarize_tensor(t));  // a session file's names
    return;
  }
  size_t eq = text.find('=');
  if (eq == std::string::npos) fail("input wants NAME = VALUE, not '{}'", text);
  std::string name = trim_blanks(std::string_view(text).substr(0, eq));
  std::string value = trim_blanks(std::string_view(text).substr(eq + 1));
  const ValueInfo* in = s.graph().find_input(name);
  if (!in) fail("the current graph has no input '{}'", name);
  if (value == "random") {
    plan.fixed.erase(name);
    out.print("{}: drawn again ({} range)", name, plan.range_str());
    return;
  }
  Tensor t = input_values(name, in->type, value);
  out.print("{} = {}", name, summarize_tensor(t));
  plan.fixed.insert_or_assign(name, std::move(t));
}

void run_inputs(Session& s, const Args& args, Output& out) {
  InputPlan& plan = s.input_plan();
  if (auto text = args.option("--range")) {
    std::optional<InputPlan> range = parse_input_range(*text);
    if (!range) fail("--range wants standard, full, special, wide or LO..HI, not '{}'", *text);
    range->fixed = std::move(plan.fixed);
    plan = std::move(*range);
  }
  out.print("inputs: {}", plan.str());
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
  r.add({.name = "input",
         .args = {{"NAME = VALUE", Completion::None, true}},
         .summary = "Fix an input's values, or list the fixed inputs.",
         .help =
             "`input x = VALUE` gives input x of the current graph these values in `eval`,\n"
             "`compare`, `inspect`, `bisect`, `reduce`, `equiv` and repro bundles, whatever the\n"
             "seed. VALUE is a number (every element), an .rtg literal ([[1, 2], [3, 4]]), an\n"
             "initialiser (fill(0.5), random(seed=3)) or a .npy file of the input's dtype and\n"
             "shape. `input x = random` draws x again; `input` lists the fixed inputs.",
         .run = run_input,
         .raw_text = true});
  r.add({.name = "inputs",
         .options = {{"--range", "R", "standard (default), full, special, wide, or LO..HI"}},
         .summary = "Print or set how inputs are drawn.",
         .help =
             "standard: floats in [-1, 1), integers in [-8, 8]. full: integers over their dtype's\n"
             "whole range (wrap-around), floats of magnitude 2^-8 .. 2^14 of either sign.\n"
             "LO..HI: uniform in [LO, HI] (integers rounded and clipped to the dtype). special:\n"
             "each element, half the time, one of 0, -0, 1, -1, the dtype's min and max, inf,\n"
             "-inf, nan where the dtype has them. wide: integers exactly where narrower paths\n"
             "wrap (i64 near and past +-2^31, 2^32, +-2^53 and its ends; a narrow dtype's ends,\n"
             "half range and square root of its range; magnitudes over all its bits), floats\n"
             "near 2^7 .. 2^64; a quarter standard. An input that an op needs in a domain (log:\n"
             "positive) keeps its domain draw, and a note says so. Draws stay seeded.",
         .run = run_inputs});
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
