// End to end: the fault worker miscompiles mul; compare, inspect and export repro find it, and
// the bundles' scripts reproduce findings without Retort.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/graph/graph_dot.h"
#include "core/io/file_io.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class CompareCommands : public testing::ShellTest {
 protected:
  fs::path dir = fs::temp_directory_path() / fmt::format("retort_compare_{}", ::getpid());

  void SetUp() override { fs::remove_all(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // The exit status of a shell command run in the bundle folder; its output goes to `log`.
  int run_in_bundle(const std::string& command, std::string& log) {
    fs::path log_file = dir / "run.log";
    std::string line =
        fmt::format("cd '{}' && {} > '{}' 2>&1", dir.string(), command, log_file.string());
    int status = std::system(line.c_str());
    std::FILE* f = std::fopen(log_file.c_str(), "r");
    char buf[4096];
    size_t n = f ? std::fread(buf, 1, sizeof buf, f) : 0;
    if (f) std::fclose(f);
    log.assign(buf, n);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  // Sets every output's ulps in a bundle script's CASE, as a person tuning the script would.
  void set_script_ulps(const std::string& script, int ulps) {
    fs::path file = dir / script;
    std::string text = std::regex_replace(read_file(file.string()), std::regex("\"ulps\": [0-9.]+"),
                                          fmt::format("\"ulps\": {}", ulps));
    write_file(file.string(), text, true);
  }
  // The Python with onnxruntime that runs the standalone ORT scripts (a virtual environment made
  // from their requirements.txt), or empty.
  static std::string ort_python() {
    const char* python = std::getenv("RETORT_REPRO_ORT_PYTHON");
    return python && *python ? python : "";
  }
  void attach_bad_mul() {
    run_ok(fmt::format(R"(backend attach bad --cmd "{} --fault perturb --perturb-op mul")",
                       RETORT_FAULT_WORKER));
  }
};

TEST_F(CompareCommands, CompareInspectAndReproFindAWrongMul) {
  run_ok("load " RETORT_SOURCE_DIR "/samples/polyjuice/fig7_uint8_mul_order.rtg");
  attach_bad_mul();
  std::string text = run_ok("compare --backends ref,bad");
  EXPECT_NE(text.find("bad      mismatch"), std::string::npos) << text;
  EXPECT_NE(text.find("#1 [reference] bad on original vs ref (seed 1): mismatch"),
            std::string::npos)
      << text;
  ASSERT_NE(session.compare_report(), nullptr);
  EXPECT_EQ(session.compare_report()->bug_count(), 1u);

  // inspect names the first mul node of the graph.
  const Graph& g = session.graph();
  std::string first_mul;
  for (const Node& n : g.nodes)
    if (n.op == "mul" && first_mul.empty()) first_mul = node_title(n);
  ASSERT_FALSE(first_mul.empty());
  text = run_ok("inspect original --backend bad");
  EXPECT_NE(text.find(fmt::format("node '{}' (mul) in original on bad", first_mul)),
            std::string::npos)
      << text;

  // The bundle's script reproduces it: exit status 1.
  text = run_ok(fmt::format("export repro {}", dir.string()));
  EXPECT_NE(text.find("wrote "), std::string::npos);
  std::string log;
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 1) << log;
  EXPECT_NE(log.find("reproduced: bad on original disagrees with the reference"), std::string::npos)
      << log;
  EXPECT_NE(run_failing(fmt::format("export repro {}", dir.string())).find("not empty"),
            std::string::npos);
  run_ok(fmt::format("export repro {} --force", dir.string()));
}

// An extracted variant's new nodes are named n0, n1... inside, their values v0, v1...; the graph
// pane's boxes, `show` and the pair's node line show only the values, and so does the first
// divergence (it said "value 'v0' of node 'n0' (mul)", a name shown nowhere else).
TEST_F(CompareCommands, InspectOnAPairNamesTheWrongNodeAsTheGraphPaneDoes) {
  for (const char* line :
       {"def input a : f32[2,3]", "def input s : f32[2,3]", "def m = mul(a, s)", "def c = neg(m)",
        "def output c", "egraph", "apply mul-comm 1", "extract random as swapped --seed 2"})
    run_ok(line);
  const Graph& swapped = session.variant("swapped");
  const Node* mul = nullptr;
  for (const Node& n : swapped.nodes)
    if (n.op == "mul") mul = &n;
  ASSERT_NE(mul, nullptr);
  ASSERT_NE(mul->name, node_title(*mul)) << "the swapped mul kept its name; nothing to tell apart";
  attach_bad_mul();
  std::string text = run_ok("inspect swapped --backend bad");
  EXPECT_NE(text.find(fmt::format("the pair's node: '{}' mul(s, a) in swapped", node_title(*mul))),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format("first divergence after 0 agreeing values: node '{}' (mul) in "
                                  "swapped on bad",
                                  node_title(*mul))),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(fmt::format("'{}'", mul->name)), std::string::npos) << text;
}

