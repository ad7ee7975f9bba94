#include "core/compare/repro.h"

#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/backend/command_run.h"
#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/backend/release_pins.h"
#include "core/base/error.h"
#include "core/compare/repro_issue.h"
#include "core/io/graph_files.h"
#include "core/io/npy.h"
#include "core/io/rtg.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("retort_repro_{}", ::getpid());
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string text(const std::string& file) const { return read_file((path / file).string()); }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ReproOptions options_for_tests() {
  ReproOptions o;
  o.backends_dir = RETORT_SOURCE_DIR "/scripts/backends";
  return o;
}

// A compare whose one finding is `name` (a wrong mul) against the reference.
CompareReport wrong_mul_report(const Graph& g, const std::string& name) {
  WrongBackend wrong(name, {"y"});
  return run_compare({{"original", &g}}, {&wrong}, {.seed = 4, .runs = 1, .tolerances = {}});
}

ReproBackend worker_info(const std::string& name, std::map<std::string, std::string> options) {
  ReproBackend b;
  b.info.name = name;
  b.info.kind = "worker";
  b.info.options = std::move(options);
  b.argv = {"/bin/worker", "--flag"};
  return b;
}

const Graph kGraph =
    parse_rtg("graph g\ninput x : f32[2,3]\nm = mul(x, x)\ny = add(m, x)\noutput y\n");

// ONNX Runtime has a standalone runner: the bundle is the script on onnxruntime's public API, the
// model, the data and requirements.txt pinning the release; nothing of Retort's.
TEST(CompareRepro, AnOrtFindingGetsAStandaloneScript) {
  CompareReport report = wrong_mul_report(kGraph, "ort:O3");
  ASSERT_NE(report.bug(1), nullptr);
  TempDir dir;
  std::map<std::string, ReproBackend> infos{
      {"ort:O3", worker_info("ort:O3", {{"opt_level", "all"}, {"intra_op_threads", "1"}})}};
  ReproBundle b =
      write_repro(dir.path.string(), report, *report.bug(1), infos, options_for_tests());
  EXPECT_TRUE(b.standalone);
  std::string version = default_version(*find_family("ort"));
  ASSERT_EQ(b.requirements.size(), 3u);
  EXPECT_EQ(b.requirements[0], "onnxruntime==" + version);
  EXPECT_EQ(dir.text("requirements.txt"), fmt::format("{}\n", fmt::join(b.requirements, "\n")));
  for (const char* f : {"inputs/input_0.npy", "expected/output_0.npy", "model_a.onnx", "repro.py",
                        "requirements.txt", "README.md"})
    EXPECT_TRUE(fs::exists(dir.path / f)) << f;
  for (const char* f : {"replay", "retort_backends", "graph_a.rtg", "model_b.onnx"})
    EXPECT_FALSE(fs::exists(dir.path / f)) << f;
  std::string script = dir.text("repro.py");
  EXPECT_TRUE(has(script, "import onnxruntime as ort")) << script;
  EXPECT_TRUE(has(script, "\"opt_level\": \"all\"")) << script;
  EXPECT_FALSE(has(script, "/bin/worker")) << script;
  EXPECT_FALSE(has(script, "retort_backends")) << script;
  EXPECT_TRUE(has(script, "\"claim\": \"ort:O3 on original disagrees with the reference\""));
  Tensor expected = read_npy(dir.text("expected/output_0.npy"));
  EXPECT_EQ(expected.type().str(), "f32[2,3]");

  // --full adds Retort's replay through the worker beside it, reading the same files.
  ReproOptions full = options_for_tests();
  full.full = true;
  full.force = true;
  write_repro(dir.path.string(), report, *report.bug(1), infos, full);
  std::string replay = dir.text("replay/replay.py");
  EXPECT_TRUE(has(replay, "\"root\": \"..\"")) << replay;
  EXPECT_TRUE(has(replay, "\"/bin/worker\"")) << replay;
  EXPECT_TRUE(has(replay, "from retort_backends.protocol import read_frame, write_frame"));
  for (const char* f : {"replay/retort_backends/protocol.py", "replay/retort_backends/tensors.py",
                        "replay/graph_a.rtg"})
    EXPECT_TRUE(fs::exists(dir.path / f)) << f;
}

