#include "core/compare/repro.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <fmt/ranges.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/compare/output_match.h"
#include "core/exec/inputs.h"
#include "core/io/graph_files.h"
#include "core/io/json_graph.h"
#include "core/io/npy.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

namespace retort {

namespace fs = std::filesystem;

namespace {

size_t graph_index(const CompareReport& report, const std::string& name) {
  auto it = std::find(report.graphs.begin(), report.graphs.end(), name);
  if (it == report.graphs.end()) fail("the compare report has no graph '{}'", name);
  return static_cast<size_t>(it - report.graphs.begin());
}

// The outputs a two-graph finding compared, as compare paired them (core/compare/output_match.h).
OutputPairs finding_pairs(const CompareReport& report, size_t a, size_t b) {
  std::vector<const Graph*> defs;
  for (const Graph& g : report.graph_defs) defs.push_back(&g);
  std::vector<OutputMatch> matches(defs.size());
  for (size_t g : {a, b})
    if (g != 0) matches[g] = match_outputs(*defs[0], *defs[g], report.graphs[g]);
  std::vector<std::vector<size_t>> values;
  if (a != 0 && b != 0) values = output_values(defs);
  return output_pairs(defs, matches, values, a, b);
}

const ReproBackend& backend_of(const ReproOptions& options, const std::string& name) {
  auto it = options.backends.find(name);
  if (it == options.backends.end()) fail("no backend '{}' to write a reproducer for", name);
  return it->second;
}

// The command line as a shell would read it back, for the README.
std::string shell_line(const std::vector<std::string>& argv) {
  std::vector<std::string> words;
  for (const auto& w : argv) {
    bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) ||
             std::string_view("_./:=,+-").find(c) != std::string_view::npos;
    });
    std::string quoted = "'";
    for (char c : w) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    words.push_back(plain ? w : quoted + "'");
  }
  return fmt::format("{}", fmt::join(words, " "));
}

std::string_view kind_name(ReproBackend::Kind k) {
  switch (k) {
    case ReproBackend::Kind::reference:
      return "reference";
    case ReproBackend::Kind::ort:
      return "ort";
    case ReproBackend::Kind::worker:
      return "worker";
  }
  return "?";
}

nlohmann::json backend_json(const ReproBackend& b) {
  return {{"kind", kind_name(b.kind)},
          {"version", b.version},
          {"ort_level", b.ort_level},
          {"argv", b.argv},
          {"options", b.options}};
}

class BundleWriter {
 public:
  BundleWriter(std::string dir, bool force) : dir_(std::move(dir)) {
    std::error_code ec;
    if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec)) fail("{} is not a directory", dir_);
    if (fs::exists(dir_, ec) && !fs::is_empty(dir_, ec) && !force)
      fail("{} is not empty (use --force to write into it)", dir_);
    fs::create_directories(dir_, ec);
    if (ec) fail("cannot create {}: {}", dir_, ec.message());
  }
  // Never through a symbolic link inside the bundle (DIR/inputs -> elsewhere): nothing is
  // written outside DIR.
  void write(const std::string& name, const std::string& data) {
    write_file_in(dir_, name, data, true);
    files_.push_back(name);
  }
  void copy(const std::string& from, const std::string& name) { write(name, read_file(from)); }
  std::vector<std::string> files() const { return files_; }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

// The graph as .rtg text, or as lossless JSON when a name cannot be written in .rtg (a model's
// names may hold line breaks or anything else).
void write_graph_text(BundleWriter& out, const std::string& stem, const Graph& g) {
  if (rtg_can_print(g))
    out.write(stem + ".rtg", print_rtg(g));
  else
    out.write(stem + ".json", graph_to_json(g).dump(2) + "\n");
}

std::string readme(const CompareReport& report, const Finding& f, const ReproBackend& a,
                   const std::string& run, const nlohmann::json& cfg) {
  std::string oracle_text;
  switch (f.oracle) {
    case Oracle::reference:
      oracle_text =
          "the backend must agree with Retort's reference interpreter, whose outputs "
          "are in expected/";
      break;
    case Oracle::equivalence:
      oracle_text =
          "the same backend must give the same outputs for two equivalent graphs "
          "(POLYJUICE): model_a.onnx is a rewrite of model_b.onnx";
      break;
    case Oracle::optimization:
      oracle_text =
          "the same graph must give the same outputs at two optimization settings of "
          "one backend (HirFuzz)";
      break;
  }
  std::string text = fmt::format(
      "# Retort reproducer: {} oracle, {}\n\n"
      "{}\n\n"
      "- side a (under test): {} (version {})\n"
      "- side b: {}\n"
      "- inputs: seed {} of `compare`, in inputs/ (.npy, in the order of repro.json)\n"
      "- tolerances: {}\n\n"
      "What Retort saw:\n\n    {}\n\n"
      "## Run\n\n    {}\n\n"
      "It prints the differences and exits 1 when the finding reproduces, 0 when the two sides "
      "agree.\n",
      oracle_name(f.oracle), verdict_name(f.verdict), oracle_text,
      cfg["a"]["label"].get<std::string>(), a.version.empty() ? "unknown" : a.version,
      cfg["b"]["label"].get<std::string>(), f.seed, report.tolerances.str(), f.str(), run);
  if (a.kind == ReproBackend::Kind::ort)
    text += fmt::format(
        "\nrepro.js needs onnxruntime-node: it loads it from $RETORT_NODE_MODULES, else from\n"
        "{} (Retort's scripts/backends/node_modules;\n"
        "`npm install onnxruntime-node@{}` anywhere gives one).\n",
        cfg["node_modules"].get<std::string>(), a.version.empty() ? "1.20.1" : a.version);
  else
    text += fmt::format(
        "\nrepro.py needs Python 3 with numpy; it starts the worker, from this folder, with\n\n"
        "    {}\n",
        shell_line(a.argv));
  text +=
      "\n## Files\n\n"
      "- model_a.onnx, graph_a.rtg: the graph of side a (ONNX opset 17; .rtg is Retort's text, "
      "graph_a.json instead when a name cannot be written in .rtg)\n"
      "- model_b.onnx, graph_b.rtg: the graph of side b, when it is another graph\n"
      "- inputs/*.npy, expected/*.npy: the inputs and the reference outputs of side a's graph\n"
      "- repro.json: what the script runs and compares\n";
  return text;
}

}  // namespace

