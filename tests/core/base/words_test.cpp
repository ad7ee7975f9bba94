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

TEST(SplitWords, UnterminatedQuoteNamesItsColumn) {
  try {
    split_words("attach x --cmd 'node w.js");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "unterminated single quote (opened at column 16)");
  }
}

}  // namespace
}  // namespace retort
