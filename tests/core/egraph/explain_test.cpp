#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/egraph/egraph.h"
#include "core/egraph/render.h"
#include "tests/core/egraph/fig6_egraph.h"

namespace retort {
namespace {

TEST(Explain, RuleStepBetweenTwoTerms) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Explanation ex = f.eg.explain(f.outer, f.reassociated);
  ASSERT_EQ(ex.steps.size(), 1u);
  EXPECT_EQ(ex.steps[0].why.rule, "assoc");
  EXPECT_EQ(ex.steps[0].why.step, 1u);
  EXPECT_FALSE(ex.steps[0].backward);
  EXPECT_EQ(ex.steps[0].from, "(add (add I1 (transpose I2 perm=[1,0])) (transpose I3 perm=[1,0]))");
  EXPECT_EQ(ex.steps[0].to, "(add I1 (add (transpose I2 perm=[1,0]) (transpose I3 perm=[1,0])))");
  // Right to left when asked the other way round.
  Explanation back = f.eg.explain(f.reassociated, f.outer);
  ASSERT_EQ(back.steps.size(), 1u);
  EXPECT_TRUE(back.steps[0].backward);
}

TEST(Explain, ChainThroughSeveralRules) {
  testing::Fig6 f;
  testing::build_fig6(f);
  Explanation ex = f.eg.explain(f.i2, f.tt2);
  ASSERT_EQ(ex.steps.size(), 1u);
  EXPECT_EQ(ex.steps[0].why.str(), "rule trans-trans (rewrite #4)");
  EXPECT_TRUE(ex.steps[0].backward);
  EXPECT_EQ(ex.steps[0].from, "I2");
  EXPECT_EQ(ex.steps[0].to, "(transpose (transpose I2 perm=[1,0]) perm=[1,0])");

  // The simplest term's inner sum against the original inner sum: the rewrite into
  // trans(add(trans trans I2, trans trans I3)) and then trans-trans under congruence.
  EClassId i2 = f.eg.add(input_enode("I2"));
  EClassId i3 = f.eg.add(input_enode("I3"));
  EClassId sum = f.eg.add(testing::fig6_node("add", {i2, i3}));
  EClassId simple = f.eg.add(testing::fig6_node("transpose", {sum}));
  EClassId t2 = f.eg.add(testing::fig6_node("transpose", {i2}));
  EClassId t3 = f.eg.add(testing::fig6_node("transpose", {i3}));
  EClassId inner = f.eg.add(testing::fig6_node("add", {t2, t3}));
  Explanation chain = f.eg.explain(inner, simple);
  std::string text = chain.str();
  EXPECT_NE(text.find("rule add-trans (rewrite #3)"), std::string::npos) << text;
  EXPECT_NE(text.find("rule trans-trans (rewrite #4)"), std::string::npos) << text;
  EXPECT_NE(text.find("rule trans-trans (rewrite #5)"), std::string::npos) << text;
  EXPECT_NE(text.find("congruence"), std::string::npos) << text;
  EXPECT_EQ(chain.steps.front().from, "(add (transpose I2 perm=[1,0]) (transpose I3 perm=[1,0]))");
  EXPECT_EQ(f.eg.proof_steps(inner, simple), (std::vector<uint32_t>{2, 3, 4}));
}

TEST(Explain, CongruenceExpandsIntoChildProofs) {
  EGraph eg;
  TensorType t{DType::f32, {2}};
  EClassId a = eg.add_input("a", t);
  EClassId b = eg.add_input("b", t);
  EClassId fa = eg.add(make_enode("neg", {}, {a}));
  EClassId fb = eg.add(make_enode("neg", {}, {b}));
  eg.merge(a, b, Justification::by_rule("a=b", 7));
  eg.rebuild();
  Explanation ex = eg.explain(fa, fb);
  ASSERT_EQ(ex.steps.size(), 2u);
  EXPECT_EQ(ex.steps[0].why.kind, Justification::Kind::Congruence);
  EXPECT_EQ(ex.steps[0].depth, 0);
  EXPECT_EQ(ex.steps[0].from, "(neg a)");
  EXPECT_EQ(ex.steps[0].to, "(neg b)");
  EXPECT_EQ(ex.steps[1].why.rule, "a=b");
  EXPECT_EQ(ex.steps[1].depth, 1);
  EXPECT_EQ(ex.steps[1].from, "a");
  EXPECT_EQ(ex.steps[1].to, "b");
  EXPECT_EQ(ex.str(),
            "(neg a)\n  = (neg b)    by congruence\n      a = b    by rule a=b (rewrite #8)\n");
  EXPECT_EQ(eg.proof_steps(fa, fb), std::vector<uint32_t>{7});
}

TEST(Explain, UnequalTermsAreAnError) {
  EGraph eg;
  TensorType t{DType::f32, {2}};
  EClassId a = eg.add_input("a", t);
  EClassId b = eg.add_input("b", t);
  EXPECT_THROW(eg.explain(a, b), Error);
  EXPECT_THROW(eg.proof_steps(a, b), Error);
  EXPECT_TRUE(eg.explain(a, a).steps.empty());
}

TEST(Explain, LongChainsAreTruncated) {
  EGraph eg;
  TensorType t{DType::f32, {2}};
  std::vector<EClassId> xs;
  for (int i = 0; i < 20; ++i) xs.push_back(eg.add_input(fmt::format("x{}", i), t));
  for (int i = 0; i + 1 < 20; ++i)
    eg.merge(xs[i], xs[i + 1], Justification::by_rule("chain", static_cast<uint32_t>(i)));
  eg.rebuild();
  ExplainOptions opt;
  opt.max_steps = 5;
  Explanation ex = eg.explain(xs[0], xs[19], opt);
  EXPECT_TRUE(ex.truncated);
  EXPECT_EQ(ex.steps.size(), 5u);
  EXPECT_EQ(eg.explain(xs[0], xs[19]).steps.size(), 19u);
  EXPECT_EQ(eg.proof_steps(xs[3], xs[5]), (std::vector<uint32_t>{3, 4}));
}

}  // namespace
}  // namespace retort