// Each backend of a session says how a bundle runs it, with no cast: the reference has no
// command, a family's mode its worker's, an attached worker the command it was attached with.
TEST(CompareRepro, TheBackendSetSaysHowEachBackendRuns) {
  BackendSet set;
  set.attach("mine", {"/bin/worker", "--x"}, 5, {{"k", "v"}});
  std::map<std::string, ReproBackend> all = repro_backends(set);
  EXPECT_EQ(all.at("ref").info.kind, "reference");
  EXPECT_TRUE(all.at("ref").argv.empty());
  ASSERT_GE(all.at("ort:O3").argv.size(), 2u);
  EXPECT_TRUE(has(all.at("ort:O3").argv[1], find_family("ort")->worker));
  EXPECT_EQ(all.at("ort:O3").info.options.at("opt_level"), "all");
  EXPECT_EQ(all.at("mine").argv, (std::vector<std::string>{"/bin/worker", "--x"}));
  EXPECT_EQ(all.at("mine").info.options.at("k"), "v");
}

// A family run in the user's environment (`backend use iree --python P`) runs there in the
// replay, and its bundle pins each package at the version that environment has, never the lock's.
TEST(CompareRepro, AUsersEnvironmentIsPinnedAtItsOwnVersions) {
  BackendSet set;
  set.use_environment(*find_family("iree"),
                      {.python = "/opt/venv/bin/python",
                       .versions = "iree-base-compiler 1.99.0, iree-base-runtime 1.98.5, numpy "
                                   "2.0.1, onnx missing"});
  set.get("iree:O3");
  std::map<std::string, ReproBackend> infos = repro_backends(set);
  ASSERT_TRUE(infos.at("iree:O3").python);
  EXPECT_EQ(infos.at("iree:O3").argv.front(), "/opt/venv/bin/python");
  CompareReport report = wrong_mul_report(kGraph, "iree:O3");
  ASSERT_NE(report.bug(1), nullptr);
  TempDir dir;
  ReproBundle b =
      write_repro(dir.path.string(), report, *report.bug(1), infos, options_for_tests());
  EXPECT_TRUE(b.standalone);
  EXPECT_EQ(b.requirements,
            (std::vector<std::string>{"iree-base-compiler==1.99.0", "iree-base-runtime==1.98.5",
                                      "numpy==2.0.1", "onnx", "ml_dtypes"}));
  EXPECT_EQ(b.compiler, "iree-base-compiler 1.99.0");
}

// An attached worker has no public API to call: its bundle is Retort's replay, as the only script.
TEST(CompareRepro, AnAttachedWorkerGetsRetortsReplay) {
  CompareReport report = wrong_mul_report(kGraph, "bad");
  TempDir dir;
  std::map<std::string, ReproBackend> infos{{"bad", worker_info("bad", {{"k", "v"}})}};
  ReproBundle b =
      write_repro(dir.path.string(), report, *report.bug(1), infos, options_for_tests());
  EXPECT_FALSE(b.standalone);
  EXPECT_EQ(b.run, "/usr/bin/python3 repro.py");
  EXPECT_FALSE(fs::exists(dir.path / "requirements.txt"));
  std::string script = dir.text("repro.py");
  EXPECT_TRUE(has(script, "\"argv\": [")) << script;
  EXPECT_TRUE(has(script, "\"/bin/worker\",")) << script;
  EXPECT_TRUE(has(script, "\"--flag\"")) << script;
  EXPECT_TRUE(has(script, "\"k\": \"v\"")) << script;
  EXPECT_TRUE(fs::exists(dir.path / "retort_backends/protocol.py"));
  EXPECT_TRUE(fs::exists(dir.path / "graph_a.rtg"));

  // A second export refuses the non-empty folder unless forced; a backend it does not know or
  // the reference is an Error.
  EXPECT_THROW(write_repro(dir.path.string(), report, *report.bug(1), infos, options_for_tests()),
               Error);
  ReproOptions forced = options_for_tests();
  forced.force = true;
  EXPECT_NO_THROW(write_repro(dir.path.string(), report, *report.bug(1), infos, forced));
  EXPECT_THROW(write_repro(dir.path.string(), report, *report.bug(1), {}, forced), Error);
  infos["bad"].info.kind = "reference";
  EXPECT_THROW(write_repro(dir.path.string(), report, *report.bug(1), infos, forced), Error);
}

