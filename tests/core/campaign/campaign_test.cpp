// A campaign against workers that hang: `--time` is a deadline, a worker that hangs costs a case
// at most two timeouts, and a worker too slow to answer hello is an infrastructure problem.
#include "core/campaign/campaign.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/backend/ref_backend.h"
#include "core/backend/worker_backend.h"
#include "core/base/error.h"

namespace retort {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class CampaignTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("retort_campaign_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    options_.backends = {"ref", "w"};
    options_.gen.min_nodes = 2;
    options_.gen.max_nodes = 3;
  }
  void TearDown() override { fs::remove_all(dir_); }

  BackendSpec worker(std::vector<std::string> fault, double timeout_s) {
    std::vector<std::string> argv{RETORT_FAULT_WORKER};
    argv.insert(argv.end(), fault.begin(), fault.end());
    return {.name = "w", .argv = argv, .timeout_s = timeout_s, .options = {}};
  }

  // Runs the campaign; returns its wall time in seconds.
  double run(FindingsDb& db, WorkerBackend& w,
             std::optional<Clock::time_point> deadline = std::nullopt) {
    int64_t id = db.add_campaign(
        {0, utc_now(), options_.to_json().dump(), "test", "{}", options_.seed, 0, 1});
    RefBackend ref;
    auto start = Clock::now();
    stats_ = run_campaign(db, {id, options_, 0, 1, nullptr, {}, deadline}, {&ref, &w});
    campaign_ = id;
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  fs::path dir_;
  CampaignOptions options_;
  CampaignStats stats_;
  int64_t campaign_ = 0;
};

// The worker hangs on its first run with a timeout far beyond the budget: the campaign still
// ends at its deadline, and the case it cut is not recorded (`--resume` runs it again).
TEST_F(CampaignTest, TheTimeBudgetIsADeadlineWhateverTheWorkersDo) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  WorkerBackend w(worker({"--fault", "hang"}, 600));
  options_.seconds = 2;
  double seconds = run(db, w);
  EXPECT_LT(seconds, options_.seconds + 10);
  EXPECT_EQ(stats_.cases, 0u);
  EXPECT_TRUE(db.cases(campaign_).empty());
  EXPECT_EQ(w.worker_pid(), -1);
  // The limits end with the campaign: the backend runs on for later commands.
  EXPECT_EQ(w.case_trouble().cut, false);
}

// `fuzz --time` counts from the command's start (issue 42: a 60 s campaign ran 82 s, its support
// probe before the cases uncounted, and left the review no time): the command's deadline stops
// the cases though options.seconds, counted from the first case, would leave more.
TEST_F(CampaignTest, TheCommandsDeadlineStopsTheCasesBeforeTheirOwnBudget) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  WorkerBackend w(worker({}, 60));
  options_.seconds = 600;
  options_.cases = 2;
  run(db, w, Clock::now());
  EXPECT_EQ(stats_.cases, 0u);
  run(db, w);
  EXPECT_EQ(stats_.cases, 2u);
}

// A hanging worker times out, is started again and times out once more; the case's other runs on
// it are `timeout` without waiting, and the case is recorded with a timeout finding.
TEST_F(CampaignTest, AWorkerThatHangsIsRestartedOnceInACase) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  WorkerBackend w(worker({"--fault", "hang"}, 0.5));
  options_.cases = 1;
  run(db, w);
  ASSERT_EQ(stats_.cases, 1u);
  std::vector<FindingRecord> findings = db.findings();
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].signature.verdict, "timeout");
  std::string verdicts = findings[0].verdicts;
  EXPECT_NE(verdicts.find("no answer within 0.5 s"), std::string::npos) << verdicts;
  if (db.cases(campaign_)[0].graphs > 2) {
    EXPECT_NE(verdicts.find("not run: the worker timed out 2 times in this case"),
              std::string::npos)
        << verdicts;
  }
}

// A worker that does not answer hello in time is tried again; when the second try answers, the
// case goes on as usual.
TEST_F(CampaignTest, AWorkerSlowToStartIsTriedAgain) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  WorkerBackend w(worker({"--fault", "hang-hello", "--once", (dir_ / "once").string()}, 0.5));
  options_.cases = 1;
  run(db, w);
  ASSERT_EQ(db.cases(campaign_).size(), 1u);
  EXPECT_EQ(db.cases(campaign_)[0].error, "");
  EXPECT_TRUE(db.findings().empty());
}

// One that never answers hello is an infrastructure problem of the case, not a finding.
TEST_F(CampaignTest, AWorkerThatNeverStartsIsAnInfrastructureProblem) {
  FindingsDb db = FindingsDb::open((dir_ / "f.db").string());
  WorkerBackend w(worker({"--fault", "hang-hello"}, 0.3));
  options_.cases = 1;
  run(db, w);
  std::vector<CaseRecord> cases = db.cases(campaign_);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_NE(cases[0].error.find("infrastructure: w: the worker did not answer hello within 0.3 s, "
                                "twice"),
            std::string::npos)
      << cases[0].error;
  EXPECT_TRUE(db.findings().empty());
  EXPECT_EQ(stats_.errors, 1u);
}

// Issue 43: shards x jobs that wrap around made a stride of 0 (a resume looped for good over
// the indices it had done, deaf to Ctrl-C); such a run is refused, and skipping done indices
// stops on cancel.
TEST(CaseIndices, AStrideBeyondTheIndexRangeIsRefused) {
  CampaignRun run;
  run.options.shards = uint64_t{1} << 63;
  run.jobs = 2;
  EXPECT_THROW(CaseIndices(run, {}), Error);
  run.jobs = 1;
  run.options.shard = run.options.shards;  // not below shards
  EXPECT_THROW(CaseIndices(run, {}), Error);
}

TEST(CaseIndices, SkippingDoneIndicesStopsOnCancel) {
  std::atomic<bool> cancel{true};
  CampaignRun run;
  run.cancel = &cancel;
  std::set<uint64_t> done;
  for (uint64_t i = 0; i < 100; ++i) done.insert(i);
  CaseIndices indices(run, done);
  uint64_t index = 0;
  EXPECT_FALSE(indices.next(index));
  cancel = false;
  ASSERT_TRUE(indices.next(index));
  EXPECT_EQ(index, 100u);
}

TEST(CaseIndices, IndicesEndWhereTheDatabaseCanNoLongerStoreThem) {
  CampaignRun run;
  run.options.shards = uint64_t{1} << 62;
  run.options.shard = run.options.shards - 1;
  CaseIndices indices(run, {});
  uint64_t index = 0;
  std::vector<uint64_t> taken;
  while (taken.size() < 5 && indices.next(index)) taken.push_back(index);
  // (2^62 - 1) + k * 2^62 for k = 0, 1: the next, 3 * 2^62 - 1, is beyond int64.
  EXPECT_EQ(taken, (std::vector<uint64_t>{(uint64_t{1} << 62) - 1, (uint64_t{1} << 63) - 1}));
}

}  // namespace
}  // namespace retort
