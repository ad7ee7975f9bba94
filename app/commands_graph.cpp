// Commands that load, build, print and save the current graph.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/commands.h"
#include "core/base/error.h"
#include "core/io/graph_files.h"
#include "core/io/rtg.h"

namespace retort {

namespace {

// The current graph, or the named variant.
const Graph& graph_or_variant(const Session& s, const Args& args) {
  const std::string* name = args.arg(0);
  return name ? s.variant(*name) : s.graph();
}

std::string count_of(size_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

std::string graph_counts(const Graph& g) {
  return fmt::format("{}, {}, {}, {}", count_of(g.nodes.size(), "node", "nodes"),
                     count_of(g.inputs.size(), "input", "inputs"),
                     count_of(g.constants.size(), "constant", "constants"),
                     count_of(g.outputs.size(), "output", "outputs"));
}

// What starting over (`load`, `new`) drops with the graph, said so that no work disappears
// without a word; empty when there is nothing but the graph.
std::string dropped_by_start(const Session& s) {
  std::vector<std::string> parts;
  if (s.has_egraph())
    parts.push_back(fmt::format("the e-graph ({})",
                                count_of(s.egraph().trace.steps.size(), "rewrite", "rewrites")));
  std::vector<std::string> variants = s.variant_names();
  if (!variants.empty())
    parts.push_back(fmt::format("{} {}", variants.size() == 1 ? "variant" : "variants",
                                fmt::join(variants, ", ")));
  if (s.compare_report()) parts.push_back("the compare results");
  if (parts.empty()) return "";
  return fmt::format("dropped {} (`save FILE` before keeps a session)", fmt::join(parts, "; "));
}

void run_load(Session& s, const Args& args, Output& out) {
  const std::string& path = *args.arg(0);
  Graph g = load_graph_file(path);
  std::string dropped = dropped_by_start(s);
  s.start_graph(std::move(g));
  out.print("loaded {}: {}", path, graph_counts(s.graph()));
  if (!dropped.empty()) out.line(dropped);
}

void run_def(Session& s, const Args& args, Output& out) {
  Graph g = s.has_graph() ? s.graph() : Graph{};
  ValueTypes before = g.types;
  apply_rtg_statement(g, args.raw);
  for (const auto& [value, type] : g.types) {
    auto it = before.find(value);
    if (it == before.end() || it->second != type) out.print("{}: {}", value, type.str());
  }
  s.set_graph(std::move(g));
}

void run_show(Session& s, const Args& args, Output& out) {
  RtgPrintOptions options;
  options.show_types = true;
  options.max_literal_elements = 16;
  out.write(print_rtg(graph_or_variant(s, args), options));
}

void run_info(Session& s, const Args&, Output& out) {
  const Graph& g = s.graph();
  out.print("graph {}: {}", g.name, graph_counts(g));
  out.line("inputs:");
  for (const auto& in : g.inputs) out.print("  {}: {}", in.name, in.type.str());
  out.line("outputs:");
  for (const auto& o : g.outputs) out.print("  {}: {}", o, g.type_of(o).str());

  std::map<std::string, size_t> histogram;
  for (const auto& node : g.nodes) ++histogram[node.op];
  std::vector<std::pair<std::string, size_t>> ops(histogram.begin(), histogram.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> op_counts;
  for (const auto& [op, n] : ops) op_counts.push_back(fmt::format("{} {}", op, n));
  out.print("ops: {}", op_counts.empty() ? "none" : fmt::format("{}", fmt::join(op_counts, ", ")));

  std::set<DType> dtypes;
  for (const auto& [value, type] : g.types) dtypes.insert(type.dtype);
  std::vector<std::string_view> dtype_names;
  for (DType t : dtypes) dtype_names.push_back(dtype_name(t));
  out.print("dtypes: {}",
            dtype_names.empty() ? "none" : fmt::format("{}", fmt::join(dtype_names, ", ")));
}

void run_export(Session& s, const Args& args, Output& out) {
  const std::string& path = *args.arg(0);
  if (path == "repro" && args.arg(1)) return run_export_repro(s, args, out);
  if (args.arg(1))
    fail("unexpected argument '{}'; usage: export FILE | export repro DIR", *args.arg(1));
  bool force = args.has("--force");
  if (!force && std::filesystem::exists(path))
    fail("{} already exists; `export {} --force` replaces it", path, path);
  save_graph_file(s.graph(), path, force);
  out.print("wrote {}", path);
}

}  // namespace

void register_graph_commands(CommandRegistry& r) {
  r.add(
      {.name = "load",
       .args = {{"FILE", Completion::FilePath}},
       .summary = "Load a graph from a .rtg, .json or .onnx file.",
       .help =
           "The graph becomes the current graph, in a fresh state: the previous graph's e-graph,\n"
           "variants, undo history and compare results are dropped (seed, rules, tolerances\n"
           "and backends stay). The format is chosen by the file's extension. Ops that Retort\n"
           "does not know are kept as opaque nodes when they come from ONNX.",
       .run = run_load});
  r.add({.name = "new",
         .summary = "Start over with no graph.",
         .help = "Drops the current graph with its e-graph, variants, undo history and compare\n"
                 "results, as `load` does before it loads; seed, rules, tolerances and backends\n"
                 "stay. `def` then builds a graph from nothing.",
         .run = [](Session& s, const Args&, Output& out) {
           std::string dropped = dropped_by_start(s);
           s.start_graph(std::nullopt);
           out.line("no graph: `load FILE`, `def` or `gen` one");
           if (!dropped.empty()) out.line(dropped);
         }});
  r.add({.name = "def",
         .args = {{"STATEMENT", Completion::NodeName}},
         .summary = "Add one .rtg statement to the current graph.",
         .help =
             "The statement is .rtg source text, taken as typed (not split into words); without a\n"
             "current graph it starts an empty one. The types of the values it defines are\n"
             "printed. On an error the graph is left unchanged.",
         .run = run_def,
         .raw_text = true});
  r.add({.name = "show",
         .args = {{"NAME", Completion::VariantName, true}},
         .summary = "Print a graph as .rtg text with types.",
         .help =
             "Prints the current graph, or the variant NAME. Long constant literals are elided\n"
             "in the listing; `export` writes them in full.",
         .run = run_show});
  r.add({.name = "info",
         .summary = "Describe the current graph: inputs, outputs, ops, dtypes.",
         .help = "Lists the inputs and outputs with their types, counts the nodes and constants,\n"
                 "counts each op and names the dtypes of all values.",
         .run = run_info});
  r.add({.name = "export",
         .args = {{"FILE", Completion::FilePath}, {"DIR", Completion::FilePath, true}},
         .options =
             {{"--force", "", "replace FILE, or write into a non-empty DIR"},
              {"--finding", "N", "export repro: the N-th finding of the last compare (default 1)"},
              {"--full", "", "export repro: also Retort's replay through its workers (replay/)"},
              {"--issue", "",
               "export repro: also issue.md, an issue ready to file that names the passes the "
               "difference needs (as `findings blame`), and graph.svg; both, and the bundle, of "
               "what feeds the failing outputs only"}},
         .summary = "Save the current graph as .rtg, .json or .onnx, or a reproducer bundle.",
         .help = "The format is chosen by FILE's extension. An existing file is never replaced\n"
                 "unless --force is given.\n"
                 "`export repro DIR` writes a bundle for finding #N (default 1) of the last\n"
                 "`compare` that a compiler's developers run as it is: repro.py, using only the\n"
                 "compiler's public API and numpy (exit 1 when the bug shows), the ONNX models,\n"
                 "the inputs and the reference outputs (.npy), requirements.txt pinning the\n"
                 "release's environment, and a README. --full adds Retort's replay through its\n"
                 "workers; a backend with no standalone script gets only that. --issue adds\n"
                 "issue.md and graph.svg, as `findings report` (docs/bugs.md). See\n"
                 "docs/compare.md.",
         .run = run_export,
         .restorable = false});
}

}  // namespace retort