TEST(CompareRepro, NeverWritesThroughALinkOutOfTheBundle) {
  Graph g = parse_rtg("graph g\ninput x : f32[2,3]\ny = mul(x, x)\noutput y\n");
  CompareReport report = wrong_mul_report(g, "bad");
  ASSERT_NE(report.bug(1), nullptr);
  ReproOptions options = options_for_tests();
  options.force = true;
  TempDir dir;
  fs::create_directories(dir.path / "bundle");
  fs::create_directories(dir.path / "elsewhere");
  fs::create_directory_symlink(dir.path / "elsewhere", dir.path / "bundle" / "inputs");
  EXPECT_THROW(write_repro((dir.path / "bundle").string(), report, *report.bug(1),
                           {{"bad", worker_info("bad", {})}}, options),
               Error);
  EXPECT_TRUE(fs::is_empty(dir.path / "elsewhere"));
}

// A bundle that cannot be written whole (a full disk: here a file size limit, which makes the
// same write() fail) leaves nothing behind: no DIR with an empty inputs/, no temporary folder.
TEST(CompareRepro, AFailedWriteLeavesNoHalfBundle) {
  Graph g = parse_rtg("graph g\ninput x : f32[60000]\nm = mul(x, x)\ny = add(m, x)\noutput y\n");
  CompareReport report = wrong_mul_report(g, "ort:O3");
  ASSERT_NE(report.bug(1), nullptr);
  std::map<std::string, ReproBackend> infos{{"ort:O3", worker_info("ort:O3", {})}};
  TempDir dir;
  fs::create_directories(dir.path / "kept");
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);  // write() fails with EFBIG instead
  rlimit small = before;
  small.rlim_cur = 64 << 10;  // the input alone takes 240 kB
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string error;
  for (const fs::path& bundle : {dir.path / "bundle", dir.path / "kept"}) {
    try {
      write_repro(bundle.string(), report, *report.bug(1), infos, options_for_tests());
    } catch (const Error& e) {
      error = e.what();
    }
  }
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir.path / "bundle"));
  EXPECT_TRUE(fs::is_empty(dir.path / "kept"));
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir.path))
    left.push_back(entry.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"kept"});
  // With room again the same bundle is written whole.
  write_repro((dir.path / "bundle").string(), report, *report.bug(1), infos, options_for_tests());
  EXPECT_TRUE(fs::exists(dir.path / "bundle" / "inputs" / "input_0.npy"));
  EXPECT_TRUE(fs::exists(dir.path / "bundle" / "README.md"));
  for (const auto& entry : fs::directory_iterator(dir.path / "bundle"))
    EXPECT_FALSE(entry.path().filename().string().starts_with(".")) << entry.path();
}

// The CASE literal a script starts with, as JSON.
nlohmann::json script_case(const std::string& script) {
  std::istringstream in(script.substr(script.find("CASE = ") + 7));
  nlohmann::json c;
  in >> c;
  return c;
}

