// Cases by strategy: TENSURE's cases are an einsum and two operand permutations, OATest's a woven
// graph, compared on the backends; strategies take turns by case index and survive storage.
#include "core/campaign/case_runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "tests/core/compare/wrong_backend.h"

namespace retort {
namespace {

TEST(CaseRunner, TensureCasesAreEinsumsAndTheirPermutations) {
  CampaignOptions o;
  o.strategies = {"polyjuice", "tensure"};
  o.backends = {"ref"};
  RefBackend ref;
  CaseRunner runner(o, {&ref});
  CaseOutcome polyjuice = runner.run(1, 0), tensure = runner.run(1, 1);
  EXPECT_TRUE(polyjuice.record.error.empty()) << polyjuice.record.error;
  EXPECT_TRUE(tensure.record.error.empty()) << tensure.record.error;
  EXPECT_EQ(tensure.record.nodes, 1u);
  // The einsum and two permutations, or one when two operands have only one other order.
  EXPECT_GE(tensure.record.graphs, 2u);
  EXPECT_LE(tensure.record.graphs, 3u);
  EXPECT_TRUE(tensure.findings.empty());
  EXPECT_EQ(CampaignOptions::from_json(o.to_json()).strategies, o.strategies);
  nlohmann::json old = o.to_json();
  old.erase("strategies");
  EXPECT_EQ(CampaignOptions::from_json(old).strategies, std::vector<std::string>{"polyjuice"});
  old["strategies"] = {"nope"};
  EXPECT_THROW(CampaignOptions::from_json(old), Error);
}

// A backend that gets einsum wrong is caught on the permuted einsums too, as one finding per
// signature.
TEST(CaseRunner, TensureFindsAWrongEinsum) {
  CampaignOptions o;
  o.strategies = {"tensure"};
  o.backends = {"ref", "bad"};
  RefBackend ref;
  WrongBackend bad("bad", {"A"});
  CaseRunner runner(o, {&ref, &bad});
  CaseOutcome c = runner.run(1, 3);
  ASSERT_TRUE(c.record.error.empty()) << c.record.error;
  ASSERT_FALSE(c.findings.empty());
  EXPECT_NE(c.findings[0].original.find("einsum("), std::string::npos) << c.findings[0].original;
  EXPECT_NE(c.findings[0].variants.find("permuted_1"), std::string::npos);
}

// OATest's cases are one woven graph each (a pattern in a generated or pooled seed), compared
// across the backends; a campaign run again from its seed weaves the same graphs.
TEST(CaseRunner, OatestCasesAreWovenGraphs) {
  CampaignOptions o;
  o.strategies = {"oatest"};
  o.backends = {"ref"};
  RefBackend ref;
  CaseRunner first(o, {&ref}), again(o, {&ref});
  for (uint64_t i = 0; i < 12; ++i) {
    CaseOutcome a = first.run(1, i), b = again.run(1, i);
    ASSERT_TRUE(a.record.error.empty()) << a.record.error;
    EXPECT_EQ(a.record.graphs, 1u);
    // A generated seed has 10 nodes; a pattern adds at least one.
    EXPECT_GT(a.record.nodes, 10u);
    EXPECT_EQ(a.record.nodes, b.record.nodes);
    EXPECT_TRUE(a.findings.empty());
  }
}

}  // namespace
}  // namespace retort
