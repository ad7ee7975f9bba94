// Campaign options as stored in the findings database, and the input plan each case draws with.
#include "core/campaign/campaign_options.h"

#include <gtest/gtest.h>

#include <set>

namespace retort {
namespace {

TEST(CampaignOptions, CasesDrawAcrossInputRangesAndTheChoiceSurvivesStorage) {
  CampaignOptions o;
  ASSERT_TRUE(o.input_ranges);
  std::set<std::string> plans;
  for (uint64_t seed = 1; seed <= 64; ++seed) plans.insert(case_input_plan(o, seed).str());
  EXPECT_TRUE(plans.count("standard"));
  EXPECT_TRUE(plans.count("full"));
  EXPECT_TRUE(plans.count("special"));
  EXPECT_GE(plans.size(), 4u);

  CampaignOptions back = CampaignOptions::from_json(o.to_json());
  EXPECT_TRUE(back.input_ranges);
  EXPECT_EQ(case_input_plan(back, 17).str(), case_input_plan(o, 17).str());
}

TEST(CampaignOptions, SupportTablesSurviveStorage) {
  CampaignOptions o;
  o.gen.op_dtypes["gemm"] = {DType::f32, DType::f16};
  o.gen.op_dtypes["where"] = {};
  EXPECT_EQ(CampaignOptions::from_json(o.to_json()).gen.op_dtypes, o.gen.op_dtypes);
}

// Findings databases written before `--for` and per-case input plans still resume and open.
TEST(CampaignOptions, CampaignsStoredBeforeForAndInputRangesStillRead) {
  nlohmann::json j = CampaignOptions{}.to_json();
  j.erase("input_ranges");
  j.erase("op_dtypes");
  CampaignOptions old = CampaignOptions::from_json(j);
  EXPECT_TRUE(old.gen.op_dtypes.empty());
  EXPECT_FALSE(old.input_ranges);
  for (uint64_t seed = 1; seed <= 16; ++seed)
    EXPECT_EQ(case_input_plan(old, seed).str(), "standard");
}

}  // namespace
}  // namespace retort
