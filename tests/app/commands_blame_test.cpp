// End to end on the real ONNX Runtime (onnxruntime-node of scripts/backends): docs/bugs.md's
// reduced graphs recorded as a campaign records its findings, then `findings blame`, `list`,
// `show` and `report` through the command shell. Row 15 (MatMul of a Transpose and a 1-D input)
// must be MatmulTransposeFusion's, row 2 (two Splits of one input merged) common subexpression
// elimination's, row 6 (Not -> Where) NotWhereFusion's, and row 1 (MaxPool SAME with dilation,
// wrong at every level) no pass's.
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/campaign/campaign_options.h"
#include "core/findings/findings_db.h"
#include "core/io/file_io.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class BlameCommands : public testing::ShellTest {
 protected:
  fs::path dir = fs::temp_directory_path() / fmt::format("retort_blame_{}", ::getpid());
  std::string db_path = (dir / "f.db").string();

  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  // Records the sample's failure on `backend` against the reference as finding number `index`
  // of one campaign (a signature of its own per op and verdict).
  void record(uint64_t index, const std::string& sample, const std::string& op,
              const std::string& verdict, const std::string& backend = "ort:O3") {
    record_file(index, RETORT_SOURCE_DIR "/samples/bugs/" + sample + ".rtg", op, verdict, backend);
  }
  void record_file(uint64_t index, const std::string& file, const std::string& op,
                   const std::string& verdict, const std::string& backend) {
    FindingsDb db = FindingsDb::open(db_path);
    int64_t c = db.last_campaign()
                    ? db.last_campaign()->id
                    : db.add_campaign(
                          {0, utc_now(), CampaignOptions{}.to_json().dump(), "0", "{}", 1, 0, 1});
    FindingRecord f;
    f.signature = {"ort", "reference", verdict, op, "f32", "", ""};
    f.backend_a = backend;
    f.graph_a = f.graph_b = "original";
    f.backend_b = "ref";
    f.backends = "ref," + backend;
    f.original = read_file(file);
    f.variants = "{}";
    f.inputs_seed = 1;
    f.first_seen = f.last_seen = utc_now();
    f.campaign = c;
    f.case_index = index;
    db.record_case({c, index, index, 2, 1, 0, 0, 0, 0, 1, ""}, {f});
  }
  std::string blame(int n) { return run_ok(fmt::format("findings blame {} --db {}", n, db_path)); }
};

TEST_F(BlameCommands, TransposeMatmulIsMatmulTransposeFusion) {
  record(0, "ort_transpose_matmul_1d", "matmul", "mismatch");
  std::string text = blame(1);
  EXPECT_NE(text.find("finding #1: pass MatmulTransposeFusion (turning it off on ort:O3 removes "
                      "the difference;"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("59 of 59 passes of ort:O3 off: the difference goes"), std::string::npos)
      << text;
  // Level 2 runs the fusion too; the finding has a signature of its own.
  record(1, "ort_transpose_matmul_1d", "transpose", "mismatch", "ort:O2");
  text = blame(2);
  EXPECT_NE(text.find("finding #2: pass MatmulTransposeFusion (turning it off on ort:O2"),
            std::string::npos)
      << text;

  text = run_ok(fmt::format("findings list --db {}", db_path));
  EXPECT_NE(text.find("pass MatmulTransposeFusion (turning it off on ort:O3"), std::string::npos)
      << text;
  EXPECT_NE(text.find("the same pass as #1: one root candidate"), std::string::npos) << text;
  EXPECT_NE(text.find("1 after merging"), std::string::npos) << text;
  text = run_ok(fmt::format("findings show 1 --db {}", db_path));
  EXPECT_NE(text.find("pass: MatmulTransposeFusion"), std::string::npos) << text;

  // The report uses the stored blame (no search: no "passes of ort:O3 off" lines).
  std::string bundle = (dir / "rep").string();
  text = run_ok(fmt::format("findings report 1 {} --db {}", bundle, db_path));
  EXPECT_EQ(text.find("passes of ort:O3 off"), std::string::npos) << text;
  std::string issue = read_file(bundle + "/issue.md");
  EXPECT_NE(issue.find("- Passes: MatmulTransposeFusion (turning it off on ort:O3 removes the "
                       "difference;"),
            std::string::npos)
      << issue;
  EXPECT_NE(issue.find("optimization.disable_specified_optimizers"), std::string::npos) << issue;
}

TEST_F(BlameCommands, SplitMergeAndNotWhereNameTheirPasses) {
  record(0, "ort_split_merge", "concat", "shape/dtype mismatch");
  record(1, "ort_not_where", "where", "error");
  EXPECT_NE(blame(1).find("finding #1: pass CommonSubexpressionElimination (turning it off"),
            std::string::npos);
  EXPECT_NE(blame(2).find("finding #2: pass NotWhereFusion (turning it off"), std::string::npos);
}

// A kernel's bug stays with every pass off: one compare, and the report says so without a search.
TEST_F(BlameCommands, AKernelBugNamesNoPass) {
  record(0, "ort_maxpool_same_dilation", "max_pool", "shape/dtype mismatch");
  std::string bundle = (dir / "rep").string();
  std::string text = run_ok(fmt::format("findings report 1 {} --db {}", bundle, db_path));
  EXPECT_NE(text.find("59 of 59 passes of ort:O3 off: the difference stays"), std::string::npos)
      << text;
  EXPECT_NE(read_file(bundle + "/issue.md")
                .find("- Passes: none (the difference stays with every switchable pass of ort:O3 "
                      "off; 1 run)"),
            std::string::npos);
  text = run_ok(fmt::format("findings list --db {}", db_path));
  EXPECT_NE(text.find("pass none (the difference stays"), std::string::npos) << text;
}

// An attached worker (here one that miscomputes mul) has no switches a family declares.
TEST_F(BlameCommands, AnAttachedBackendHasNoPassToName) {
  run_ok(fmt::format(R"(backend attach bad --cmd "{} --fault perturb --perturb-op mul")",
                     RETORT_FAULT_WORKER));
  record_file(0, RETORT_SOURCE_DIR "/samples/polyjuice/fig7_uint8_mul_order.rtg", "mul", "mismatch",
              "bad");
  std::string error = run_failing(fmt::format("findings blame 1 --db {}", db_path));
  EXPECT_NE(error.find("bad belongs to no family that declares pass switches"), std::string::npos)
      << error;
  FindingsDb db = FindingsDb::open(db_path, false);
  EXPECT_TRUE(db.blames().empty());
}

}  // namespace
}  // namespace retort