TEST_F(CompareCommands, EquivalenceOracleAcrossVariantsAndJson) {
  run_ok("load " RETORT_SOURCE_DIR "/samples/polyjuice/fig6.rtg");
  run_ok("egraph");
  run_ok("saturate --iters 3");
  run_ok("extract min");
  run_ok("extract max");
  attach_bad_mul();
  std::string text = run_ok("compare --backends ref,bad --json");
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["graphs"], (std::vector<std::string>{"original", "max", "min"}));
  EXPECT_EQ(j["checks"]["equivalence"], 4);
  EXPECT_EQ(j["bugs"], 0);  // fig6 has no mul
  text = run_ok("inspect original min");
  EXPECT_NE(text.find("mapping: e-graph classes"), std::string::npos) << text;
  EXPECT_NE(text.find("no divergence"), std::string::npos) << text;
}

// One wrong mul kernel seen on three graphs over five seeds prints as one line with a count.
TEST_F(CompareCommands, CompareGroupsOneFailureAcrossSeedsAndVariants) {
  run_ok("load " RETORT_SOURCE_DIR "/samples/polyjuice/fig4.rtg");
  run_ok("egraph");
  run_ok("saturate --iters 2");
  run_ok("extract min");
  run_ok("extract max");
  attach_bad_mul();
  std::string text = run_ok("compare --backends ref,bad --runs 5");
  size_t lines = 0, numbered = 0;
  for (size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
    ++lines;
    numbered += text[at] == '#';
  }
  EXPECT_EQ(numbered, 1u) << text;
  EXPECT_LT(lines, 12u) << text;
  EXPECT_NE(text.find("more like it (bad reference mismatch at mul (f32)): graphs original, max, "
                      "min; seeds 1-5"),
            std::string::npos)
      << text;
  size_t bugs = session.compare_report()->bug_count();
  EXPECT_GE(bugs, 15u);
  EXPECT_NE(text.find(fmt::format("{} findings (1 distinct", bugs)), std::string::npos) << text;
  // --all lists each; --json has every finding and the groups.
  text = run_ok("compare --backends ref,bad --runs 5 --all");
  EXPECT_NE(text.find(fmt::format("#{} ", bugs)), std::string::npos) << text;
  auto j = nlohmann::json::parse(run_ok("compare --backends ref,bad --runs 5 --json"));
  EXPECT_EQ(j["findings"].size(), bugs);
  ASSERT_EQ(j["groups"].size(), 1u);
  EXPECT_EQ(j["groups"][0]["count"], bugs);
  EXPECT_EQ(j["groups"][0]["signature"], "bad|reference|mismatch|mul|f32|");
}

TEST_F(CompareCommands, ToleranceCommand) {
  EXPECT_NE(run_ok("tolerance").find("f32 atol=0.001 rtol=0.001"), std::string::npos);
  EXPECT_NE(run_ok("tolerance f32 0.5 0.25").find("f32 atol=0.5 rtol=0.25"), std::string::npos);
  EXPECT_EQ(session.tolerances().of(DType::f32).atol, 0.5);
  EXPECT_NE(run_failing("tolerance i32 1 1").find("exactly"), std::string::npos);
  EXPECT_NE(run_ok("tolerance f16 0 0 2").find("f16 atol=0 rtol=0 ulps=2"), std::string::npos);
  EXPECT_NE(run_failing("tolerance f16 0 0 x").find("ULPS must be a number"), std::string::npos);
  EXPECT_NE(run_failing("export repro /tmp/x").find("run `compare` first"), std::string::npos);
}

