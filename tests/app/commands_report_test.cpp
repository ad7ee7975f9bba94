// `findings report N` end to end on the real ONNX Runtime (onnxruntime-node of scripts/backends):
// ORT's MaxPool bug (docs/bugs.md row 1) recorded in a ten-node graph as a campaign records it,
// with the review's reduced graph (the MaxPool and an exp the reducer kept beside it) and its
// second opinion stored (issue 42). The issue is that of the MaxPool alone, titled with its
// attributes; in the workbench the log gets one line saying where the issue is.
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

// The graph a campaign found it in: the MaxPool beside and after other ops and outputs.
constexpr const char* kFound =
    "graph found\n"
    "input x : f32[1,1,8]\n"
    "input w : f32[2,3]\n"
    "a = neg(w)\n"
    "b = exp(a)\n"
    "c = abs(x)\n"
    "y = max_pool(c, kernel_shape=[3], dilations=[2], auto_pad=\"SAME_UPPER\")\n"
    "z = relu(y)\n"
    "output b, z\n";

// What the review reduced it to: the MaxPool, and an exp the reducer kept beside it.
constexpr const char* kReduced =
    "graph reduced\n"
    "input x : f32[1,1,8]\n"
    "input w : f32[2,3]\n"
    "b = exp(w)\n"
    "y = max_pool(x, kernel_shape=[3], dilations=[2], auto_pad=\"SAME_UPPER\")\n"
    "output b, y\n";

// A wrong-shape finding of ort:O0 against the reference at `op`, of campaign c, as a campaign
// records it for the graph `original`.
FindingRecord wrong_shape_on_ort(int64_t c, const char* op, const char* dtype,
                                 const char* original) {
  FindingRecord f;
  f.signature = {"ort", "reference", "shape/dtype mismatch", op, dtype, "", ""};
  f.backend_a = "ort:O0";
  f.graph_a = f.graph_b = "original";
  f.backend_b = "ref";
  f.backends = "ref,ort:O0";
  f.original = original;
  f.variants = "{}";
  f.inputs_seed = 1;
  f.first_seen = f.last_seen = utc_now();
  f.campaign = c;
  return f;
}

// What the workbench keeps of the commands' output: its log pane's lines.
class PaneLog : public OutputLog {
 public:
  std::vector<std::string> output_lines() const override { return {}; }
  void clear() override {}
};

class ReportCommands : public testing::ShellTest {
 protected:
  fs::path dir = fs::temp_directory_path() / fmt::format("retort_report_{}", ::getpid());
  std::string db_path = (dir / "found.db").string();

  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    FindingsDb db = FindingsDb::open(db_path);
    int64_t c =
        db.add_campaign({0, utc_now(), CampaignOptions{}.to_json().dump(), "0", "{}", 1, 0, 1});
    FindingRecord f = wrong_shape_on_ort(c, "max_pool", "f32", kFound);
    db.record_case({c, 0, 0, 2, 1, 0, 0, 0, 0, 1, ""}, {f});
    db.set_review(f.signature.key(),
                  {.agreement = R"({"agree":["ref","onnx-ref:default","tvm:O3"],)"
                                R"("differ":["ort:O0"],"silent":[],"disputed":false})",
                   .disputed = false,
                   .reduced = kReduced,
                   .reduced_b = "",
                   .root = "ort: max_pool",
                   .merged_into = 0});
  }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(ReportCommands, TheIssueIsThatOfTheFailingOpOnItsReducedGraph) {
  std::string bundle = (dir / "rep").string();
  std::string text = run_ok(fmt::format("findings report 1 {} --db {}", bundle, db_path));
  EXPECT_NE(text.find("the issue shows 1 of 5 nodes: the review's reduced graph, cut to the "
                      "failing outputs"),
            std::string::npos)
      << text;
  std::string issue = read_file(bundle + "/issue.md");
  EXPECT_EQ(issue.substr(0, issue.find('\n')).substr(issue.find(':')),
            ": MaxPool (auto_pad=SAME_UPPER, dilations=[2]) gives an output of the wrong shape")
      << issue;
  EXPECT_NE(issue.find("\n\n`ort:O0` on a 1-node model gives output `y` as f32[1,1,6] where the "
                       "reference gives f32[1,1,8].\n"),
            std::string::npos)
      << issue;
  EXPECT_NE(issue.find("`ort:O0 differs from ref, onnx-ref:default and tvm:O3, which agree`"),
            std::string::npos)
      << issue;
  EXPECT_EQ(issue.find("exp("), std::string::npos) << issue;
  EXPECT_EQ(issue.find("relu("), std::string::npos) << issue;
  EXPECT_LT(issue.find("## The model"), issue.find("<details><summary>repro.py")) << issue;
  EXPECT_NE(issue.find("retort -c 'findings report 1 --db found.db'"), std::string::npos) << issue;
  EXPECT_EQ(issue.find(dir.string()), std::string::npos) << issue;
  std::string picture = read_file(bundle + "/graph.svg");
  EXPECT_NE(picture.find("wrong shape: f32[1,1,6], not f32[1,1,8]"), std::string::npos);
  EXPECT_NE(read_file(bundle + "/model_a.onnx").find("MaxPool"), std::string::npos);
  EXPECT_EQ(read_file(bundle + "/model_a.onnx").find("Exp"), std::string::npos);

  // The workbench: the issue goes to its file, the log says where in one line.
  PaneLog pane;
  StringOutput logged(&pane);
  Shell workbench{session, app_commands(), logged, err};
  ASSERT_EQ(workbench.run(fmt::format("findings report 1 {} --force --db {}", bundle, db_path)),
            LineStatus::Ok)
      << err.text();
  EXPECT_EQ(logged.text().find("## Expected and actual"), std::string::npos) << logged.text();
  EXPECT_NE(logged.text().find(fmt::format("wrote {}/issue.md, an issue ready to file", bundle)),
            std::string::npos)
      << logged.text();
}

