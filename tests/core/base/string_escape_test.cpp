// One escape table for .rtg and rule-file strings: both languages read and reject alike.
#include "core/base/string_escape.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/base/error.h"
#include "core/io/rtg.h"
#include "core/rules/sexpr.h"

namespace retort {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(StringEscape, BothLanguagesShareTheTable) {
  EXPECT_EQ(unescape_char('n'), '\n');
  EXPECT_EQ(unescape_char('"'), '"');
  EXPECT_FALSE(unescape_char('q').has_value());
  EXPECT_EQ(unknown_escape_message('\x01'), "unknown escape '\\\\x01' (known: \\\" \\\\ \\n \\t)");
  std::string want = unknown_escape_message('q');
  std::string rtg = error_of(
      [] { parse_rtg("input x : f32[2]\ny = custom(x, s=\"a\\q\")\noutput y\n", "t.rtg"); });
  std::string rules = error_of([] { read_sexprs("(\"a\\q\")", "t.rules"); });
  EXPECT_NE(rtg.find(want), std::string::npos) << rtg;
  EXPECT_NE(rules.find(want), std::string::npos) << rules;
}

}  // namespace
}  // namespace retort