// With zero tolerance, ONNX Runtime's float kernels differ from the reference (which rounds each
// op once from double) in the last bits: a genuine reference-oracle finding. The bundle's
// standalone script uses onnxruntime's Python API; --full adds the replay through Retort's ORT
// worker, which reproduces it here.
TEST_F(CompareCommands, OrtBundleReproducesOnOnnxRuntime) {
  for (const char* statement :
       {"input x : f32[64]", "e = exp(x)", "t = tanh(e)", "s = sigmoid(t)", "output s"})
    run_ok(fmt::format("def {}", statement));
  // exp, tanh and sigmoid a few ulps off lie in the precision band (approximated functions):
  // --count-precision counts them, as a user hunting last-bit differences asks.
  std::string text = run_ok("compare --backends ref,ort:O3 --atol 0 --rtol 0 --count-precision");
  ASSERT_NE(text.find("#1 [reference] ort:O3"), std::string::npos) << text;
  text = run_ok(fmt::format("export repro {} --full", dir.string()));
  EXPECT_NE(text.find("venv/bin/pip install -r requirements.txt"), std::string::npos) << text;
  EXPECT_NE(read_file((dir / "requirements.txt").string()).find("onnxruntime=="),
            std::string::npos);
  std::string log;
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 replay/replay.py", log), 1) << log;
  EXPECT_NE(log.find("reproduced: ort:O3 on original disagrees"), std::string::npos) << log;
  // The last-bit differences are a few f32 ulps: within 64 ulps the two agree, in Retort and in
  // the bundle's script.
  text = run_ok("compare --backends ref,ort:O3 --atol 0 --rtol 0 --ulps 64 --count-precision");
  EXPECT_NE(text.find("0 findings"), std::string::npos) << text;
  set_script_ulps("replay/replay.py", 64);
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 replay/replay.py", log), 0) << log;
  EXPECT_NE(log.find("not reproduced"), std::string::npos) << log;
  // Without onnxruntime the standalone script says it cannot run: 2, never the 1 of "reproduced".
  if (ort_python().empty()) {
    EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 2) << log;
    EXPECT_NE(log.find("could not run the reproducer"), std::string::npos) << log;
    GTEST_SKIP() << "set RETORT_REPRO_ORT_PYTHON to a Python with the requirements.txt of an ORT "
                    "bundle to run its standalone script";
  }
  EXPECT_EQ(run_in_bundle(ort_python() + " repro.py", log), 1) << log;
  EXPECT_NE(log.find("reproduced: ort:O3 on original disagrees"), std::string::npos) << log;
  set_script_ulps("repro.py", 64);
  EXPECT_EQ(run_in_bundle(ort_python() + " repro.py", log), 0) << log;
}

// The same for torch: its float32 kernels differ from the reference in the last bits, and the
// bundle's standalone script (torch's API on the generated program, model_a.py) reproduces it on
// Debian's torch. Needs the torch family's worker and its default release (scripts/setup.sh
// installs it).
TEST_F(CompareCommands, TorchBundleReproducesOnTorch) {
  const FamilyDef& torch = *find_family("torch");
  if (!std::filesystem::exists(scripts_dir() + "/backends/" + torch.worker))
    GTEST_SKIP() << "no " << torch.worker;
  if (!is_installed(torch, "")) GTEST_SKIP() << "torch's default release is not installed";
  for (const char* statement :
       {"input x : f32[64]", "e = exp(x)", "t = tanh(e)", "s = sigmoid(t)", "output s"})
    run_ok(fmt::format("def {}", statement));
  std::string text =
      run_ok("compare --backends ref,torch:eager --atol 0 --rtol 0 --count-precision");
  ASSERT_NE(text.find("#1 [reference] torch:eager"), std::string::npos) << text;
  run_ok(fmt::format("export repro {} --full", dir.string()));
  EXPECT_TRUE(fs::exists(dir / "model_a.py"));
  EXPECT_FALSE(fs::exists(dir / "retort_backends"));
  std::string log;
  // The replay sends the worker the ONNX model, the standalone script runs the program.
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 replay/replay.py", log), 1) << log;
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 1) << log;
  EXPECT_NE(log.find("reproduced: torch:eager on original disagrees"), std::string::npos) << log;
  set_script_ulps("repro.py", 64);
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 0) << log;
  EXPECT_NE(log.find("not reproduced"), std::string::npos) << log;
}

