#include "app/command_line.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

using Words = std::vector<std::string>;

TEST(SplitCommands, SemicolonsOutsideQuotes) {
  EXPECT_EQ(split_commands("load a.rtg; eval ;; seed 3;"),
            (Words{"load a.rtg", " eval ", " seed 3"}));
  EXPECT_EQ(split_commands("load 'a;b.rtg'; def x = \"s;t\""),
            (Words{"load 'a;b.rtg'", " def x = \"s;t\""}));
  EXPECT_EQ(split_commands(R"(load a\;b)"), (Words{R"(load a\;b)"}));
  EXPECT_TRUE(split_commands(" ; ").empty());
}

TEST(SplitHead, RawRestIsTrimmedButKept) {
  HeadAndRest h = split_head("  def  y = add(x, \"a  b\")  ");
  EXPECT_EQ(h.head, "def");
  EXPECT_EQ(h.rest, "y = add(x, \"a  b\")");
  h = split_head("quit");
  EXPECT_EQ(h.head, "quit");
  EXPECT_EQ(h.rest, "");
}

}  // namespace
}  // namespace retort
