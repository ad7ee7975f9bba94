// Campaign options as stored in the findings database, and the input plan each case draws with.
#include "core/campaign/campaign_options.h"

#include <gtest/gtest.h>

#include <set>

#include "core/base/error.h"

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

  EXPECT_TRUE(plans.count("wide"));

  o.wide_values = 0.5;
  CampaignOptions back = CampaignOptions::from_json(o.to_json());
  EXPECT_TRUE(back.input_ranges);
  EXPECT_EQ(back.wide_values, 0.5);
  EXPECT_EQ(case_input_plan(back, 17).str(), case_input_plan(o, 17).str());
}

// Campaigns stored before the wide plan replay the plans their cases drew then.
TEST(CampaignOptions, CampaignsStoredBeforeTheWidePlanDrawNone) {
  nlohmann::json j = CampaignOptions{}.to_json();
  j.erase("wide_values");
  CampaignOptions old = CampaignOptions::from_json(j);
  EXPECT_EQ(old.wide_values, 0);
  for (uint64_t seed = 1; seed <= 64; ++seed)
    EXPECT_EQ(case_input_plan(old, seed).str(), campaign_input_plan(seed).str());
  j["wide_values"] = 1.5;
  EXPECT_THROW(CampaignOptions::from_json(j), Error);
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

// Issue 40: cases ask for program forms drawn from --forms (none in some cases, never one twice),
// the same after storage; campaigns stored before forms existed ask for none.
TEST(CampaignOptions, CasesDrawProgramFormsAndTheChoiceSurvivesStorage) {
  CampaignOptions o;
  std::set<std::string> kinds;
  size_t without = 0;
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    std::vector<ProgramMutation> forms = case_forms(o, seed);
    without += forms.empty();
    std::set<std::string> once;
    for (const ProgramMutation& m : forms) {
      kinds.insert(m.kind);
      EXPECT_TRUE(once.insert(m.kind).second) << m.kind;
    }
  }
  EXPECT_GT(without, 0u);
  EXPECT_EQ(kinds.size(), std::size(kProgramForms));
  EXPECT_EQ(case_forms(CampaignOptions::from_json(o.to_json()), 9), case_forms(o, 9));

  o.forms = {"dynamic"};
  for (uint64_t seed = 1; seed <= 16; ++seed)
    for (const ProgramMutation& m : case_forms(o, seed)) EXPECT_EQ(m.kind, "dynamic");
  nlohmann::json j = o.to_json();
  j.erase("forms");
  EXPECT_TRUE(case_forms(CampaignOptions::from_json(j), 9).empty() &&
              case_forms(CampaignOptions::from_json(j), 10).empty());
  o.forms = {"in-place", "inplace"};
  try {
    o.validate();
    ADD_FAILURE() << "an unknown form passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.message()).find("--forms: 'inplace' is no program form"),
              std::string::npos)
        << e.message();
  }
}

std::string stored_error(const std::string& field, const nlohmann::json& value) {
  nlohmann::json j = CampaignOptions().to_json();
  j[field] = value;
  try {
    CampaignOptions::from_json(j);
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

// Issue 27: a stored `shards: 0` looped forever and huge counts hung; the options read from a
// database now pass the same check as the command line's.
TEST(CampaignOptions, StoredOptionsPassTheCommandLinesCheck) {
  EXPECT_EQ(stored_error("shards", 0),
            "campaign options: --shard: K/N with 0 <= K < N and N at most 16777216, not 0/0");
  EXPECT_NE(stored_error("nodes", {1, 1000000000}).find("--nodes"), std::string::npos);
  EXPECT_NE(stored_error("nodes", {0, 3}).find("--nodes"), std::string::npos);
  EXPECT_NE(stored_error("random_variants", 1000000000).find("--random"), std::string::npos);
  EXPECT_NE(stored_error("enodes", 1ull << 40).find("--enodes"), std::string::npos);
  EXPECT_NE(stored_error("iterations", 1ull << 40).find("--iters"), std::string::npos);
  EXPECT_NE(stored_error("max_dim", 1 << 30).find("max_dim"), std::string::npos);
  EXPECT_NE(stored_error("relax_p", 7).find("--relax"), std::string::npos);
  EXPECT_NE(stored_error("saturate_seconds", -1).find("saturate_seconds"), std::string::npos);
  EXPECT_NE(stored_error("backends", nlohmann::json::array()).find("--backends"),
            std::string::npos);
  EXPECT_NE(stored_error("ops", {"no_such_op"}).find("no_such_op"), std::string::npos);
  EXPECT_NE(stored_error("strategies", {"bogus"}).find("bogus"), std::string::npos);
  // Issue 43: 2^63 shards made the stride between a job's cases wrap around.
  EXPECT_EQ(stored_error("shards", uint64_t{1} << 63),
            "campaign options: --shard: K/N with 0 <= K < N and N at most 16777216, not "
            "0/9223372036854775808");
  EXPECT_NE(stored_error("attached", {{"name", "w"}}).find("campaign options: "),
            std::string::npos);
  EXPECT_EQ(stored_error("seed", 5), "no error");
}

TEST(CampaignOptions, StoredRulesAreBuiltInNamesOrFilesThePersonNames) {
  CampaignOptions o;
  o.rules = {"polyjuice", "/etc/passwd"};
  try {
    check_stored_rules(o, {});
    ADD_FAILURE() << "a path from the database was accepted";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("the rule file '/etc/passwd'"), std::string::npos) << e.message();
  }
  check_stored_rules(o, {"/etc/passwd"});
  o.rules = {"polyjuice"};
  check_stored_rules(o, {});
}

}  // namespace
}  // namespace retort