// A failing output that only constants feed (ONNX Runtime's reduction of an empty constant over
// a negative axis, docs/bugs.md row 34): the cut to it keeps the first input, unread, where it
// used to fail with "no inputs left"; the unrelated z goes.
TEST_F(ReportCommands, AFailingOutputOfConstantsIsCutKeepingAnInputUnread) {
  FindingsDb db = FindingsDb::open(db_path);
  FindingRecord f = wrong_shape_on_ort(1, "reduce_min", "i32",
                                       "graph consts\ninput x : f32[2]\nconst e : i32[0,4] = []\n"
                                       "y = reduce_min(e, axes=[1,-2])\nz = neg(x)\noutput y, z\n");
  db.record_case({1, 1, 0, 2, 1, 0, 0, 0, 0, 1, ""}, {f});
  std::string bundle = (dir / "consts").string();
  std::string text = run_ok(fmt::format("findings report 2 {} --db {}", bundle, db_path));
  EXPECT_NE(text.find("the issue shows 1 of 2 nodes"), std::string::npos) << text;
  std::string issue = read_file(bundle + "/issue.md");
  EXPECT_NE(issue.find("ReduceMin"), std::string::npos) << issue;
  EXPECT_NE(issue.find("input x : f32[2]"), std::string::npos) << issue;
  EXPECT_EQ(issue.find("neg(x)"), std::string::npos) << issue;
}

// A run that does not finish fails at the node its message names (ONNX Runtime: "running
// MaxPool node. Name:'y'"): the issue is titled with that node and cut to the outputs computed
// from it. A finding labelled with a known bug (docs/bugs.md row 35: pooling refuses a zero-size
// dim other than N) says so, in the issue and in the log.
TEST_F(ReportCommands, AnErrorIsThatOfTheNodeItNamesAndAKnownBugIsNamed) {
  FindingsDb db = FindingsDb::open(db_path);
  FindingRecord f = wrong_shape_on_ort(1, "max_pool", "f32",
                                       "graph refused\ninput x : f32[2]\n"
                                       "const e : f32[4,0,5] = [[], [], [], []]\n"
                                       "y = max_pool(e, kernel_shape=[2], dilations=[2])\n"
                                       "z = neg(x)\noutput y, z\n");
  f.signature.verdict = "error";
  db.record_case({1, 1, 0, 2, 1, 0, 0, 0, 0, 1, ""}, {f});
  db.set_known(f.signature.key(), "row 35");
  std::string bundle = (dir / "refused").string();
  std::string text = run_ok(fmt::format("findings report 2 {} --db {}", bundle, db_path));
  EXPECT_NE(text.find("finding #2 is known bug row 35 of Retort's docs/bugs.md (the pooling "
                      "kernels"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the issue shows 1 of 2 nodes: what feeds the failing outputs"),
            std::string::npos)
      << text;
  std::string issue = read_file(bundle + "/issue.md");
  EXPECT_NE(issue.find(": MaxPool (dilations=[2]) fails"), std::string::npos) << issue;
  EXPECT_NE(issue.find("- Known: row 35 of Retort's docs/bugs.md"), std::string::npos) << issue;
  EXPECT_EQ(issue.find("neg(x)"), std::string::npos) << issue;
}

}  // namespace
}  // namespace retort
