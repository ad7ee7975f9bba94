#include "core/base/suggest.h"

#include "core/base/error.h"

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(Suggest, EditDistance) {
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("eval", "eval"), 0u);
}

TEST(Suggest, CloseMatchesKeepOrder) {
  std::vector<std::string> names{"load", "feed", "show", "seed", "info"};
  EXPECT_EQ(close_matches("sed", names), (std::vector<std::string>{"feed", "seed"}));
  EXPECT_EQ(close_matches("seed", names, 0), (std::vector<std::string>{"seed"}));
  EXPECT_TRUE(close_matches("conformance", names).empty());
}

TEST(Suggest, ClosestMatchesKeepOnlyTheFewestEdits) {
  std::vector<std::string> modes{"O0", "O1", "O2", "O3"};
  EXPECT_EQ(closest_matches("03", modes), (std::vector<std::string>{"O3"}));
  EXPECT_EQ(closest_matches("inductr", {"ref", "inductor", "induct"}),
            (std::vector<std::string>{"inductor", "induct"}));
  EXPECT_TRUE(closest_matches("x", {"abc"}).empty());
}

TEST(Suggest, FailUnknownNamesWhatAndSuggests) {
  try {
    fail_unknown("rule set", "algebr", {"algebra", "identities"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "unknown rule set 'algebr'; did you mean algebra? (rule sets: algebra, identities)");
  }
  try {
    fail_unknown("backend family", "zzz", {"ort"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "unknown backend family 'zzz' (backend families: ort)");
  }
}

}  // namespace
}  // namespace retort
