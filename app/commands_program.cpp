// `program`: TorchProbe (seeds/002) in the workbench. The Python program a torch or JAX
// backend generates for the current graph, shown and mutated: `program show`, `program mutate
// KIND` (resolve, mutate-recover, functionalize, tcb, and TENSURE's sparse storage on JAX; each
// an undo step), `program list`, `program reset`, and `program check` (the mutated program on
// eager torch and compiled, against the reference). `compare` passes the mutations to every
// run too. docs/techniques.md.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/backend_names.h"
#include "app/commands.h"
#include "core/backend/family.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/compare/report_format.h"
#include "core/compare/signature.h"
#include "core/exec/inputs.h"

namespace retort {

namespace {

constexpr const char* kShowBackend = "torch:eager";
constexpr const char* kCheckBackends = "ref,torch:eager,torch:aot_eager";

// The families whose programs take mutations (of `kind`, if given), for a hint.
std::string program_families(std::string_view kind = {}) {
  std::vector<std::string> names;
  for (const FamilyDef& f : families())
    if (kind.empty() ? !f.program_mutations.empty()
                     : std::find(f.program_mutations.begin(), f.program_mutations.end(), kind) !=
                           f.program_mutations.end())
      names.push_back(f.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

// Runs the current graph once on the backend with these mutations and returns the program it
// wrote; Error (with the backend's words) when it cannot.
std::string program_of(Session& s, const std::string& backend,
                       const std::vector<ProgramMutation>& mutations, Output& out) {
  std::vector<std::string> names = resolve_backends(s, {backend}, out);
  Backend& b = s.backends().get(names.front());
  TensorMap inputs = generate_inputs(s.graph(), s.seed(), nullptr, s.input_plan());
  RunRequest request{.graph = &s.graph(), .onnx = {}, .inputs = inputs, .outputs = {}};
  request.mutations = mutations;
  request.want_program = true;
  RunResult r = b.run(request);
  if (r.status != RunStatus::Ok)
    fail("{} could not run the {}program: {}: {}", names.front(),
         mutations.empty() ? "" : "mutated ", run_status_name(r.status), r.message);
  if (!r.program)
    fail("{} runs the ONNX model, not a generated Python program ({} do)", names.front(),
         program_families());
  s.set_program_text(names.front(), *r.program);
  return *r.program;
}

// --backend, else the backend that wrote the program last, else torch:eager.
std::string program_backend(const Session& s, const Args& args) {
  if (auto b = args.option("--backend")) return *b;
  return s.program_backend().empty() ? kShowBackend : s.program_backend();
}

void run_show(Session& s, const Args& args, Output& out) {
  out.write(program_of(s, program_backend(s, args), s.program_mutations(), out));
}

void run_mutate(Session& s, const Args& args, Output& out) {
  const std::vector<std::string> kinds = all_program_mutations();
  const std::string* kind = args.arg(1);
  if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end())
    fail_unknown("program mutation", *kind, kinds);
  std::string backend = program_backend(s, args);
  std::vector<std::string> resolved = resolve_backends(s, {backend}, out);
  if (!applies_mutation(resolved.front(), *kind))
    fail(
        "{}'s program does not take '{}' mutations (families whose programs do: {}); "
        "--backend picks another",
        resolved.front(), *kind, program_families(*kind));
  std::vector<ProgramMutation> mutations = s.program_mutations();
  uint64_t seed = args.option("--seed") ? seed_for(s, args) : mix_seed(s.seed(), mutations.size());
  mutations.push_back({*kind, seed});
  // The backend applies it first: a mutation with nothing to apply to is not recorded.
  std::string program = program_of(s, resolved.front(), mutations, out);
  s.set_program_mutations(mutations, fmt::format("program mutate {}", *kind));
  out.print("mutation {}: {} (seed {}); `undo` takes it back", mutations.size(), *kind, seed);
  out.write(program);
}

void run_list(Session& s, const Args&, Output& out) {
  if (s.program_mutations().empty()) return out.print("no program mutations");
  size_t k = 0;
  for (const ProgramMutation& m : s.program_mutations())
    out.print("{:>3}  {} (seed {})", ++k, m.kind, m.seed);
}

// The mutated program on eager torch and compiled, each against the reference (which computes
// the graph itself): a mutation that changed the result shows on eager too.
void run_check(Session& s, const Args& args, Output& out) {
  std::vector<Backend*> backends;
  for (const auto& b : resolve_backends(
           s, split_backend_words(args.option("--backends").value_or(kCheckBackends)), out))
    backends.push_back(&s.backends().get(b));
  CompareOptions options{.seed = seed_for(s, args), .runs = 1, .tolerances = s.tolerances()};
  options.progress = compare_progress(out);
  options.mutations = s.program_mutations();
  CompareReport report = run_compare({{"original", &s.graph()}}, backends, options, s.input_plan());
  sign_findings(report, backends, {}, nullptr);
  out.write(compare_report_text(report, false));
  s.set_compare_report(std::move(report));
}

void run_reset(Session& s, const Args&, Output& out) {
  if (s.program_mutations().empty()) return out.print("no program mutations");
  s.set_program_mutations({}, "program reset");
  out.print("program mutations cleared; `undo` brings them back");
}

}  // namespace

void register_program_commands(CommandRegistry& r) {
  std::vector<std::string> kinds = all_program_mutations();
  r.add({.name = "program",
         .options = {{"--backend", "B",
                      "show, mutate: the backend that writes the program (default: the last "
                      "one, else torch:eager)",
                      Completion::BackendName},
                     {"--backends", "B,...",
                      "check: where to run it (default ref,torch:eager,torch:aot_eager)",
                      Completion::BackendName},
                     {"--seed", "S", "mutate: where and how (default: from the session seed)"}},
         .summary = "TorchProbe's program mutations: show, mutate and check the Python program.",
         .help = "The torch and xla (JAX) backends run a Python program Retort generates from\n"
                 "the graph. `compare` passes the session's mutations to every run (backends\n"
                 "that run ONNX ignore them). `fuzz --strategy torchprobe` runs this as a\n"
                 "campaign. See docs/techniques.md.",
         .actions =
             {{"show",
               {},
               "Prints the program as --backend writes it for the current graph, with the\n"
               "session's mutations applied (the program pane, F7, keeps it).",
               run_show},
              {"mutate",
               {{"KIND", Completion::None, false, false, kinds}},
               "Adds a mutation, each keeping what the program computes:\n"
               "  resolve         an element-wise op unrolled into a loop over an axis\n"
               "  mutate-recover  an entry changed, restored before its next use\n"
               "  functionalize   statements moved into a nested function or closure\n"
               "  tcb             statements under `if COND:`, COND true for the run's\n"
               "                  inputs, made from values profiled there (JAX: lax.cond)\n"
               "  sparse          TENSURE's storage formats: einsum or matmul operands\n"
               "                  as BCOO arrays (jax.experimental.sparse; xla only)\n"
               "A mutation is an undo step; --seed picks where and how. Mutations compose; each\n"
               "backend gets the kinds its family applies.",
               run_mutate},
              {"list", {}, "Lists the session's mutations.", run_list},
              {"check",
               {},
               "Runs the mutated program on eager torch and compiled against the reference.",
               run_check},
              {"reset", {}, "Clears the mutations (an undo step).", run_reset}},
         .default_action = "show"});
}

}  // namespace retort
