#include "core/compare/repro.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/exec/inputs.h"
#include "core/io/graph_files.h"
#include "core/io/json_graph.h"
#include "core/io/npy.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

namespace retort {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_repro_scripts();

std::string_view repro_script_part(std::string_view stem) {
  for (const auto& [name, text] : embedded_repro_scripts())
    if (name == stem) return text;
  return {};
}

std::string ReproBundle::run_line() const {
  if (!standalone) return run;
  return "python3 -m venv venv && venv/bin/pip install -r requirements.txt && venv/bin/python "
         "repro.py";
}

namespace {

size_t graph_index(const CompareReport& report, const std::string& name) {
  auto it = std::find(report.graphs.begin(), report.graphs.end(), name);
  if (it == report.graphs.end()) fail("the compare report has no graph '{}'", name);
  return static_cast<size_t>(it - report.graphs.begin());
}

const ReproBackend& backend_of(const std::map<std::string, ReproBackend>& backends,
                               const std::string& name) {
  auto it = backends.find(name);
  if (it == backends.end()) fail("no backend '{}' to write a reproducer for", name);
  return it->second;
}

// The family and release of a built-in backend; nullopt for an attached worker ("ort:par" is
// an attached name too when "par" is no mode of ort).
std::optional<BackendName> family_release(const std::string& backend) {
  try {
    std::optional<BackendName> name = parse_backend_name(backend);
    if (name && name->version.empty()) name->version = default_version(*name->family);
    return name;
  } catch (const Error&) {
    return std::nullopt;
  }
}

class BundleWriter {
 public:
  BundleWriter(std::string dir, bool force) : dir_(std::move(dir)) {
    std::error_code ec;
    if (std::filesystem::exists(dir_, ec) && !std::filesystem::is_directory(dir_, ec))
      fail("{} is not a directory", dir_);
    if (std::filesystem::exists(dir_, ec) && !std::filesystem::is_empty(dir_, ec) && !force)
      fail("{} is not empty (use --force to write into it)", dir_);
    std::filesystem::create_directories(dir_, ec);
    if (ec) fail("cannot create {}: {}", dir_, ec.message());
  }
  // Never through a symbolic link inside the bundle (DIR/inputs -> elsewhere): nothing is
  // written outside DIR.
  void write(const std::string& name, const std::string& data) {
    write_file_in(dir_, name, data, true);
    files_.push_back(name);
  }
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

// One side of the finding that a script runs.
struct Run {
  std::string backend, graph, model;
  const ReproBackend* how = nullptr;
  const Graph* g = nullptr;
};

// The case literal both scripts start with. Names and messages are JSON strings with every
// non-ASCII character escaped, which Python reads as the same string: data, never code. The
// case holds no true, false or null, which Python would not read.
std::string case_literal(nlohmann::json c) {
  return c.dump(1, ' ', true);
}

// A script: scripts/repro/header.py.in with the docstring and the case, the runner, then the
// comparison and verdict of repro.py.in.
std::string assemble(const std::string& doc, const nlohmann::json& c, std::string_view runner) {
  std::string text(repro_script_part("header"));
  auto put = [&text](std::string_view mark, const std::string& what) {
    size_t at = text.find(mark);
    if (at != std::string::npos) text.replace(at, mark.size(), what);
  };
  put("@DOC@", doc);
  put("@CASE@", case_literal(c));  // last: the case holds a model's names
  return fmt::format("{}\n\n{}\n\n{}", text, runner, repro_script_part("repro"));
}

std::string claim(const Finding& f) {
  if (f.verdict == Verdict::error || f.verdict == Verdict::crash || f.verdict == Verdict::timeout)
    return fmt::format("{} fails on {}", f.backend_a, f.graph_a);
  return fmt::format("{} on {} disagrees with {}", f.backend_a, f.graph_a,
                     f.oracle == Oracle::reference
                         ? std::string("the reference")
                         : fmt::format("{} on {}", f.backend_b, f.graph_b));
}

std::string requirement(const std::string& pattern, const std::string& version) {
  return fmt::format(fmt::runtime(pattern), version);
}

}  // namespace

std::map<std::string, ReproBackend> repro_backends(const BackendSet& backends) {
  std::map<std::string, ReproBackend> out;
  for (const BackendInfo& info : backends.list()) out[info.name].info = info;
  for (const BackendSpec& spec : backends.attached()) out[spec.name].argv = spec.argv;
  for (auto& [name, b] : out) {
    if (b.info.kind == "reference" || !b.argv.empty()) continue;
    if (std::optional<BackendName> family = family_release(name))
      b.argv = family_backend_spec(*family).argv;
  }
  return out;
}

ReproBundle write_repro(const std::string& dir, const CompareReport& report, const Finding& f,
                        const std::map<std::string, ReproBackend>& backends,
                        const ReproOptions& options) {
  std::vector<Run> runs{{f.backend_a, f.graph_a, "model_a.onnx", &backend_of(backends, f.backend_a),
                         &report.graph_defs.at(graph_index(report, f.graph_a))}};
  if (runs[0].how->info.kind == "reference")
    fail("'{}' is the reference interpreter: there is no compiler to reproduce on", f.backend_a);
  bool two_graphs = f.graph_a != f.graph_b;
  if (f.oracle != Oracle::reference)
    runs.push_back({f.backend_b, f.graph_b, two_graphs ? "model_b.onnx" : "model_a.onnx",
                    &backend_of(backends, f.backend_b),
                    &report.graph_defs.at(graph_index(report, f.graph_b))});
  const Graph& ga = *runs[0].g;

  // Standalone when every run is one family's and that family has a runner.
  std::optional<BackendName> family = family_release(f.backend_a);
  bool standalone = family && !family->family->repro_script.empty();
  for (const Run& r : runs) {
    std::optional<BackendName> other = family_release(r.backend);
    standalone =
        standalone && other && other->family == family->family && other->version == family->version;
  }

  BundleWriter out(dir, options.force);
  TensorMap inputs = generate_inputs(report.graph_defs.at(0), f.seed, nullptr, report.inputs);
  TensorMap expected = evaluate(ga, inputs);
  nlohmann::json c;
  c["oracle"] = oracle_name(f.oracle);
  c["verdict"] = verdict_name(f.verdict);
  c["claim"] = claim(f);
  c["root"] = ".";
  c["inputs"] = nlohmann::json::array();
  for (size_t i = 0; i < ga.inputs.size(); ++i) {
    out.write(fmt::format("inputs/input_{}.npy", i), write_npy(inputs.at(ga.inputs[i].name)));
    c["inputs"].push_back(ga.inputs[i].name);
  }
  c["tolerances"] = nlohmann::json::array();
  for (size_t i = 0; i < ga.outputs.size(); ++i) {
    const Tensor& t = expected.at(ga.outputs[i]);
    out.write(fmt::format("expected/output_{}.npy", i), write_npy(t));
    const Tolerance& tol = report.tolerances.of(t.dtype());
    c["tolerances"].push_back({{"atol", tol.atol}, {"rtol", tol.rtol}, {"ulps", tol.ulps}});
  }
  out.write("model_a.onnx", export_onnx(ga));
  if (two_graphs) out.write("model_b.onnx", export_onnx(*runs.back().g));

  ReproBundle bundle;
  bundle.standalone = standalone;
  std::string doc;
  if (standalone) {
    const FamilyDef& fam = *family->family;
    const auto& patterns = fam.repro_requirements.empty() ? fam.packages : fam.repro_requirements;
    for (const auto& p : patterns) bundle.requirements.push_back(requirement(p, family->version));
    // "onnxruntime 1.30.0": the package a maintainer knows, at the release.
    bundle.compiler = bundle.requirements[0];
    if (size_t eq = bundle.compiler.find("=="); eq != std::string::npos)
      bundle.compiler.replace(eq, 2, " ");
    std::string reqs;
    for (const auto& r : bundle.requirements) reqs += r + "\n";
    out.write("requirements.txt", reqs);
    c["runs"] = nlohmann::json::array();
    for (const Run& r : runs)
      c["runs"].push_back({{"label", fmt::format("{} on {} ({})", r.backend, r.graph, r.model)},
                           {"model", r.model},
                           {"settings", r.how->info.options}});
    doc = fmt::format(
        "A {} finding of Retort on {}: {} oracle.\n\n"
        "Needs only: pip install -r requirements.txt\n"
        "Exit 1 when the bug shows, 0 when it does not, 2 when this script cannot run.",
        verdict_name(f.verdict), bundle.compiler, oracle_name(f.oracle));
    out.write("repro.py", assemble(doc, c, repro_script_part(fam.repro_script)));
    bundle.run = "python3 repro.py";
  }
  if (!standalone || options.full) {
    // Retort's replay: in replay/ beside the standalone script, else the bundle's only script.
    std::string at = standalone ? "replay/" : "";
    nlohmann::json r = c;
    r["root"] = standalone ? ".." : ".";
    r["runs"] = nlohmann::json::array();
    for (const Run& run : runs)
      r["runs"].push_back(
          {{"label", fmt::format("{} on {} ({})", run.backend, run.graph, run.model)},
           {"model", run.model},
           {"settings",
            {{"argv", run.how->argv},
             {"options", run.how->info.options},
             {"outputs", run.g->outputs}}}});
    for (const char* file : {"__init__.py", "errors.py", "protocol.py", "tensors.py"})
      out.write(at + "retort_backends/" + file,
                read_file(options.backends_dir + "/retort_backends/" + file));
    write_graph_text(out, at + "graph_a", ga);
    if (two_graphs) write_graph_text(out, at + "graph_b", *runs.back().g);
    std::string replay_doc =
        "Retort's replay of a finding: each run goes to the backend's worker (the command and "
        "hello\noptions Retort used) through the workers' protocol code in retort_backends/.\n"
        "Needs Python 3 with numpy. Exit 1 when the finding reproduces, 0 when not, 2 when this "
        "script\ncannot run.";
    out.write(at + (standalone ? "replay.py" : "repro.py"),
              assemble(replay_doc, r, repro_script_part("replay")));
    if (!standalone) bundle.run = options.python + " repro.py";
  }

  std::string readme = fmt::format(
      "# Reproducer: {} ({} oracle)\n\n{}\n\n", verdict_name(f.verdict), oracle_name(f.oracle),
      standalone ? fmt::format("Compiler: {}. The script uses only its public API and numpy.",
                               bundle.compiler)
                 : "No standalone script for this backend: repro.py is Retort's replay through "
                   "its worker.");
  if (standalone)
    readme +=
        "    python3 -m venv venv && venv/bin/pip install -r requirements.txt\n"
        "    venv/bin/python repro.py\n\n";
  else
    readme += fmt::format("    {}\n\n", bundle.run);
  readme +=
      "It prints each run against the expected outputs and exits 1 when the bug shows.\n\n"
      "- model_a.onnx (and model_b.onnx, an equivalent rewrite of it, when there are two): ONNX, "
      "opset 17\n"
      "- inputs/input_N.npy: the model's inputs, in the order of CASE[\"inputs\"] in the script\n"
      "- expected/output_N.npy: the outputs of Retort's reference interpreter\n";
  if (standalone && options.full)
    readme += "- replay/replay.py: the same check through Retort's workers (needs Retort)\n";
  if (!options.retort_command.empty())
    readme += fmt::format("\nIn Retort: `{}`\n", options.retort_command);
  out.write("README.md", readme);
  bundle.files = out.files();
  return bundle;
}

}  // namespace retort
