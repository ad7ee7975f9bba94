// End to end: the fault worker miscompiles mul; compare, inspect and export repro find it, and
// the bundles' scripts reproduce findings without Retort.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
    if (n.op == "mul" && first_mul.empty()) first_mul = n.name;
  ASSERT_FALSE(first_mul.empty());
  text = run_ok("inspect original --backend bad");
  EXPECT_NE(text.find(fmt::format("of node '{}' (mul) in original on bad", first_mul)),
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
  EXPECT_NE(run_failing("export repro /tmp/x").find("run `compare` first"), std::string::npos);
}

// With zero tolerance, ONNX Runtime's float kernels differ from the reference (which rounds each
// op once from double) in the last bits: a genuine reference-oracle finding for the ORT script.
TEST_F(CompareCommands, OrtBundleReproducesOnOnnxRuntime) {
  for (const char* statement :
       {"input x : f32[64]", "e = exp(x)", "t = tanh(e)", "s = sigmoid(t)", "output s"})
    run_ok(fmt::format("def {}", statement));
  std::string text = run_ok("compare --backends ref,ort:O3 --atol 0 --rtol 0");
  ASSERT_NE(text.find("#1 [reference] ort:O3"), std::string::npos) << text;
  run_ok(fmt::format("export repro {}", dir.string()));
  std::string log;
  EXPECT_EQ(run_in_bundle("node repro.js", log), 1) << log;
  EXPECT_NE(log.find("reproduced: ort:O3 on original disagrees"), std::string::npos) << log;
}

// The same for TorchScript: torch's float32 kernels differ from the reference in the last bits, and
// the bundle's Python script (with the worker's files copied in) reproduces it.
TEST_F(CompareCommands, TorchBundleReproducesOnTorch) {
  for (const char* statement :
       {"input x : f32[64]", "e = exp(x)", "t = tanh(e)", "s = sigmoid(t)", "output s"})
    run_ok(fmt::format("def {}", statement));
  std::string text = run_ok("compare --backends ref,torch:eager --atol 0 --rtol 0");
  ASSERT_NE(text.find("#1 [reference] torch:eager"), std::string::npos) << text;
  run_ok(fmt::format("export repro {}", dir.string()));
  std::string log;
  EXPECT_EQ(run_in_bundle("/usr/bin/python3 repro.py", log), 1) << log;
  EXPECT_NE(log.find("reproduced: torch:eager on original disagrees"), std::string::npos) << log;
}

}  // namespace
}  // namespace retort
