// A finding made again from its record: its graphs, its input plan and mutations, and its
// compare re-run, with the reference deliberately wrong on one value as the accused
// (tests/core/compare/wrong_backend.h).
#include "core/campaign/finding_replay.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "core/campaign/campaign_options.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

const char* const kGraph = "graph c\ninput x : f32[2,3]\na = neg(x)\ny = exp(a)\noutput y\n";

FindingRecord finding(int64_t campaign) {
  FindingRecord f;
  f.signature = {"ort", "reference", "mismatch", "exp", "f32", "", ""};
  f.backend_a = "ort:O3";
  f.graph_a = f.graph_b = "max";
  f.backend_b = "ref";
  f.backends = "ref,ort:O3";
  f.original = kGraph;
  f.variants = R"({"max": "graph c\ninput x : f32[2,3]\nm = neg(x)\ny = exp(m)\noutput y\n"})";
  f.verdicts = "[]";
  f.first_seen = f.last_seen = utc_now();
  f.campaign = campaign;
  f.inputs_seed = 5;
  f.case_seed = 11;
  return f;
}

TEST(FindingReplay, TheRecordedCaseRunsAgainAndNamesTheRecordedFailure) {
  fs::path path = fs::temp_directory_path() / ("retort_replay_" + std::to_string(::getpid()));
  fs::remove(path);
  FindingsDb db = FindingsDb::open(path.string());
  CampaignOptions options;
  options.input_ranges = true;  // a case draws its input plan from its seed
  int64_t c = db.add_campaign({0, utc_now(), options.to_json().dump(), "0.1.0", "{}", 5, 0, 1});
  FindingRecord f = finding(c);
  // A case whose plan is not the standard one, so that the replay must use the case's.
  while (campaign_input_plan(f.case_seed).str() == InputPlan{}.str()) ++f.case_seed;

  std::vector<std::pair<std::string, Graph>> graphs = finding_graphs(f);
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].first, "original");
  EXPECT_EQ(graphs[1].first, "max");
  EXPECT_EQ(finding_input_plan(db, f).str(), campaign_input_plan(f.case_seed).str());

  RefBackend ref;
  WrongBackend ort{"ort:O3", {"y"}};
  FindingReplay replay = replay_finding(db, f, {&ref, &ort}, {});
  EXPECT_EQ(replay.plan.str(), campaign_input_plan(f.case_seed).str());
  ASSERT_EQ(replay.report.bug_count(), 2u);  // ort:O3 wrong on the original and on max
  size_t n = matching_bug(replay.report, f);
  EXPECT_EQ(replay.report.bug(n)->graph_a, "max");
  EXPECT_EQ(replay.report.bug(n)->backend_a, "ort:O3");
  fs::remove(path);
}

TEST(FindingReplay, AGraphThatDoesNotReadIsAnErrorNamingTheFinding) {
  FindingRecord f = finding(1);
  f.id = 9;
  f.variants = R"({"max": 3})";
  EXPECT_THROW(
      {
        try {
          finding_graphs(f);
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "finding #9: variant max is not .rtg text");
          throw;
        }
      },
      Error);
  f.variants = "{";
  EXPECT_THROW(finding_graphs(f), Error);
}

}  // namespace
}  // namespace retort