// A larger graph's program is written whole into model_a.py (it was once cut at 2000 bytes,
// and repro.py failed with a SyntaxError, exit 2): the script runs and gives a verdict.
TEST_F(CompareCommands, ASixtyNodeTorchBundleRuns) {
  const FamilyDef& torch = *find_family("torch");
  if (!std::filesystem::exists(scripts_dir() + "/backends/" + torch.worker))
    GTEST_SKIP() << "no " << torch.worker;
  if (!is_installed(torch, "")) GTEST_SKIP() << "torch's default release is not installed";
  run_ok("gen --nodes 60 --dtypes f32 --seed 7");
  run_ok("tolerance f32 0 0");
  std::string text = run_ok("compare --backends ref,torch:eager --count-precision");
  ASSERT_NE(text.find("#1 [reference] torch:eager"), std::string::npos) << text;
  run_ok(fmt::format("export repro {}", dir.string()));
  std::string program = read_file((dir / "model_a.py").string());
  EXPECT_GT(program.size(), 2000u);
  EXPECT_EQ(program.find("bytes left out"), std::string::npos) << program;
  std::string log;
  // The release's own Python has what requirements.txt names.
  int status = run_in_bundle(environment_dir(torch, "") + "/bin/python repro.py", log);
  EXPECT_TRUE(status == 0 || status == 1) << status << "\n" << log;
}

// ONNX Runtime computes f16 Exp and Sin in f32 (no f16 kernels), and its Cast of the result to f64
// reads the f32 value: values no f16 holds, where the Cast's input is f16. The precision band
// never crosses an explicit cast up, so that is a mismatch (live on 1.30.0: the class of
// #8787/#9915, tests/bugs/recall), even where precision is not counted apart.
TEST_F(CompareCommands, OrtFloat16CastUpWithoutItsRoundingIsAMismatch) {
  for (const char* statement :
       {"input x : f16[64]", "e = exp(x)", "s = sin(e)", "y = cast(s, to=f64)", "output y"})
    run_ok(fmt::format("def {}", statement));
  std::string text = run_ok("compare --backends ref,ort:O3");
  EXPECT_NE(text.find("ort:O3   mismatch"), std::string::npos) << text;
  EXPECT_NE(text.find("reference: 2 checks, 1 failed\n"), std::string::npos) << text;
  EXPECT_EQ(session.compare_report()->bug_count(), 1u);
}

// A worker attached with a relative command is found later from anywhere: attach resolves it, so
// the bundle's script (run from the bundle's folder) starts the same program; a script that cannot
// run at all exits 2, never the 1 of "reproduced".
TEST_F(CompareCommands, RelativeWorkerCommandsAreResolvedAtAttach) {
  fs::create_directories(dir / "bin");
  fs::copy_file(RETORT_FAULT_WORKER, dir / "bin" / "worker");
  fs::path cwd = fs::current_path();
  fs::current_path(dir);
  run_ok("backend attach bad --cmd \"./bin/worker --fault perturb --perturb-op mul\"");
  fs::current_path(cwd);
  run_ok("load " RETORT_SOURCE_DIR "/samples/polyjuice/fig7_uint8_mul_order.rtg");
  run_ok("compare --backends ref,bad");
  fs::path parent = dir;
  dir = parent / "bundle";
  run_ok(fmt::format("export repro {}", dir.string()));
  std::string log;
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 1) << log;
  fs::remove(parent / "bin" / "worker");
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 2) << log;
  EXPECT_NE(log.find("could not run the reproducer"), std::string::npos) << log;
  dir = parent;
}

