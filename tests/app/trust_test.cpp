// Files are data, never commands (issue 27): a session file or a findings database that names a
// worker command makes Retort run it only with the person's consent (--trust here, where nobody
// is asked), and a stored campaign's options and rule files pass the command line's checks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/campaign/campaign_options.h"
#include "core/findings/findings_db.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class Trust : public testing::ShellTest {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("retort-trust-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    marker_ = (dir_ / "ran").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A worker command that leaves a marker file when it runs.
  std::vector<std::string> touching() const { return {"/bin/sh", "-c", "touch " + marker_}; }

  std::string write_session(const std::string& backend_name) {
    nlohmann::json doc = {{"format", "retort-session"},
                          {"version", 1},
                          {"seed", 1},
                          {"rule_sets", nlohmann::json::array()},
                          {"backends",
                           {{{"name", backend_name},
                             {"argv", touching()},
                             {"timeout_s", 5},
                             {"options", nlohmann::json::object()}}}}};
    std::string path = (dir_ / "crafted.json").string();
    std::ofstream(path) << doc.dump();
    return path;
  }

  // A findings database holding one campaign whose options are `o`.
  std::string write_db(const CampaignOptions& o) {
    std::string path = (dir_ / "crafted.db").string();
    FindingsDb db = FindingsDb::open(path);
    db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", o.seed, 0, 1});
    return path;
  }

  CampaignOptions with_command() const {
    CampaignOptions o;
    o.backends = {"ref", "evil"};
    o.attached = {{.name = "evil", .argv = touching(), .timeout_s = 5, .options = {}}};
    o.gen.ops = {"add", "neg"};
    o.gen.min_nodes = o.gen.max_nodes = 2;
    return o;
  }

  std::string fig3() const {
    return std::string(RETORT_SOURCE_DIR) + "/samples/polyjuice/fig3.rtg";
  }

  fs::path dir_;
  std::string marker_;
};

TEST_F(Trust, ASessionFileRunsNoCommandWithoutConsent) {
  std::string path = write_session("evil");
  std::string opened = run_ok("open " + path);
  EXPECT_NE(opened.find("attaches a backend that runs commands:\n  evil: /bin/sh -c 'touch " +
                        marker_ + "'"),
            std::string::npos)
      << opened;
  EXPECT_NE(opened.find("`open " + path + " --trust`"), std::string::npos) << opened;
  run_ok("load " + fig3());
  std::string error = run_failing("compare --backends ref,evil");
  EXPECT_NE(error.find("backend 'evil' runs `/bin/sh -c 'touch " + marker_ + "'`"),
            std::string::npos)
      << error;
  EXPECT_FALSE(fs::exists(marker_));
  // Saving and opening again keeps it untrusted.
  run_ok("save " + (dir_ / "again.json").string());
  run_ok("open " + (dir_ / "again.json").string());
  run_ok("load " + fig3());
  run_failing("compare --backends ref,evil");
  EXPECT_FALSE(fs::exists(marker_));

  run_ok("open " + path + " --trust");
  run_ok("load " + fig3());
  shell.run("compare --backends ref,evil");  // the command is no worker: a crash, but it ran
  EXPECT_TRUE(fs::exists(marker_));
}

TEST_F(Trust, ASessionFileCannotHideAFamily) {
  for (const std::string name : {"ort", "xla", "inductor", "torch", "tvm"}) {
    std::string error = run_failing("open " + write_session(name));
    EXPECT_NE(error.find("names the built-in family"), std::string::npos) << error;
  }
  EXPECT_FALSE(fs::exists(marker_));
}

TEST_F(Trust, AFindingsDatabaseRunsNoCommandWithoutConsent) {
  std::string db = write_db(with_command());
  std::string error = run_failing("fuzz --resume --cases 1 --quiet --db " + db);
  EXPECT_NE(out.text().find("campaign 1 of findings database " + db +
                            " attaches a backend that runs commands:\n  evil: /bin/sh -c 'touch " +
                            marker_ + "'"),
            std::string::npos)
      << out.text();
  EXPECT_NE(error.find("`fuzz --resume --trust`"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(marker_));
  EXPECT_TRUE(FindingsDb::open(db, false).cases(1).empty());

  run_ok("fuzz --resume --cases 1 --quiet --trust --db " + db);
  EXPECT_TRUE(fs::exists(marker_));
}

TEST_F(Trust, AStoredCampaignReadsNoRuleFileItNames) {
  CampaignOptions o;
  o.backends = {"ref"};
  o.rules = {"/etc/passwd"};
  std::string db = write_db(o);
  std::string error = run_failing("fuzz --resume --cases 1 --quiet --db " + db);
  EXPECT_NE(error.find("the campaign names the rule file '/etc/passwd'"), std::string::npos)
      << error;
  EXPECT_EQ(error.find("root:"), std::string::npos) << error;
  error = run_failing("fuzz --resume --cases 1 --quiet --rules other.rules --db " + db);
  EXPECT_NE(error.find("'other.rules' is not one of them"), std::string::npos) << error;
}

TEST_F(Trust, AStoredCampaignPassesTheCommandLinesChecks) {
  for (auto [field, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"shards", 0}, {"nodes", {1, 1000000000}}, {"random_variants", 1000000000}}) {
    nlohmann::json j = CampaignOptions().to_json();
    j[field] = value;
    std::string path = (dir_ / ("bad-" + field + ".db")).string();
    FindingsDb::open(path).add_campaign({0, utc_now(), j.dump(), "0", "{}", 1, 0, 1});
    std::string error = run_failing("fuzz --resume --cases 1 --quiet --db " + path);
    EXPECT_NE(error.find("campaign options: --"), std::string::npos) << field << ": " << error;
  }
}

TEST_F(Trust, MergeKeepsTheUsersCampaignToResume) {
  std::string mine = (dir_ / "mine.db").string(), theirs = write_db(with_command());
  run_ok("fuzz --backends ref --ops add,neg --nodes 2 --cases 1 --quiet --db " + mine);
  std::string merged = run_ok("findings merge " + theirs + " --db " + mine);
  EXPECT_NE(merged.find("merged 0 findings and campaign 2 (there 1) from " + theirs),
            std::string::npos)
      << merged;
  EXPECT_NE(merged.find("`fuzz --resume` continues campaign 1, this database's own"),
            std::string::npos)
      << merged;
  run_ok("fuzz --resume --cases 2 --quiet --db " + mine);
  EXPECT_FALSE(fs::exists(marker_));
  EXPECT_EQ(FindingsDb::open(mine, false).cases(1).size(), 2u);
}

}  // namespace
}  // namespace retort
