#include "core/base/words.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

using Words = std::vector<std::string>;

TEST(SplitWords, BlanksSeparateAndQuotesGroup) {
  EXPECT_EQ(split_words("  load   a.rtg  "), (Words{"load", "a.rtg"}));
  EXPECT_EQ(split_words("export 'my file.onnx' --force"),
            (Words{"export", "my file.onnx", "--force"}));
  EXPECT_EQ(split_words(R"(a "b \"c\" \\ \n" d)"), (Words{"a", R"(b "c" \ \n)", "d"}));
  EXPECT_EQ(split_words(R"(x\ y 'it''s' "")"), (Words{"x y", "its", ""}));
  EXPECT_EQ(split_words(R"('a\b')"), (Words{R"(a\b)"}));
  EXPECT_TRUE(split_words(" \t ").empty());
}

TEST(SplitWords, UnterminatedQuoteIsAnError) {
  EXPECT_THROW(split_words("load 'a.rtg"), Error);
  EXPECT_THROW(split_words("load \"a.rtg"), Error);
  EXPECT_THROW(split_words("load a\\"), Error);
}

TEST(SplitPartialWords, AcceptsUnfinishedInput) {
  PartialWords p = split_partial_words("load 'my fi");
  EXPECT_EQ(p.words, (Words{"load", "my fi"}));
  EXPECT_TRUE(p.ends_in_word);
  p = split_partial_words("help ");
  EXPECT_EQ(p.words, (Words{"help"}));
  EXPECT_FALSE(p.ends_in_word);
}

std::string error_of(std::string_view line) {
  try {
    split_words(line);
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

TEST(SplitWords, UnterminatedQuoteShowsWhereItOpened) {
  EXPECT_EQ(error_of("attach x --cmd 'node w.js"), "unterminated single quote at 'node w.js");
  EXPECT_EQ(error_of("a \"0123456789012345678901234567"),
            "unterminated double quote at \"01234567890123456789012...");
}

// Only whole words: n1 inside n12 or n1_axes is another name; the longest name wins where two
// start at one place, and a replacement is not read again (n1 -> n2, n2 -> n3 swaps, never chains).
TEST(ReplaceWholeWords, ReplacesWholeWordsOnceLongestFirst) {
  std::map<std::string, std::string> names{{"n1", "n2"}, {"n2", "n3"}, {"n1.a", "X"}, {"p", "q"}};
  EXPECT_EQ(replace_whole_words("Name:'n1' then n2, n12 n1_axes xn1 n1.a n1.b", names),
            "Name:'n2' then n3, n12 n1_axes xn1 X n2.b");
  EXPECT_EQ(replace_whole_words("p", names), "q");
  EXPECT_EQ(replace_whole_words("", names), "");
}

}  // namespace
}  // namespace retort
