#include "core/rules/sexpr.h"

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(RulesSExpr, ReadsAtomsListsAndLocations) {
  auto all =
      read_sexprs("(add ?x :perm [1, 0] 2.5 \"s\\n\")\n  r1 ; comment\n# another\n=>", "f.rules");
  ASSERT_EQ(all.size(), 3u);
  const SExpr& l = all[0];
  ASSERT_EQ(l.kind, SExpr::Kind::List);
  ASSERT_EQ(l.items.size(), 6u);
  EXPECT_TRUE(l.items[0].is_symbol("add"));
  EXPECT_EQ(l.items[1].kind, SExpr::Kind::Var);
  EXPECT_EQ(l.items[1].text, "x");
  EXPECT_EQ(l.items[2].kind, SExpr::Kind::Keyword);
  EXPECT_EQ(l.items[2].text, "perm");
  ASSERT_EQ(l.items[3].kind, SExpr::Kind::Bracket);
  EXPECT_EQ(l.items[3].items.size(), 2u);
  EXPECT_EQ(l.items[3].items[0].int_value, 1);
  EXPECT_EQ(l.items[4].kind, SExpr::Kind::Float);
  EXPECT_DOUBLE_EQ(l.items[4].float_value, 2.5);
  EXPECT_EQ(l.items[5].text, "s\n");
  EXPECT_EQ(all[1].loc.line, 2);
  EXPECT_EQ(all[1].loc.col, 3);
  EXPECT_EQ(all[1].loc.file, "f.rules");
  EXPECT_TRUE(all[2].is_symbol("=>"));
  EXPECT_EQ(all[2].loc.line, 4);
  EXPECT_EQ(l.str(), "(add ?x :perm [1 0] 2.5 \"s\\n\")");
}

TEST(RulesSExpr, NegativeNumbersAndSymbols) {
  auto all = read_sexprs("-2 - .. -x +3");
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].kind, SExpr::Kind::Int);
  EXPECT_EQ(all[0].int_value, -2);
  EXPECT_TRUE(all[1].is_symbol("-"));
  EXPECT_TRUE(all[2].is_symbol(".."));
  EXPECT_TRUE(all[3].is_symbol("-x"));
  EXPECT_EQ(all[4].int_value, 3);
}

void expect_error_at(const std::string& text, int line, int col, const std::string& fragment) {
  try {
    read_sexprs(text, "e.rules");
    FAIL() << "no error for: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "e.rules");
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.what();
  }
}

TEST(RulesSExpr, LocatedErrors) {
  expect_error_at("(add ?x\n  (mul ?y)", 1, 1, "never closed");
  expect_error_at("(add ?x]", 1, 8, "expected ')'");
  expect_error_at("\n )", 2, 2, "unexpected ')'");
  expect_error_at("(f \"abc\n", 1, 4, "string is never closed");
  expect_error_at("  ? ", 1, 3, "needs a name");
  expect_error_at("99999999999999999999", 1, 1, "out of range");
  expect_error_at("1.2.3", 1, 1, "bad number");
  expect_error_at("\"\\q\"", 1, 2, "unknown escape");
  expect_error_at(std::string(300, '(') + std::string(300, ')'), 1, 201, "nested deeper");
}

TEST(RulesSExpr, ReadOneRejectsExtra) {
  EXPECT_EQ(read_sexpr(" (a b) ").items.size(), 2u);
  EXPECT_THROW(read_sexpr("(a) (b)"), Error);
  EXPECT_THROW(read_sexpr("  "), Error);
}

}  // namespace
}  // namespace retort
