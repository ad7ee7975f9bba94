// Files are data, never commands (issue 27): a session file or a findings database that names a
// worker command makes Retort run it only with the person's consent (--trust here, where nobody
// is asked), and a stored campaign's options and rule files pass the command line's checks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/backend/command_run.h"
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
  void TearDown() override {
    ::unsetenv("RETORT_ENVS_DIR");
    fs::remove_all(dir_);
  }

  // A worker command that leaves a marker file when it runs.
  std::vector<std::string> touching() const { return {"/bin/sh", "-c", "touch " + marker_}; }

  std::string write_session(const std::string& backend_name) {
    return write_session(backend_name, touching());
  }
  std::string write_session(const std::string& backend_name, const std::vector<std::string>& argv) {
    nlohmann::json doc = {{"format", "retort-session"},
                          {"version", 1},
                          {"seed", 1},
                          {"rule_sets", nlohmann::json::array()},
                          {"backends",
                           {{{"name", backend_name},
                             {"argv", argv},
                             {"timeout_s", 5},
                             {"options", nlohmann::json::object()}}}}};
    std::string path = (dir_ / "crafted.json").string();
    std::ofstream(path) << doc.dump();
    return path;
  }

  // A findings database holding one campaign whose options are `o`.
  std::string write_db(const CampaignOptions& o, const std::string& name = "crafted.db") {
    std::string path = (dir_ / name).string();
    FindingsDb db = FindingsDb::open(path);
    db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", o.seed, 0, 1});
    return path;
  }

  CampaignOptions with_command() const { return with_command(touching()); }
  CampaignOptions with_command(const std::vector<std::string>& argv) const {
    CampaignOptions o;
    o.backends = {"ref", "evil"};
    o.attached = {{.name = "evil", .argv = argv, .timeout_s = 5, .options = {}}};
    o.gen.ops = {"add", "neg"};
    o.gen.min_nodes = o.gen.max_nodes = 2;
    return o;
  }

  std::string fig3() const {
    return std::string(RETORT_SOURCE_DIR) + "/samples/polyjuice/fig3.rtg";
  }

  // `retort -c LINE` in its own process (`fuzz --jobs` starts jobs of the program it runs in):
  // its exit status, its output in `printed`.
  int retort(const std::string& line, std::string& printed) {
    CommandResult r = run_command({RETORT_BINARY, "-c", line}, {});
    printed = r.output;
    return r.exit_status;
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

// Issue 43: a backend attached in the session under the database's name, or trusted for another
// file, was taken as consent to the database's command, which the jobs of --jobs then ran.
TEST_F(Trust, NoEarlierApprovalRunsADatabasesOtherCommandUnderJobs) {
  std::string worker = RETORT_FAULT_WORKER;
  std::string db = write_db(with_command());
  std::string other = write_db(with_command({worker}), "other.db");
  std::string session = write_session("evil", {worker});
  for (const std::string& approval :
       {"backend attach evil --cmd " + worker, "open " + session + " --trust",
        "fuzz --resume --cases 1 --quiet --trust --db " + other}) {
    std::string printed;
    int status =
        retort(approval + "; fuzz --resume --cases 12 --jobs 2 --quiet --db " + db, printed);
    EXPECT_NE(status, 0) << approval << ": " << printed;
    EXPECT_NE(printed.find("attaches backend 'evil' as `/bin/sh -c 'touch " + marker_ +
                           "'`, but the backend 'evil' attached here runs `" + worker + "`"),
              std::string::npos)
        << approval << ": " << printed;
    EXPECT_FALSE(fs::exists(marker_)) << approval << ": " << printed;
    EXPECT_TRUE(FindingsDb::open(db, false).cases(1).empty()) << approval;
  }
}

// The honest resume: the database's command is the one attached here, and the jobs run it.
TEST_F(Trust, JobsRunTheCommandTheirParentRuns) {
  std::string worker = RETORT_FAULT_WORKER;
  std::string db = write_db(with_command({worker}));
  std::string printed;
  int status = retort("backend attach evil --cmd " + worker +
                          "; fuzz --resume --cases 6 --jobs 2 --quiet --no-opinion --no-reduce "
                          "--db " +
                          db,
                      printed);
  EXPECT_EQ(status, 0) << printed;
  EXPECT_EQ(FindingsDb::open(db, false).cases(1).size(), 6u) << printed;
}

// A job runs exactly the specs it is handed, not the database's other command.
TEST_F(Trust, AJobRefusesACommandItWasNotHanded) {
  std::string worker = RETORT_FAULT_WORKER;
  std::string db = write_db(with_command());
  nlohmann::json approved = {{{"name", "evil"},
                              {"argv", {worker}},
                              {"timeout", 5},
                              {"options", nlohmann::json::object()}}};
  std::string error = run_failing("fuzz --resume --cases 2 --quiet --job 0/2 --db " + db);
  EXPECT_NE(error.find("not resuming"), std::string::npos) << error;
  error = run_failing("fuzz --resume --cases 2 --quiet --job 0/2 --approved '" + approved.dump() +
                      "' --db " + db);
  EXPECT_NE(error.find("but the backend 'evil' attached here runs `" + worker + "`"),
            std::string::npos)
      << error;
  EXPECT_FALSE(fs::exists(marker_));
  EXPECT_TRUE(FindingsDb::open(db, false).cases(1).empty());
}

// Issue 43: a finding whose stored backends name a release installed it on `findings open`.
TEST_F(Trust, AStoredReleaseInstallsNothing) {
  fs::path envs = dir_ / "envs";
  fs::create_directories(envs);
  ::setenv("RETORT_ENVS_DIR", envs.c_str(), 1);
  std::string db = write_db(CampaignOptions{});
  FindingRecord f;
  f.signature = {"ort", "reference", "mismatch", "neg", "f32", "", ""};
  f.backend_a = "ort@1.16.3:O3";
  f.graph_a = f.graph_b = "original";
  f.backend_b = "ref";
  f.backends = "ref,ort@1.16.3:O3";
  f.original = "graph g(x: f32[2]) { y = neg(x) } -> (y)\n";
  f.variants = "{}";
  f.first_seen = f.last_seen = utc_now();
  f.campaign = 1;
  CaseRecord c;
  c.campaign = 1;
  c.findings = 1;
  FindingsDb::open(db, false).record_case(c, {f});
  for (const std::string& command :
       std::vector<std::string>{"open 1", "export 1 " + (dir_ / "bundle").string()}) {
    std::string error = run_failing("findings " + command + " --db " + db);
    EXPECT_NE(error.find("ort@1.16.3 is not installed, and a release named by a file is never "
                         "installed on its say-so: `backend install ort@1.16.3` installs it"),
              std::string::npos)
        << command << ": " << error;
    EXPECT_EQ(out.text().find("installing"), std::string::npos) << out.text();
    EXPECT_TRUE(fs::is_empty(envs));
  }
}

// Issue 43: a stored shard count of 2^63 made the stride between cases wrap around (a raw
// "UNIQUE constraint failed", then a resume that looped for good); on the command line it
// killed both jobs of --jobs 2.
TEST_F(Trust, AShardCountBeyondRangeIsAnError) {
  nlohmann::json j = CampaignOptions().to_json();
  j["backends"] = {"ref"};
  j["shards"] = uint64_t{1} << 63;
  std::string path = (dir_ / "shards.db").string();
  FindingsDb::open(path).add_campaign({0, utc_now(), j.dump(), "0", "{}", 1, 0, 1});
  std::string error = run_failing("fuzz --resume --cases 2 --quiet --db " + path);
  EXPECT_NE(error.find("campaign options: --shard: K/N with 0 <= K < N and N at most 16777216, "
                       "not 0/9223372036854775808"),
            std::string::npos)
      << error;
  EXPECT_TRUE(FindingsDb::open(path, false).cases(1).empty());

  std::string printed;
  int status = retort(
      "fuzz --backends ref --ops add,neg --nodes 2 --cases 2 --quiet --jobs 2 "
      "--shard 0/9223372036854775808 --db " +
          (dir_ / "line.db").string(),
      printed);
  EXPECT_NE(status, 0) << printed;
  EXPECT_NE(printed.find("--shard: K/N with 0 <= K < N and N at most 16777216"), std::string::npos)
      << printed;
  EXPECT_FALSE(fs::exists(dir_ / "line.db")) << printed;
}

}  // namespace
}  // namespace retort
