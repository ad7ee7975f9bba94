#include "core/rules/expr.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace retort {
namespace {

// Facts for two e-class variables, one attribute variable and the parameters.
class Facts : public EvalContext {
 public:
  std::vector<TensorType> types;
  std::vector<bool> consts;
  std::vector<AttrValue> attr_values;
  std::vector<Value> params;
  const TensorType& class_type(int v) const override { return types.at(v); }
  bool class_is_const(int v) const override { return consts.at(v); }
  const AttrValue& attr(int v) const override { return attr_values.at(v); }
  const Value& param(int v) const override { return params.at(v); }
};

class RulesExpr : public ::testing::Test {
 protected:
  void SetUp() override {
    vars.classes = {"x", "y"};
    vars.attrs = {"p"};
    vars.params = {"r"};
    facts.types = {{DType::f32, {2, 3, 4}}, {DType::i32, {3, 1}}};
    facts.consts = {false, true};
    facts.attr_values = {std::vector<int64_t>{1, 0, 2}};
    facts.params = {int64_t{2}};
  }
  Value eval(const std::string& text) { return Expr::parse(read_sexpr(text), vars).eval(facts); }
  VarTable vars;
  Facts facts;
};

TEST_F(RulesExpr, Arithmetic) {
  EXPECT_EQ(eval("(+ 1 2 r)"), Value(int64_t{5}));
  EXPECT_EQ(eval("(- 7)"), Value(int64_t{-7}));
  EXPECT_EQ(eval("(/ -7 2)"), Value(int64_t{-4}));
  EXPECT_EQ(eval("(mod -7 3)"), Value(int64_t{2}));
  EXPECT_EQ(eval("(max 1 9 3)"), Value(int64_t{9}));
  EXPECT_EQ(eval("(if (< r 3) 10 20)"), Value(int64_t{10}));
  EXPECT_EQ(eval("(and (<= 1 1) (not (> 1 2)) (or false (!= r 3)))"), Value(true));
  EXPECT_EQ(eval("(= 2 2.0)"), Value(true));
}

TEST_F(RulesExpr, Analysis) {
  EXPECT_EQ(eval("(rank ?x)"), Value(int64_t{3}));
  EXPECT_EQ(eval("(dim ?x -1)"), Value(int64_t{4}));
  EXPECT_EQ(eval("(max-rank ?x ?y)"), Value(int64_t{3}));
  EXPECT_EQ(eval("(min-rank ?x ?y)"), Value(int64_t{2}));
  EXPECT_EQ(eval("(numel ?x)"), Value(int64_t{24}));
  EXPECT_EQ(eval("(shape ?y)"), Value(std::vector<int64_t>{3, 1}));
  EXPECT_EQ(eval("(shape-eq ?x ?y)"), Value(false));
  EXPECT_EQ(eval("(broadcastable ?x ?y)"), Value(true));
  EXPECT_EQ(eval("(dtype-in ?x integer f64)"), Value(false));
  EXPECT_EQ(eval("(dtype-in ?y integer f64)"), Value(true));
  EXPECT_EQ(eval("(dtype-in ?x float)"), Value(true));
  EXPECT_EQ(eval("(same-dtype ?x ?y)"), Value(false));
  EXPECT_EQ(eval("(is-const ?y)"), Value(true));
  EXPECT_EQ(eval("(is_const ?x)"), Value(false));
}

TEST(RulesExprNames, ListsEveryFunction) {
  auto names = expr_function_names();
  for (const char* n : {"rank", "swap", "dtype-in", "is-const", "broadcastable", "compose"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

TEST_F(RulesExpr, Perms) {
  EXPECT_EQ(eval("(swap 4 1 -1)"), Value(std::vector<int64_t>{0, 3, 2, 1}));
  EXPECT_EQ(eval("(reversed 3)"), Value(std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(eval("(is-identity (compose ?p ?p))"), Value(true));
  EXPECT_EQ(eval("(compose [1 2 0] [1 2 0])"), Value(std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(eval("(is-identity (compose [1 2 0] [2 0 1]))"), Value(true));
  EXPECT_EQ(eval("(nth ?p -3)"), Value(int64_t{1}));
  EXPECT_EQ(eval("(len (list 1 2 r))"), Value(int64_t{3}));
  EXPECT_EQ(eval("(= ?p [1 0 2])"), Value(true));
}

void expect_parse_error(const VarTable& vars, const std::string& text, int col,
                        const std::string& fragment) {
  try {
    Expr::parse(read_sexpr(text, "c.rules"), vars);
    FAIL() << "no error for " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 1);
    EXPECT_EQ(e.loc().col, col) << e.what();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.what();
  }
}

TEST_F(RulesExpr, ParseErrorsAreLocated) {
  expect_parse_error(vars, "(rank 3)", 7, "e-class variable");
  expect_parse_error(vars, "(+ 1 (frob 2))", 7, "unknown function 'frob'");
  expect_parse_error(vars, "(+ 1)", 1, "at least 2");
  expect_parse_error(vars, "(< q 1)", 4, "unknown name 'q'");
  expect_parse_error(vars, "(+ ?z 1)", 4, "?z is not bound");
  expect_parse_error(vars, "(+ ?x 1)", 4, "is an e-class");
  expect_parse_error(vars, "(dtype-in ?x f99)", 14, "expected a dtype");
}

TEST_F(RulesExpr, EvalErrorsAreLocated) {
  EXPECT_THROW(eval("(/ 1 0)"), Error);
  EXPECT_THROW(eval("(dim ?x 3)"), Error);
  EXPECT_THROW(eval("(+ true 1)"), Error);
  EXPECT_THROW(eval("(* 4611686018427387904 4)"), Error);
  try {
    Expr::parse(read_sexpr("(and true\n  (< ?p 1))", "c.rules"), vars).eval(facts);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_EQ(e.loc().col, 6);
    EXPECT_NE(e.message().find("expected an int"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace retort
