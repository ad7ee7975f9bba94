#include "core/base/suggest.h"

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

}  // namespace
}  // namespace retort
