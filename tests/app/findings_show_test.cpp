// `findings show N` prints what a finding's failing check ran: the original graph, and the
// variant the compiler got wrong where that is not the original.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/findings/findings_db.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class FindingsShow : public testing::ShellTest {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("retort-findings-show-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A database with one finding of `backend` on graph_a against graph_b, in a campaign whose
  // original is `original` and whose variants are `variants` (name -> .rtg text).
  std::string write_db(const std::string& graph_a, const std::string& graph_b,
                       const std::string& original, const nlohmann::json& variants) {
    std::string path = (dir_ / "f.db").string();
    FindingsDb db = FindingsDb::open(path);
    int64_t campaign = db.add_campaign({0, utc_now(), "{}", "0", "{}", 1, 0, 1});
    FindingRecord f;
    f.signature = {"fault", "equivalence", "mismatch", "mul", "f32", "", ""};
    f.backend_a = f.backend_b = "fault";
    f.graph_a = graph_a;
    f.graph_b = graph_b;
    f.backends = "ref,fault";
    f.original = original;
    f.variants = variants.dump();
    f.first_seen = f.last_seen = utc_now();
    f.campaign = campaign;
    db.record_case({campaign, 0, 1, 2, 2, 0, 0, 0, 0, 1, ""}, {f});
    return path;
  }

  fs::path dir_;
};

constexpr const char* kOriginal = "graph g\ninput x : f32[2]\ny = add(x, x)\noutput y\n";
constexpr const char* kDoubled = "graph g\ninput x : f32[2]\nd = mul(x, 2)\noutput d\n";

TEST_F(FindingsShow, ShowsTheFailingVariantBesideTheOriginal) {
  std::string db = write_db("doubled", "original", kOriginal, {{"doubled", kDoubled}});
  std::string shown = run_ok("findings show 1 --db " + db);
  size_t original = shown.find("original:\n");
  size_t variant = shown.find("failing variant doubled:\n");
  ASSERT_NE(original, std::string::npos) << shown;
  ASSERT_NE(variant, std::string::npos) << shown;
  EXPECT_LT(original, variant) << shown;
  EXPECT_NE(shown.find("d = mul(x, 2)", variant), std::string::npos) << shown;
}

TEST_F(FindingsShow, AFindingOnTheOriginalShowsNoVariant) {
  std::string db = write_db("original", "original", kOriginal, {{"doubled", kDoubled}});
  std::string shown = run_ok("findings show 1 --db " + db);
  EXPECT_NE(shown.find("y = add(x, x)"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("failing variant"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("mul(x, 2)"), std::string::npos) << shown;
}

}  // namespace
}  // namespace retort