// A variant that lists the original's outputs the other way round (and computes s otherwise):
// the compiler gets s wrong on it alone. The script checks each run against its own graph's
// expected outputs, and pairs the two runs' outputs by name, as the compare did, not by position.
TEST(CompareRepro, AVariantWithReorderedOutputsIsComparedByName) {
  Graph original = parse_rtg(
      "graph g\ninput x : f32[2,3]\ninput y : f32[2,3]\ns = add(x, y)\no = exp(x)\n"
      "output o, s\n");
  Graph reordered = parse_rtg(
      "graph v\ninput x : f32[2,3]\ninput y : f32[2,3]\nn = neg(y)\ns = sub(x, n)\n"
      "o = exp(x)\noutput s, o, n\n");
  WrongOpBackend wrong("bad", {{"neg", 1.0}});
  CompareReport report = run_compare({{"original", &original}, {"reordered", &reordered}}, {&wrong},
                                     {.seed = 4, .runs = 1, .tolerances = {}});
  const Finding* equivalence = nullptr;
  for (size_t n = 1; report.bug(n); ++n)
    if (report.bug(n)->oracle == Oracle::Equivalence) equivalence = report.bug(n);
  ASSERT_NE(equivalence, nullptr);
  ASSERT_EQ(equivalence->graph_a, "reordered");
  TempDir dir;
  write_repro(dir.path.string(), report, *equivalence, {{"bad", worker_info("bad", {})}},
              options_for_tests());
  nlohmann::json c = script_case(dir.text("repro.py"));
  EXPECT_EQ(c.at("graphs").at(0).at("outputs"), nlohmann::json({"s", "o", "n"}));
  EXPECT_EQ(c.at("graphs").at(1).at("outputs"), nlohmann::json({"o", "s"}));
  EXPECT_EQ(c.at("runs").at(0).at("graph"), 0);
  EXPECT_EQ(c.at("runs").at(1).at("graph"), 1);
  // The original's o (0) against reordered's o (1), its s (1) against s (0); n is reordered's own.
  EXPECT_EQ(c.at("pairs"), nlohmann::json({{1, 0}, {0, 1}}));
  // Each graph's expected outputs in its own order: the original's o is exp(x), its s x + y.
  EXPECT_EQ(c.at("graphs").at(1).at("expected"),
            nlohmann::json({"expected_b/output_0.npy", "expected_b/output_1.npy"}));
  Tensor x = read_npy(dir.text("inputs/input_0.npy"));
  Tensor s = read_npy(dir.text("expected/output_0.npy"));
  EXPECT_EQ(read_npy(dir.text("expected_b/output_1.npy")).get(0), s.get(0));
  EXPECT_FLOAT_EQ(read_npy(dir.text("expected_b/output_0.npy")).get(0), std::exp(x.get(0)));
}

// An output a Cast up made of f16 values holds only f16 values, as compare asks: the script is
// told which narrower float (its check: tests/bugs/recall/ort_f16_product_cast_f32.rtg's bundle).
TEST(CompareRepro, AnOutputCastUpFromF16IsToldItsNarrowerFloat) {
  Graph g = parse_rtg(
      "graph g\ninput x : f16[2]\nm = mul(x, x)\nd = cast(m, to=f32)\ne = cast(x, to=f32)\n"
      "f = exp(e)\noutput d, f\n");
  infer_graph(g);
  WrongOpBackend wrong("bad", {{"exp", 1.0}});
  CompareReport report =
      run_compare({{"original", &g}}, {&wrong}, {.seed = 4, .runs = 1, .tolerances = {}});
  ASSERT_NE(report.bug(1), nullptr);
  TempDir dir;
  write_repro(dir.path.string(), report, *report.bug(1), {{"bad", worker_info("bad", {})}},
              options_for_tests());
  nlohmann::json tolerances = script_case(dir.text("repro.py")).at("graphs").at(0).at("tolerances");
  EXPECT_EQ(tolerances.at(0).value("held", ""), "f16");
  EXPECT_FALSE(tolerances.at(1).contains("held"));
}

// The issue of `findings report`: a title naming the compiler and the op the failing output
// comes from, a one-line summary, the second opinion, the model (its picture and text) before the
// standalone script, the small inputs inline, expected against actual, the command.
TEST(CompareRepro, IssueMarkdownHasWhatAMaintainerAsksFor) {
  CompareReport report = wrong_mul_report(kGraph, "ort:O3");
  TempDir dir;
  ReproBundle b =
      write_repro(dir.path.string(), report, *report.bug(1),
                  {{"ort:O3", worker_info("ort:O3", {{"opt_level", "all"}})}}, options_for_tests());
  IssueFacts facts{.script = dir.text("repro.py"),
                   .program = "def forward(x0):\n    return x0\n",
                   .picture = "graph.svg",
                   .retort_command = "retort -c 'findings report 3'",
                   .retort_version = "Retort 0.4.0",
                   .passes = "",
                   .opinion = "ort:O3 alone differs; ref, onnx-ref:default agree"};
  std::string md = repro_issue_markdown(report, *report.bug(1), b, facts);
  std::vector<std::string> lines;
  for (size_t at = 0; at < md.size();) {
    size_t end = md.find('\n', at);
    lines.push_back(md.substr(at, end - at));
    at = end + 1;
  }
  ASSERT_GT(lines.size(), 3u);
  EXPECT_EQ(lines[0], "# `onnxruntime " + default_version(*find_family("ort")) +
                          "`: Add gives a wrong result")
      << md;
  EXPECT_EQ(lines[1], "");
  EXPECT_EQ(lines[2],
            "`ort:O3` on a 2-node model gives output `y` (f32[2,3]) with 1 of 6 "
            "elements off from the reference.")
      << md;
  EXPECT_TRUE(has(md, "reference): `ort:O3 alone differs; ref, onnx-ref:default agree`")) << md;
  EXPECT_TRUE(has(md, "venv/bin/pip install -r requirements.txt")) << md;
  EXPECT_TRUE(has(md, "import onnxruntime as ort")) << md;
  EXPECT_TRUE(has(md, "- `x`: f32[2,3] = [")) << md;
  EXPECT_TRUE(has(md, "| `y` | f32[2,3] | f32[2,3] |")) << md;
  EXPECT_TRUE(has(md, "![the model, its failing output marked](graph.svg)")) << md;
  EXPECT_TRUE(has(md, "m = mul(x, x)")) << md;
  EXPECT_LT(md.find("m = mul(x, x)"), md.find("def forward(x0):")) << md;
  EXPECT_LT(md.find("def forward(x0):"), md.find("import onnxruntime as ort")) << md;
  EXPECT_TRUE(has(md, "    retort -c 'findings report 3'")) << md;
  EXPECT_EQ(failing_output_notes(*report.bug(1)),
            (std::map<std::string, std::string>{{"y", "mismatch: 1 of 6 elements"}}));
}

