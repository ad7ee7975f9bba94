#include "core/findings/finding_trace.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/rules/trace_json.h"

namespace retort {
namespace {

std::string error_of(const std::string& text) {
  try {
    FindingTrace::from_json(text, "finding #7");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(FindingTrace, RewritesOrMutationsRoundTrip) {
  FindingTrace mutated{{}, {{"resolve", 3}, {"tcb", 18446744073709551615ull}}};
  FindingTrace back = FindingTrace::from_json(mutated.to_json(), "finding #1");
  EXPECT_EQ(back.mutations, mutated.mutations);
  EXPECT_TRUE(back.rewrites.empty());

  RewriteTrace rewrites;
  rewrites.iteration = 4;
  FindingTrace rewritten{trace_to_json(rewrites).dump(), {}};
  back = FindingTrace::from_json(rewritten.to_json(), "finding #2");
  EXPECT_TRUE(back.mutations.empty());
  EXPECT_EQ(back.rewrites, rewritten.rewrites);
  // Older databases hold "[]" for a relaxed graph's.
  back = FindingTrace::from_json("[]", "finding #3");
  EXPECT_TRUE(back.mutations.empty() && back.rewrites.empty());
  EXPECT_EQ(FindingTrace{}.to_json(), "[]");
}

// A POLYJUICE case on torch.compile has both: its variants' rewrites and its program forms.
TEST(FindingTrace, RewritesWithProgramFormsRoundTrip) {
  RewriteTrace rewrites;
  rewrites.iteration = 2;
  FindingTrace both{trace_to_json(rewrites).dump(), {{"transposed-input", 5}, {"in-place", 9}}};
  FindingTrace back = FindingTrace::from_json(both.to_json(), "finding #4");
  EXPECT_EQ(back.mutations, both.mutations);
  EXPECT_EQ(back.rewrites, both.rewrites);
}

TEST(FindingTrace, WhatDoesNotReadIsAnErrorNamingTheFinding) {
  EXPECT_EQ(error_of("not json"),
            "finding #7: its trace is not JSON of a rewrite trace or program mutations");
  EXPECT_EQ(error_of(R"({"program_mutations": [{"kind": 3}]})"),
            "finding #7: its program mutations are not readable");
  EXPECT_EQ(error_of(R"({"program_mutations": 1})"),
            "finding #7: its program mutations are not a list");
  EXPECT_EQ(error_of(R"({"iteration": 0})"), "finding #7: its rewrite trace has no list of steps");
}

}  // namespace
}  // namespace retort
