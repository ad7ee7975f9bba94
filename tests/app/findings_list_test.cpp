// `findings list` lists the findings the two references dispute apart from the root candidates:
// there one of Retort's own references is wrong, so they are not counted among the roots.
#include <gtest/gtest.h>

#include <filesystem>

#include <fmt/format.h>

#include "core/findings/findings_db.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class FindingsList : public testing::ShellTest {
 protected:
  fs::path dir = fs::temp_directory_path() / fmt::format("retort_list_{}", ::getpid());
  std::string db_path = (dir / "f.db").string();

  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  // Records a finding at `op` as case `index`, reviewed with the given second opinion.
  void record(uint64_t index, const std::string& op, bool disputed) {
    FindingsDb db = FindingsDb::open(db_path);
    int64_t c = db.last_campaign() ? db.last_campaign()->id
                                   : db.add_campaign({0, utc_now(), "{}", "0", "{}", 1, 0, 1});
    FindingRecord f;
    f.signature = {"ort", "reference", "mismatch", op, "f32", "", ""};
    f.backend_a = "ort:O3";
    f.backend_b = "ref";
    f.graph_a = f.graph_b = "original";
    f.backends = "ref,ort:O3";
    f.original = "graph g\ninput x : f32[2]\ny = " + op + "(x)\noutput y\n";
    f.variants = "{}";
    f.first_seen = f.last_seen = utc_now();
    f.campaign = c;
    f.case_index = index;
    db.record_case({c, index, index, 2, 1, 0, 0, 0, 0, 1, ""}, {f});
    std::string agreement =
        disputed ? R"({"agree":[],"differ":["onnx-ref:default"],"silent":[],"disputed":true})"
                 : R"({"agree":["onnx-ref:default"],"differ":["ort:O3"],"silent":[],)"
                   R"("disputed":false})";
    db.set_review(f.signature.key(), {.agreement = agreement,
                                      .disputed = disputed,
                                      .reduced = "",
                                      .reduced_b = "",
                                      .root = "ort: " + op,
                                      .merged_into = 0});
  }
};

TEST_F(FindingsList, DisputedFindingsAreListedApartAndNotCountedAsRoots) {
  record(0, "tan", true);
  record(1, "exp", false);
  std::string text = run_ok(fmt::format("findings list --db {}", db_path));
  EXPECT_NE(text.find(", 1 after merging, 1 reference disputed;"), std::string::npos) << text;
  size_t accused = text.find("mismatch at exp");
  size_t apart = text.find("\nreference disputed (1; ");
  size_t disputed = text.find("mismatch at tan");
  ASSERT_NE(accused, std::string::npos) << text;
  ASSERT_NE(apart, std::string::npos) << text;
  ASSERT_NE(disputed, std::string::npos) << text;
  // The disputed one is older (#1) yet listed after the heading, below the root candidate.
  EXPECT_LT(accused, apart) << text;
  EXPECT_LT(apart, disputed) << text;
}

TEST_F(FindingsList, NoDisputedHeadingWithoutDisputedFindings) {
  record(0, "exp", false);
  std::string text = run_ok(fmt::format("findings list --db {}", db_path));
  EXPECT_NE(text.find(", 1 after merging, 0 reference disputed;"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nreference disputed ("), std::string::npos) << text;
}

}  // namespace
}  // namespace retort
