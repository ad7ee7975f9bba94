// `hirfuzz`: HirFuzz (seeds/001) in the workbench. `hirfuzz function` collapses a piece of the
// current graph into a function called once or more (variant "functions"), `hirfuzz rewrite`
// changes its call chain (variant "rewritten"); `compare` then checks original vs optimized vs
// function-rewritten. `hirfuzz calls` lists what a graph calls, `hirfuzz relax` runs a graph
// that breaks constraints (constraint level 0) on the backends for crashes. docs/techniques.md.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/backend_names.h"
#include "app/commands.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/campaign/relaxed_run.h"
#include "core/gen/functions_gen.h"

namespace retort {

namespace {

constexpr const char* kFunctionsVariant = "functions";
constexpr const char* kRewrittenVariant = "rewritten";

// The graph an action starts from: the first of these variants the session has, else the
// current graph.
const Graph& start_from(const Session& s, std::initializer_list<const char*> variants) {
  for (const char* v : variants)
    if (const Graph* g = s.find_variant(v)) return *g;
  return s.graph();
}

void print_calls(const Graph& g, Output& out) {
  if (g.functions.empty()) {
    out.print("{}: no functions", g.name);
    return;
  }
  for (const Function& f : g.functions) {
    if (f.form == FunctionForm::Body)
      out.print("function {}", f.name);
    else
      out.print("function {} {} {}", f.name, function_form_name(f.form), f.target);
  }
  for (const Call& c : g.calls) {
    CallInterface io = call_interface(g, c);
    std::vector<std::string> covered;  // by first output, as .rtg names nodes
    for (const auto& name : c.nodes) covered.push_back(g.find_node(name)->outputs.front());
    out.print("call {}({}) -> {}  covers {}", c.function, fmt::join(io.args, ", "),
              fmt::join(io.results, ", "), fmt::join(covered, ", "));
  }
}

void run_function(Session& s, const Args& args, Output& out) {
  Rng rng(seed_for(s, args));
  FunctionGenOptions o;
  if (auto v = args.option("--size")) o.max_body = static_cast<int>(parse_u64(*v, "--size"));
  if (auto v = args.option("--calls"))
    o.max_extra_calls = static_cast<int>(parse_u64(*v, "--calls")) - 1;
  if (o.max_body < 1) fail("--size must be at least 1");
  if (o.max_extra_calls < 0) fail("--calls must be at least 1");
  Graph g = start_from(s, {kFunctionsVariant});
  std::optional<std::string> name = add_function(g, rng, o);
  if (!name)
    fail(
        "no piece of graph '{}' can become a function (every node is in a call, or none "
        "returns a value)",
        g.name);
  size_t calls = 0, body_nodes = 0;
  for (const Call& c : g.calls)
    if (body_function(g, c.function).name == *name && calls++ == 0) body_nodes = c.nodes.size();
  out.print("collapsed {} node(s) into function {}, called {} time(s); variant '{}'", body_nodes,
            *name, calls, kFunctionsVariant);
  s.set_variant(kFunctionsVariant, std::move(g));
  print_calls(s.variant(kFunctionsVariant), out);
}

void run_rewrite(Session& s, const Args& args, Output& out) {
  if (!s.find_variant(kFunctionsVariant) && !s.find_variant(kRewrittenVariant))
    fail("there is no function to rewrite yet: `hirfuzz function` makes one");
  std::optional<FunctionForm> form;
  if (const std::string* word = args.arg(1)) {
    form = parse_function_form(*word);
    if (!form || *form == FunctionForm::Body)
      fail_unknown("rewrite", *word, {"forward", "returns", "closure"});
  }
  Rng rng(seed_for(s, args));
  Graph g = start_from(s, {kRewrittenVariant, kFunctionsVariant});
  std::optional<std::string> wrapper =
      rewrite_function(g, rng, form, args.option("--function").value_or(""));
  if (!wrapper) fail("graph '{}' calls no function", g.name);
  const Function& w = *find_function(g, *wrapper);
  out.print("wrapped {} in {} ({}); its calls go through {}; variant '{}'", w.target, w.name,
            function_form_name(w.form), w.name, kRewrittenVariant);
  s.set_variant(kRewrittenVariant, std::move(g));
  print_calls(s.variant(kRewrittenVariant), out);
}

void run_calls(Session& s, const Args& args, Output& out) {
  if (const std::string* v = args.arg(1)) return print_calls(s.variant(*v), out);
  print_calls(start_from(s, {kRewrittenVariant, kFunctionsVariant}), out);
}

// Constraint level 0 on the current graph: each backend but the reference runs the broken
// graph; an error is the right answer, a crash is a robustness bug.
void run_relax(Session& s, const Args& args, Output& out) {
  int count = args.arg(1) ? static_cast<int>(parse_u64(*args.arg(1), "N")) : 1;
  if (count < 1) fail("N must be at least 1");
  uint64_t seed = seed_for(s, args);
  Rng rng(seed);
  Graph valid = s.graph();
  inline_functions(valid);
  std::vector<std::string> names = resolve_backends(
      s, split_backend_words(args.option("--backends").value_or("ort:O0,ort:O3")), out);
  std::vector<Backend*> backends;
  for (const auto& name : names) backends.push_back(&s.backends().get(name));
  RelaxedRun run = run_relaxed_graph(valid, rng, count, backends);
  out.print("broke {} constraint(s) of graph '{}' (seed {}):", run.relaxed.broken.size(),
            valid.name, seed);
  for (const auto& line : run.relaxed.broken) out.print("  {}", line);
  size_t crashes = 0;
  for (size_t b = 0; b < names.size(); ++b) {
    const std::optional<RunResult>& r = run.results[b];
    if (!r) continue;  // the reference cannot run a graph that breaks constraints
    crashes += r->status == RunStatus::Crash;
    out.print("{:<10} {:<12} {}", names[b], run_status_name(r->status),
              r->message.substr(0, r->message.find('\n')));
  }
  if (crashes)
    out.print("{} crash(es): a robustness bug (the compiler must reject such a graph)", crashes);
  else
    out.print("no crash: every backend rejected or ran it");
}

}  // namespace

void register_hirfuzz_commands(CommandRegistry& r) {
  r.add({.name = "hirfuzz",
         .options = {{"--seed", "S", "the seed (default: the session seed)"},
                     {"--size", "N", "function: nodes in the body, at most (default 4)"},
                     {"--calls", "N", "function: calls of it, at most (default 3)"},
                     {"--function", "F", "rewrite: the function to wrap (default: drawn)"},
                     {"--backends", "B,...", "relax: the backends to run (default ort:O0,ort:O3)",
                      Completion::BackendName}},
         .summary = "HirFuzz's functions and calls, call-chain rewrites and constraint level 0.",
         .help = "The variants compute the same: `compare` checks original vs optimized vs\n"
                 "function-rewritten. Compilers get ONNX local functions, or nested Python\n"
                 "functions (torch, JAX, TF). `fuzz --strategy hirfuzz` runs both levels as a\n"
                 "campaign. See docs/techniques.md.",
         .actions = {
             {"function",
              {},
              "Collapses a random connected, convex piece of the current graph into a function\n"
              "and calls it once or more (further calls read other values of the same types;\n"
              "their results become outputs). The graph with functions is variant\n"
              "'functions'; again, it adds one more function there.",
              run_function},
             {"rewrite",
              {{"FORM", Completion::None, true, false, {"forward", "returns", "closure"}}},
              "Wraps a called function (--function, default drawn) in a new one: forward calls\n"
              "it (repeated: a call chain), returns returns it to be called, closure defines it\n"
              "inside itself; its calls go through the wrapper. The result is variant\n"
              "'rewritten'.",
              run_rewrite},
             {"calls",
              {{"VARIANT", Completion::VariantName, true}},
              "Lists the functions and calls with their arguments.",
              run_calls},
             {"relax",
              {{"N", Completion::None, true}},
              "Breaks N constraints (types, shapes, attributes) of the current graph and runs it\n"
              "on --backends: an error is right, a crash is a bug.",
              run_relax}}});
}

}  // namespace retort