// The title names the failing op with the attributes it was given that are not ONNX's defaults
// (not the required kernel_shape, not storage_order=0), and the symptom of a wrong shape.
TEST(CompareRepro, IssueTitleNamesTheOpAndItsAttributes) {
  Graph g = parse_rtg(
      "graph p\ninput x : f32[1,1,8]\n"
      "y = max_pool(x, kernel_shape=[3], dilations=[2], auto_pad=\"SAME_LOWER\", "
      "storage_order=0)\noutput y\n");
  CompareReport report = wrong_mul_report(g, "ort:O0");
  ASSERT_NE(report.bug(1), nullptr);
  TempDir dir;
  ReproBundle b = write_repro(dir.path.string(), report, *report.bug(1),
                              {{"ort:O0", worker_info("ort:O0", {})}}, options_for_tests());
  std::string md = repro_issue_markdown(report, *report.bug(1), b, IssueFacts{});
  EXPECT_EQ(md.substr(0, md.find('\n')),
            "# `onnxruntime " + default_version(*find_family("ort")) +
                "`: MaxPool (auto_pad=SAME_LOWER, dilations=[2]) gives a wrong result")
      << md;
}

// requirements.txt pins what an old release needs in a fresh environment: ORT's wheels before
// 1.19.0 were built against numpy 1 (scripts/backends/locks/repro_pins.tsv); a release
// installed here pins every package of its environment at the version installed there.
TEST(CompareRepro, RequirementsPinTheReleasesEnvironment) {
  CompareReport report = wrong_mul_report(kGraph, "ort@1.16.3:O3");
  TempDir dir;
  ReproBundle old =
      write_repro(dir.path.string(), report, *report.bug(1),
                  {{"ort@1.16.3:O3", worker_info("ort@1.16.3:O3", {})}}, options_for_tests());
  EXPECT_EQ(old.requirements,
            (std::vector<std::string>{"onnxruntime==1.16.3", "numpy==1.26.4", "ml_dtypes==0.3.1"}));

  fs::path envs = dir.path / "envs";
  fs::path site = envs / "iree@3.1.0" / "lib" / "python3.11" / "site-packages";
  for (const char* d : {"iree_base_compiler-3.1.0.dist-info", "iree_base_runtime-3.1.0.dist-info",
                        "numpy-1.26.4.dist-info", "typing_extensions-4.9.0.dist-info", "iree"})
    fs::create_directories(site / d);
  { std::ofstream(envs / "iree@3.1.0" / ".retort-complete") << ""; }
  ::setenv("RETORT_ENVS_DIR", envs.c_str(), 1);
  CompareReport iree = wrong_mul_report(kGraph, "iree@3.1.0:O3");
  ReproBundle b =
      write_repro((dir.path / "b").string(), iree, *iree.bug(1),
                  {{"iree@3.1.0:O3", worker_info("iree@3.1.0:O3", {})}}, options_for_tests());
  ::unsetenv("RETORT_ENVS_DIR");
  EXPECT_EQ(b.requirements, (std::vector<std::string>{
                                "iree-base-compiler==3.1.0", "iree-base-runtime==3.1.0",
                                "numpy==1.26.4", "onnx", "ml_dtypes", "typing_extensions==4.9.0"}));
  EXPECT_EQ(b.compiler, "iree-base-compiler 3.1.0");
}