ReproBundle write_repro(const std::string& dir, const CompareReport& report, const Finding& f,
                        const ReproOptions& options) {
  const ReproBackend& backend_a = backend_of(options, f.backend_a);
  if (backend_a.kind == ReproBackend::Kind::reference)
    fail("'{}' is the reference interpreter: there is no compiler to reproduce on", f.backend_a);
  bool b_is_reference = f.oracle == Oracle::reference;
  const ReproBackend* backend_b = b_is_reference ? nullptr : &backend_of(options, f.backend_b);
  if (backend_b && backend_b->kind != backend_a.kind)
    fail("'{}' and '{}' need different runners; a bundle has one script", f.backend_a, f.backend_b);
  const Graph& ga = report.graph_defs.at(graph_index(report, f.graph_a));
  const Graph& gb = report.graph_defs.at(graph_index(report, f.graph_b));
  bool two_graphs = f.graph_a != f.graph_b;

  BundleWriter out(dir, options.force);
  TensorMap inputs = generate_inputs(report.graph_defs.at(0), f.seed, nullptr, report.inputs);
  TensorMap expected = evaluate(ga, inputs);

  nlohmann::json cfg;
  cfg["oracle"] = oracle_name(f.oracle);
  cfg["verdict"] = verdict_name(f.verdict);
  cfg["seed"] = f.seed;
  cfg["node_modules"] =
      backend_a.node_modules.empty() ? options.node_modules : backend_a.node_modules;
  nlohmann::json tol = nlohmann::json::object();
  for (DType d : kAllDTypes)
    tol[std::string(dtype_name(d))] = {{"atol", report.tolerances.of(d).atol},
                                       {"rtol", report.tolerances.of(d).rtol},
                                       {"ulps", report.tolerances.of(d).ulps}};
  cfg["tolerances"] = tol;
  cfg["inputs"] = nlohmann::json::array();
  for (size_t i = 0; i < ga.inputs.size(); ++i) {
    std::string file = fmt::format("inputs/input_{}.npy", i);
    out.write(file, write_npy(inputs.at(ga.inputs[i].name)));
    cfg["inputs"].push_back({{"name", ga.inputs[i].name}, {"file", file}});
  }
  nlohmann::json expected_files = nlohmann::json::array();
  for (size_t i = 0; i < ga.outputs.size(); ++i) {
    std::string file = fmt::format("expected/output_{}.npy", i);
    out.write(file, write_npy(expected.at(ga.outputs[i])));
    expected_files.push_back(file);
  }
  out.write("model_a.onnx", export_onnx(ga));
  write_graph_text(out, "graph_a", ga);
  if (two_graphs) {
    out.write("model_b.onnx", export_onnx(gb));
    write_graph_text(out, "graph_b", gb);
  }

  std::map<std::string, std::string> copies = backend_a.copy_files;
  auto side = [&](const std::string& backend, const std::string& graph, const ReproBackend& b,
                  const std::string& model, const std::vector<std::string>& outputs) {
    return nlohmann::json{{"label", fmt::format("{} on {}", backend, graph)},
                          {"model", model},
                          {"backend", backend_json(b)},
                          {"outputs", outputs}};
  };
  std::vector<std::string> outputs_a = ga.outputs, outputs_b = gb.outputs;
  if (two_graphs) {
    outputs_a.clear();
    outputs_b.clear();
    for (const auto& [oa, ob] :
         finding_pairs(report, graph_index(report, f.graph_a), graph_index(report, f.graph_b))) {
      outputs_a.push_back(oa);
      outputs_b.push_back(ob);
    }
  }
  cfg["a"] = side(f.backend_a, f.graph_a, backend_a, "model_a.onnx", outputs_a);
  if (b_is_reference) {
    cfg["b"] = {{"label", fmt::format("the reference on {}", f.graph_a)},
                {"expected", expected_files},
                {"outputs", ga.outputs}};
  } else {
    cfg["b"] = side(f.backend_b, f.graph_b, *backend_b,
                    two_graphs ? "model_b.onnx" : "model_a.onnx", outputs_b);
    copies.insert(backend_b->copy_files.begin(), backend_b->copy_files.end());
  }
  for (const auto& [from, name] : copies) out.copy(from, name);
  out.write("repro.json", cfg.dump(2) + "\n");

  ReproBundle bundle;
  if (backend_a.kind == ReproBackend::Kind::ort) {
    out.write("repro.js", kReproNodeScript);
    bundle.run = "node repro.js";
  } else {
    out.write("repro.py", kReproPythonScript);
    bundle.run = options.python + " repro.py";
  }
  out.write("README.md", readme(report, f, backend_a, bundle.run, cfg));
  bundle.files = out.files();
  return bundle;
}

}  // namespace retort
