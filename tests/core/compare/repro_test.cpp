#include "core/compare/repro.h"

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/backend/ref_backend.h"
#include "core/base/error.h"
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
};

TEST(CompareRepro, WritesTheBundleOfAReferenceFinding) {
  Graph g = parse_rtg("graph g\ninput x : f32[2,3]\nm = mul(x, x)\ny = add(m, x)\noutput y\n");
  WrongBackend wrong("bad", {"y"});
  CompareReport report =
      run_compare({{"original", &g}}, {&wrong}, {.seed = 4, .runs = 1, .tolerances = {}});
  ASSERT_NE(report.bug(1), nullptr);
  ReproOptions options;
  options.backends["bad"] = {.kind = ReproBackend::Kind::worker,
                             .version = "test",
                             .ort_level = {},
                             .node_modules = {},
                             .argv = {"/bin/worker", "--flag"},
                             .options = {{"k", "v"}},
                             .copy_files = {}};
  TempDir dir;
  ReproBundle b = write_repro(dir.path.string(), report, *report.bug(1), options);
  EXPECT_EQ(b.run, "/usr/bin/python3 repro.py");
  for (const char* f : {"inputs/input_0.npy", "expected/output_0.npy", "model_a.onnx",
                        "graph_a.rtg", "repro.json", "repro.py", "README.md"})
    EXPECT_TRUE(fs::exists(dir.path / f)) << f;
  EXPECT_FALSE(fs::exists(dir.path / "model_b.onnx"));
  Tensor expected = read_npy(read_file((dir.path / "expected/output_0.npy").string()));
  EXPECT_EQ(expected.type().str(), "f32[2,3]");
  auto cfg = nlohmann::json::parse(read_file((dir.path / "repro.json").string()));
  EXPECT_EQ(cfg["oracle"], "reference");
  EXPECT_EQ(cfg["a"]["backend"]["argv"][1], "--flag");
  EXPECT_EQ(cfg["b"]["expected"][0], "expected/output_0.npy");
  EXPECT_EQ(cfg["inputs"][0]["name"], "x");
  EXPECT_NE(read_file((dir.path / "README.md").string()).find("reference oracle"),
            std::string::npos);

  // A second export refuses the non-empty folder unless forced.
  EXPECT_THROW(write_repro(dir.path.string(), report, *report.bug(1), options), Error);
  options.force = true;
  EXPECT_NO_THROW(write_repro(dir.path.string(), report, *report.bug(1), options));
  options.backends.clear();
  EXPECT_THROW(write_repro(dir.path.string(), report, *report.bug(1), options), Error);
}

TEST(CompareRepro, NeverWritesThroughALinkOutOfTheBundle) {
  Graph g = parse_rtg("graph g\ninput x : f32[2,3]\ny = mul(x, x)\noutput y\n");
  WrongBackend wrong("bad", {"y"});
  CompareReport report =
      run_compare({{"original", &g}}, {&wrong}, {.seed = 4, .runs = 1, .tolerances = {}});
  ASSERT_NE(report.bug(1), nullptr);
  ReproOptions options;
  options.backends["bad"] = {.kind = ReproBackend::Kind::worker,
                             .version = "test",
                             .ort_level = {},
                             .node_modules = {},
                             .argv = {"/bin/worker"},
                             .options = {},
                             .copy_files = {}};
  options.force = true;
  TempDir dir;
  fs::create_directories(dir.path / "bundle");
  fs::create_directories(dir.path / "elsewhere");
  fs::create_directory_symlink(dir.path / "elsewhere", dir.path / "bundle" / "inputs");
  EXPECT_THROW(write_repro((dir.path / "bundle").string(), report, *report.bug(1), options), Error);
  EXPECT_TRUE(fs::is_empty(dir.path / "elsewhere"));
}

}  // namespace
}  // namespace retort