// The packages a bundle's Python files import, outside the standard library and the bundle's own
// modules, as requirement_package names them ("ml_dtypes" is ml-dtypes).
std::set<std::string> imported_packages(const fs::path& bundle) {
  CommandResult listed =
      run_command({"python3", "-c", "import sys; print(*sys.stdlib_module_names, sep='\\n')"}, {});
  EXPECT_EQ(listed.exit_status, 0) << listed.output;
  std::set<std::string> stdlib;
  std::istringstream names(listed.output);
  for (std::string name; std::getline(names, name);) stdlib.insert(name);
  static const std::regex kImport(R"(^\s*(?:import\s+(\w+)|from\s+(\w+)[.\w]*\s+import\s))");
  std::set<std::string> packages;
  for (const auto& entry : fs::recursive_directory_iterator(bundle)) {
    if (entry.path().extension() != ".py") continue;
    std::istringstream in(read_file(entry.path().string()));
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, kImport)) continue;
      std::string module = m[1].matched ? m[1].str() : m[2].str();
      if (stdlib.count(module) || fs::exists(bundle / (module + ".py")) ||
          fs::exists(bundle / module))
        continue;
      packages.insert(requirement_package(module));
    }
  }
  return packages;
}

// A bundle runs in a fresh environment years later only if requirements.txt pins every package
// its scripts import: numpy and ml_dtypes (bf16 values) beside the compiler's, by the release's
// date (ORT runs in node here: scripts/backends/locks/repro_pins.tsv).
TEST(CompareRepro, RequirementsPinEveryPackageTheBundleImports) {
  for (const char* backend : {"ort:O3", "ort@1.16.3:O3", "ort@1.21.0:O3"}) {
    CompareReport report = wrong_mul_report(kGraph, backend);
    TempDir dir;
    write_repro(dir.path.string(), report, *report.bug(1), {{backend, worker_info(backend, {})}},
                options_for_tests());
    std::string requirements = dir.text("requirements.txt");
    std::set<std::string> pinned;
    std::istringstream lines(requirements);
    for (std::string line; std::getline(lines, line);)
      if (line.find("==") != std::string::npos) pinned.insert(requirement_package(line));
    std::set<std::string> imported = imported_packages(dir.path);
    EXPECT_TRUE(imported.count("ml-dtypes")) << backend;
    for (const std::string& package : imported)
      EXPECT_TRUE(pinned.count(package)) << backend << ": " << package << " is not pinned in\n"
                                         << requirements;
  }
}

// An Inductor environment installed from an old release's date has no ml_dtypes (onnx brought it
// only from 1.18), though the bundle reads bf16 values with it: the table pins the one of the
// release's date, and the environment pins the rest.
TEST(CompareRepro, AnOldInductorsPinsHaveTheMlDtypesOfItsDate) {
  TempDir dir;
  fs::path envs = dir.path / "envs";
  fs::path site = envs / "inductor@2.1.0" / "lib" / "python3.11" / "site-packages";
  for (const char* d : {"torch-2.1.0.dist-info", "numpy-1.26.0.dist-info", "onnx-1.14.1.dist-info",
                        "setuptools-68.2.2.dist-info"})
    fs::create_directories(site / d);
  { std::ofstream(envs / "inductor@2.1.0" / ".retort-complete") << ""; }
  ::setenv("RETORT_ENVS_DIR", envs.c_str(), 1);
  std::map<std::string, std::string> pins = release_pins(*find_family("torch"), "2.1.0");
  ::unsetenv("RETORT_ENVS_DIR");
  EXPECT_EQ(pins["ml-dtypes"], "ml_dtypes==0.3.1");
  EXPECT_EQ(pins["numpy"], "numpy==1.26.0");
  for (const std::string& p : find_family("torch")->repro_requirements)
    EXPECT_TRUE(pins.count(requirement_package(p))) << p;
}

}  // namespace
}  // namespace retort