// A model's names are data: JSON graphs whose node and value names hold Python or JavaScript
// code run on every worker and through every bundle kind without any of it executing. Each
// payload gets a graph of its own, so that one payload's syntax error cannot hide another's.
TEST_F(CompareCommands, HostileNamesNeverRunAsCode) {
  fs::create_directories(dir);
  fs::path marker = dir / "pwned";
  std::string py = fmt::format("__import__('os').system('touch {}')", marker.string());
  std::string js = fmt::format("require('fs').writeFileSync('{}', '')", marker.string());
  // forward()'s body in the generated torch program is indented by 8 spaces: the first payload
  // is valid Python there if it escapes its comment.
  // Names with line breaks never get this far: infer_graph refuses every name a terminal would
  // act on (core/graph/graph.cpp), as the first three payloads show; the last is a quoting
  // attack that stays on one line.
  std::vector<std::string> payloads = {fmt::format("z\n        {}\n        #", py),
                                       fmt::format("z\r{}\r#", py), fmt::format("'''\n{}\n'''", py),
                                       fmt::format("`${{{}}}`; {}", js, js)};
  attach_bad_mul();
  for (size_t p = 0; p < payloads.size(); ++p) {
    SCOPED_TRACE(payloads[p]);
    const std::string& name = payloads[p];
    nlohmann::json g = {{"format", "retort-graph"}, {"version", 1}, {"name", name}};
    g["inputs"] = {{{"name", name + "x"}, {"dtype", "f32"}, {"shape", {64}}}};
    g["nodes"] = nlohmann::json::array();
    std::string prev = name + "x";
    for (std::string op : {"exp", "tanh", "sigmoid", "mul"}) {
      nlohmann::json inputs = {prev};
      if (op == "mul") inputs.push_back(prev);
      g["nodes"].push_back(
          {{"name", name + op}, {"op", op}, {"inputs", inputs}, {"outputs", {name + op + "out"}}});
      prev = name + op + "out";
    }
    g["outputs"] = {prev};
    fs::path graph_file = dir / fmt::format("hostile_{}.json", p);
    {
      std::string text = g.dump();
      std::FILE* f = std::fopen(graph_file.c_str(), "w");
      ASSERT_NE(f, nullptr);
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
    if (name.find_first_of("\r\n") != std::string::npos) {
      std::string error = run_failing(fmt::format("load {}", graph_file.string()));
      EXPECT_NE(error.find("holds characters a terminal would act on"), std::string::npos) << error;
      continue;
    }
    run_ok(fmt::format("load {}", graph_file.string()));
    std::string text = run_ok(
        "compare --backends ref,torch:eager,torch:script,ort:O3,bad --atol 0 --rtol 0 "
        "--count-precision");
    EXPECT_FALSE(fs::exists(marker)) << "a name ran as code in a worker";
    const CompareReport* report = session.compare_report();
    ASSERT_NE(report, nullptr);
    // One bundle per kind: a torch bundle and an attached worker's (Retort's replay as
    // repro.py), an ONNX Runtime bundle (the standalone script, and its replay with --full);
    // each reproduces, running no name.
    for (std::string backend : {"torch:eager", "ort:O3", "bad"}) {
      size_t n = 0;
      for (size_t k = 1; k <= report->bug_count() && n == 0; ++k)
        if (report->bug(k)->backend_a == backend && report->bug(k)->oracle == Oracle::Reference)
          n = k;
      ASSERT_NE(n, 0u) << backend << " has no reference finding:\n" << text;
      fs::path parent = dir;
      dir = parent / fmt::format("bundle_{}_{}", p, n);
      run_ok(fmt::format("export repro {} --finding {} --full", dir.string(), n));
      std::string log;
      int status = run_in_bundle(
          backend == "ort:O3" ? "/usr/bin/python3 replay/replay.py" : "/usr/bin/python3 repro.py",
          log);
      if (backend == "ort:O3" && !ort_python().empty()) {
        EXPECT_EQ(run_in_bundle(ort_python() + " repro.py", log), 1) << log;
        EXPECT_FALSE(fs::exists(marker)) << "a name ran as code in the standalone ORT script";
      }
      dir = parent;
      EXPECT_EQ(status, 1) << backend << ": " << log;
      EXPECT_FALSE(fs::exists(marker)) << "a name ran as code in the " << backend << " bundle";
    }
  }
}

}  // namespace
}  // namespace retort
