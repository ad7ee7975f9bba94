// Commands that compare backends and graphs: compare, tolerance, inspect, and `export repro`.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/backend_names.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "app/issue_bundle.h"
#include "app/sigint_cancels.h"
#include "core/backend/backend_set.h"
#include "core/backend/family.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/terminal_text.h"
#include "core/base/version.h"
#include "core/campaign/blame.h"
#include "core/campaign/review.h"
#include "core/compare/inspect.h"
#include "core/compare/report_format.h"
#include "core/compare/repro.h"
#include "core/compare/repro_issue.h"
#include "core/compare/signature.h"
#include "core/compare/verdict.h"
#include "core/exec/inputs.h"
#include "core/graph/graph_dot.h"
#include "core/io/file_io.h"
#include "core/tensor/number_text.h"
#include "views/pictures.h"
#include "views/render_file.h"

namespace retort {

namespace {

constexpr const char* kDefaultBackends = "ref ort:O0 ort:O3";

void run_compare_command(Session& s, const Args& args, Output& out) {
  // `--backends ref ort:O0` leaves ort:O0 among the positional words: a word that is no variant
  // but names a backend belongs to the list, and so does a misspelt backend (`inductr`), so that
  // its error names the backend it resembles rather than a variant.
  std::vector<std::string> names;
  std::vector<std::string> backend_words =
      split_backend_words(args.option("--backends").value_or(kDefaultBackends));
  std::vector<std::string> backend_names = s.backends().names();
  for (const auto& f : families()) backend_names.push_back(f.name);
  auto backend_like = [&](const std::string& word) {
    return is_backend_word(s, word) || (!closest_matches(word, backend_names).empty() &&
                                        closest_matches(word, s.variant_names()).empty());
  };
  for (const auto& word : args.positional) {
    if (args.has("--backends") && !s.find_variant(word) && word != "original" && backend_like(word))
      backend_words.push_back(word);
    else
      names.push_back(word);
  }
  if (names.empty()) names = s.variant_names();
  std::vector<CompareGraph> graphs{{"original", &s.graph()}};
  for (const auto& n : names) {
    if (n == "original") continue;
    graphs.push_back({n, &s.variant(n)});
  }
  std::vector<Backend*> backends;
  for (const auto& b : resolve_backends(s, backend_words, out))
    backends.push_back(&s.backends().get(b));
  CompareOptions options{.seed = seed_for(s, args),
                         .runs = 1,
                         .tolerances = tolerances_for(s, args),
                         .keep_undefined = args.has("--keep-undefined"),
                         .count_precision = args.has("--count-precision")};
  if (auto runs = args.option("--runs")) options.runs = parse_u64(*runs, "--runs");
  options.progress = compare_progress(out);
  CompareReport report = run_compare(graphs, backends, options, s.input_plan());
  sign_findings(report, backends, {}, s.has_egraph() ? &s.egraph().eg : nullptr);
  out.write(args.has("--json") ? compare_report_json(report) + "\n"
                               : compare_report_text(report, args.has("--all")));
  s.set_compare_report(std::move(report));
}

void run_tolerance(Session& s, const Args& args, Output& out) {
  if (const std::string* dtype_text = args.arg(0)) {
    std::optional<DType> dtype = parse_dtype(*dtype_text);
    if (!dtype) fail("unknown dtype '{}'", *dtype_text);
    if (!args.arg(2)) fail("give both ATOL and RTOL: tolerance {} ATOL RTOL [ULPS]", *dtype_text);
    s.tolerances().set(
        *dtype, {parse_tolerance(*args.arg(1), "ATOL"), parse_tolerance(*args.arg(2), "RTOL"),
                 args.arg(3) ? parse_tolerance(*args.arg(3), "ULPS") : 0});
  }
  out.line(s.tolerances().str());
}

void print_inspect(const InspectResult& r, const InspectSide& a, const InspectSide& b,
                   Output& out) {
  if (!r.failure.empty()) fail("inspect: {}", r.failure);
  if (!r.diverged) {
    out.print("no divergence: {} values agree between {} and {}", r.pairs, a.label, b.label);
    return;
  }
  // Values named as the graph pane's boxes name them, never by a node's internal name.
  out.print("first divergence after {} agreeing values: {} in {}", r.pairs - 1,
            value_ref(*a.graph, r.value_a), a.label);
  if (r.value_b != r.value_a || a.graph != b.graph)
    out.print("  equals {} in {}", value_ref(*b.graph, r.value_b), b.label);
  out.print("  {}", r.diff.str());
  out.print("  {}: {}", a.label, r.summary_a);
  out.print("  {}: {}", b.label, r.summary_b);
  if (r.undefined)
    out.print("note: the inputs make an op undefined: {}; a divergence there is not a bug",
              r.undefined->str());
}

// Values of a and b that hold the same tensor: by e-graph class, or by name without an e-graph.
std::vector<ValuePair> value_pairs(const Session& s, const Graph& a, const Graph& b) {
  return s.has_egraph() ? pair_by_classes(s.egraph().eg, a, b) : pair_by_names(a, b);
}

// The pair's own node: where the variant first differs from the graph it pairs with (the
// rewrite's site). A run's first wrong value, the first wrong kernel, may sit downstream of it
// (POLYJUICE Fig. 7: the swapped mul is the pair's, the cast after it computes wrong).
void print_pair_node(const std::string& name_a, const Graph& ga, const std::string& name_b,
                     const Graph& gb, const std::vector<ValuePair>& pairs, Output& out) {
  if (const Node* n = first_rewritten_node(ga, gb, pairs))
    out.print("the pair's node: '{}' {} in {}, where it first differs from {}", node_title(*n),
              operand_call(*n), name_a, name_b);
  else
    out.print("the pair's node: none; {} computes each value as {} does", name_a, name_b);
}

void run_inspect_command(Session& s, const Args& args, Output& out) {
  const std::string& name_a = *args.arg(0);
  const Graph& ga = graph_named(s, name_a);
  TensorMap inputs = generate_inputs(s.graph(), seed_for(s, args), nullptr, s.input_plan());
  ToleranceTable tol = tolerances_for(s, args);
  if (!args.arg(1)) {
    auto backend = args.option("--backend");
    if (!backend) fail("inspect {} needs --backend NAME to check against the reference", name_a);
    // A variant is one side of a pair with the original: its node, then the wrong kernel.
    if (&ga != &s.graph())
      print_pair_node(name_a, ga, "original", s.graph(), value_pairs(s, ga, s.graph()), out);
    InspectSide a{fmt::format("{} on {}", name_a, *backend), &ga, &s.backends().get(*backend),
                  s.program_mutations()};
    InspectSide b{fmt::format("{} on ref", name_a), &ga, &s.backends().get("ref")};
    out.print("first wrong kernel: {} against the reference, value by value", a.label);
    print_inspect(run_inspect(a, b, pair_by_names(ga, ga), inputs, tol), a, b, out);
    return;
  }
  const std::string& name_b = *args.arg(1);
  const Graph& gb = graph_named(s, name_b);
  std::string backend = args.option("--backend").value_or("ref");
  Backend& run_on = s.backends().get(backend);
  InspectSide a{fmt::format("{} on {}", name_a, backend), &ga, &run_on, s.program_mutations()};
  InspectSide b{fmt::format("{} on {}", name_b, backend), &gb, &run_on, s.program_mutations()};
  std::vector<ValuePair> pairs = value_pairs(s, ga, gb);
  if (s.has_egraph())
    out.print("mapping: e-graph classes ({} value pairs)", pairs.size());
  else
    out.print("mapping: value names, as there is no e-graph ({} value pairs)", pairs.size());
  // The pair's node is the variant's: `inspect original VARIANT` looks from the variant too.
  if (&ga == &s.graph() && &gb != &s.graph())
    print_pair_node(name_b, gb, name_a, ga, value_pairs(s, gb, ga), out);
  else
    print_pair_node(name_a, ga, name_b, gb, pairs, out);
  print_inspect(run_inspect(a, b, pairs, inputs, tol), a, b, out);
}

}  // namespace

PassBlame blame_failure(Session& s, const CompareReport& report, const Finding& failing,
                        Output& out) {
  BlameOptions options{.cancel = &s.cancel_flag()};
  options.progress = [&](const std::string& line) {
    out.progress("compares with passes off");
    out.print("  {}", line);
  };
  out.print("naming the passes of {} behind the {} on {}: all of them off, then by halves",
            failing.backend_a, verdict_name(failing.verdict), failing.graph_a);
  s.cancel_flag() = false;
  SigintCancels guard(s.cancel_flag());
  return blame_passes(
      report, failing, [&](const std::string& b) -> Backend& { return s.backends().get(b); },
      options);
}

std::string issue_passes(const PassBlame& b) {
  const PassSwitches* switches = find_pass_switches(b.backend);
  if (!switches || b.passes.empty()) return blame_text(b);
  return fmt::format("{}, turned off through {}", blame_text(b), switches->how);
}

namespace {

// The backends of a compare that a finding's check needs: its two sides and the reference.
std::vector<Backend*> finding_backends(Session& s, const CompareReport& report, const Finding& f) {
  std::vector<Backend*> out;
  for (const std::string& name : report.backends)
    if (name == "ref" || name == f.backend_a || name == f.backend_b)
      out.push_back(&s.backends().get(name));
  return out;
}

// One check of a compare: the report and the number of its finding (as report.bug counts).
struct Check {
  CompareReport report;
  size_t n = 0;
  const Finding& finding() const { return *report.bug(n); }
};

// The finding's graphs as the compare ran them.
ReduceCase compared_case(const CompareReport& report, const Finding& f) {
  ReduceCase c{compared_graph(report, f.graph_a), std::nullopt, {}};
  if (f.graph_b != f.graph_a) c.b = compared_graph(report, f.graph_b);
  return c;
}

// `c` (the graph under test and, for a pair, the graph it must agree with) compared as
// `report` compared finding `f`, and signed; nullopt when it does not fail that way there.
std::optional<Check> compare_again(Session& s, const CompareReport& report, const Finding& f,
                                   const ReduceCase& c) {
  // In the report's order: its first graph is the one the inputs are drawn for.
  std::vector<CompareGraph> graphs;
  for (const std::string& name : report.graphs) {
    if (name == f.graph_a) graphs.push_back({name, &c.a});
    if (c.b && name == f.graph_b) graphs.push_back({name, &*c.b});
  }
  std::vector<Backend*> backends = finding_backends(s, report, f);
  CompareOptions options{.seed = f.seed, .runs = 1, .tolerances = report.tolerances};
  options.mutations = report.mutations;
  Check out{run_compare(graphs, backends, options, report.inputs), 0};
  sign_findings(out.report, backends);
  for (size_t n = 1; n <= out.report.bug_count(); ++n) {
    const Finding* b = out.report.bug(n);
    if (b->oracle == f.oracle && b->verdict == f.verdict && b->backend_a == f.backend_a &&
        b->graph_a == f.graph_a && b->backend_b == f.backend_b && b->graph_b == f.graph_b) {
      out.n = n;
      return out;
    }
  }
  return std::nullopt;
}

// What an issue shows of finding `f` of `report`: the reduced graphs `source` has (compared
// again), else its own, cut to what feeds the outputs its verdict comes from (compared again);
// nullopt when neither fails that way and the compare's own check stands.
std::optional<Check> focused_check(Session& s, const CompareReport& report, const Finding& f,
                                   const IssueSource& source, Output& out) {
  std::optional<Check> at;
  if (source.reduced) {
    at = compare_again(s, report, f, *source.reduced);
    if (!at)
      out.print(
          "note: the review's reduced graph does not fail that way here: the issue shows the "
          "finding's graph");
  }
  const CompareReport& from = at ? at->report : report;
  const Finding& failing = at ? at->finding() : f;
  std::set<std::string> outputs = verdict_outputs_a(failing);
  // A run that did not finish fails at the node its message names: the outputs computed from it.
  if (outputs.empty() && failing.graph_b == failing.graph_a)
    outputs = outputs_after_named_node(failing.message, compared_graph(from, failing.graph_a));
  if (outputs.empty()) return at;  // a run that did not finish elsewhere: every output stays
  ReduceCase whole = compared_case(from, failing);
  std::optional<ReduceCase> cut_case;
  try {
    cut_case = only_outputs(whole, outputs, verdict_outputs_b(failing));
  } catch (const Error& e) {  // the failing outputs read only constants: the reducer keeps inputs
    out.print("note: the issue keeps every output ({})", e.what());
    return at;
  }
  const ReduceCase& part = *cut_case;
  if (part.nodes() == whole.nodes() && part.a.outputs == whole.a.outputs) return at;
  if (std::optional<Check> cut = compare_again(s, from, failing, part)) return cut;
  out.print(
      "note: without the outputs its verdict does not come from the failure does not show: the "
      "issue keeps them");
  return at;
}

// The second opinion of a compare: who agrees with the reference on the graph under test.
std::string compare_opinion(const CompareReport& report, const Finding& f) {
  Agreement a;
  for (size_t g = 0; g < report.graphs.size(); ++g) {
    if (report.graphs[g] != f.graph_a) continue;
    for (size_t b = 0; b < report.backends.size(); ++b) {
      Verdict v = report.cell(b, g).verdict;
      (v == Verdict::Pass ? a.agree
       : is_bug(v)        ? a.differ
                          : a.silent)
          .push_back(report.backends[b]);
    }
  }
  return a.str();
}

void write_bundle(Session& s, const std::string& dir, size_t n, ReproOptions options,
                  const IssueSource* issue, Output& out) {
  const CompareReport* report = s.compare_report();
  if (!report) fail("no compare results yet: run `compare` first");
  const Finding* finding = report->bug(n);
  if (!finding)
    fail("the last compare has {} findings; there is no #{} to reproduce", report->bug_count(), n);
  // Who agrees, from the compare as the user ran it: the focused one runs only the finding's
  // sides and the reference.
  std::string opinion = !issue                    ? std::string()
                        : !issue->opinion.empty() ? issue->opinion
                                                  : compare_opinion(*report, *finding);
  std::optional<Check> focused =
      issue ? focused_check(s, *report, *finding, *issue, out) : std::nullopt;
  if (focused) {
    out.print("the issue shows {} of {} nodes: {}",
              compared_case(focused->report, focused->finding()).nodes(),
              compared_case(*report, *finding).nodes(),
              issue->reduced ? "the review's reduced graph, cut to the failing outputs"
                             : "what feeds the failing outputs");
    report = &focused->report;
    finding = &focused->finding();
  }
  options.backends_dir = scripts_dir() + "/backends";
  ReproBundle bundle = write_repro(dir, *report, *finding, repro_backends(s.backends()), options);
  out.print("wrote {} files to {} for: {}", bundle.files.size(), terminal_name(dir),
            terminal_name(finding->str()));
  if (issue) {
    // A line to paste: the backends quoted for Retort's command line, then the whole for the
    // shell's.
    std::string backends = "ref," + finding->backend_a +
                           (finding->backend_b == "ref" || finding->backend_b == finding->backend_a
                                ? ""
                                : "," + finding->backend_b);
    if (options.retort_command.empty())
      options.retort_command =
          command_text({"retort", "-c",
                        fmt::format("load graph.rtg; compare --backends {} --seed {}",
                                    shell_word(backends), finding->seed)}) +
          "  # graph.rtg: the text above";
    if (options.passes.empty() && find_pass_switches(finding->backend_a))
      options.passes = issue_passes(blame_failure(s, *report, *finding, out));
    IssueFacts facts{.script = read_file(dir + "/repro.py"),
                     .program = std::count(bundle.files.begin(), bundle.files.end(), "model_a.py")
                                    ? read_file(dir + "/model_a.py")
                                    : std::string(),
                     .picture = "graph.svg",
                     .retort_command = options.retort_command,
                     .retort_version = fmt::format("Retort {}", kRetortVersion),
                     .passes = options.passes,
                     .opinion = opinion,
                     .known = issue->known};
    render_dot_file(
        failing_picture(compared_graph(*report, finding->graph_a), failing_output_notes(*finding)),
        dir + "/" + facts.picture, options.force);
    std::string text = repro_issue_markdown(*report, *finding, bundle, facts);
    write_file_in(dir, "issue.md", text, true);
    // The workbench's log is for lines: a long text there buries what came before it.
    if (!out.log()) out.write(text);
    out.print("wrote {}/issue.md, an issue ready to file, with its picture {}", terminal_name(dir),
              facts.picture);
  }
  out.print("run: cd {} && {}", shell_word(dir), bundle.run_line());
}

}  // namespace

void write_repro_bundle(Session& s, const std::string& dir, size_t n, ReproOptions options,
                        bool issue, Output& out) {
  IssueSource none;
  write_bundle(s, dir, n, std::move(options), issue ? &none : nullptr, out);
}

void write_issue_bundle(Session& s, const std::string& dir, size_t n, ReproOptions options,
                        const IssueSource& issue, Output& out) {
  write_bundle(s, dir, n, std::move(options), &issue, out);
}

void run_export_repro(Session& s, const Args& args, Output& out) {
  const std::string* dir = args.arg(1);
  if (!dir) fail("export repro needs a directory: export repro DIR");
  size_t n = 1;
  if (auto text = args.option("--finding")) n = parse_u64(*text, "--finding");
  ReproOptions options;
  options.force = args.has("--force");
  options.full = args.has("--full");
  write_repro_bundle(s, *dir, n, options, args.has("--issue"), out);
}

void register_compare_commands(CommandRegistry& r) {
  OptionSpec atol{"--atol", "A", "absolute tolerance for every float dtype (this run only)"};
  OptionSpec rtol{"--rtol", "R", "relative tolerance for every float dtype (this run only)"};
  OptionSpec ulps{
      "--ulps", "U",
      "also match within U units in the last place of each float dtype (this run only)"};
  OptionSpec seed{"--seed", "S", "draw the inputs with seed S instead of the session seed"};
  r.add({.name = "compare",
         .args = {{"VARIANTS...", Completion::VariantName, true, true}},
         .options = {{"--backends", "B B ...",
                      fmt::format("the backends to run, separated by spaces or commas: names, "
                                  "families, FAMILY@VERSION, all (default {})",
                                  kDefaultBackends),
                      Completion::BackendName},
                     seed,
                     {"--runs", "N", "run N times, with seeds S, S+1, ... (default 1)"},
                     atol,
                     rtol,
                     ulps,
                     {"--keep-undefined", "",
                      "keep differences where the inputs make an op undefined as findings"},
                     {"--count-precision", "",
                      "count differences that skipped roundings explain as mismatches"},
                     {"--all", "", "list every finding instead of one line per failure"},
                     {"--json", "", "print the report as JSON (every finding, and the groups)"}},
         .summary = "Run the original and variants on backends and check the oracles.",
         .help =
             "Runs the original graph and the VARIANTS (default: every variant) on each backend\n"
             "with the same seeded inputs, and checks three oracles: equivalence (a backend gives\n"
             "the same outputs for the original and each variant, POLYJUICE), optimization (the\n"
             "modes of one family agree with its baseline: ort:O3 with ort:O0, inductor with\n"
             "torch:eager, xla with xla:nojit, HirFuzz) and\n"
             "reference (every backend agrees with the reference interpreter). Prints a verdict\n"
             "per backend and graph (against the reference), then the findings. Where the inputs\n"
             "make an op undefined (division by zero, log of a negative), differences are\n"
             "flagged as undefined, naming the node, and not counted (--keep-undefined keeps\n"
             "them as findings). A difference from the reference that lies between it and an\n"
             "evaluation without intermediate roundings is `precision`, not counted unless\n"
             "--count-precision. A difference is run again before it is reported: one that\n"
             "changes between identical runs is nondeterministic, not counted either. The\n"
             "results stay in the session for `inspect` and `export repro`. See docs/compare.md.",
         .run = run_compare_command});
  r.add({.name = "tolerance",
         .args = {{"DTYPE", Completion::None, true},
                  {"ATOL", Completion::None, true},
                  {"RTOL", Completion::None, true},
                  {"ULPS", Completion::None, true}},
         .summary = "Print the comparison tolerances, or set one float dtype's.",
         .help = "An element matches when |actual - expected| <= ATOL + RTOL * |expected|, or\n"
                 "when the two are at most ULPS units in the last place of DTYPE apart (the\n"
                 "same strictness at every magnitude: `tolerance f16 0 0 2` accepts two f16\n"
                 "roundings and nothing else). Integers and bool always compare exactly.\n"
                 "Defaults: f32 1e-3 1e-3, f16 1e-2 1e-2, f64 1e-7 1e-7, ULPS 0.",
         .run = run_tolerance});
  r.add({.name = "inspect",
         .args = {{"A", Completion::VariantName}, {"B", Completion::VariantName, true}},
         .options = {{"--backend", "NAME", "the backend to run on (two graphs: default ref)",
                      Completion::BackendName},
                     seed,
                     atol,
                     rtol},
         .summary = "Find the first intermediate value where two runs diverge.",
         .help =
             "With two graphs (`original` or variant names), runs both on one backend with every\n"
             "intermediate value as an output, pairs the values that the e-graph proves equal\n"
             "(by value name when there is no e-graph, and says so) and reports the first pair,\n"
             "in A's topological order, that differs: the node producing it and both values.\n"
             "With one graph and --backend NAME, compares that backend with the reference value\n"
             "by value: the first node whose output is wrong is the miscompiled kernel.\n"
             "A variant is one side of a pair with the original (B, or the current graph):\n"
             "first comes the pair's node, the first node of A that the rewrites changed (its\n"
             "op, attributes or operand order), then the first wrong kernel, which may sit\n"
             "after it (a swapped mul whose product a later cast gets wrong).",
         .run = run_inspect_command});
}

}  // namespace retort
