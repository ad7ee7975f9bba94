#include "core/rules/ematch.h"

#include <map>

#include <gtest/gtest.h>

#include "core/egraph/convert.h"
#include "core/egraph/render.h"
#include "tests/core/rules/rules_test_util.h"

namespace retort {
namespace {

using testing::GraphBuilder;

class RulesEMatch : public ::testing::Test {
 protected:
  // out = add(add(a, transpose(b)), mul(a, a)); s = split(c) into 2
  void SetUp() override {
    GraphBuilder gb;
    TensorType t{DType::f32, {2, 2}};
    auto a = gb.input("a", t);
    auto b = gb.input("b", t);
    auto c = gb.input("c", TensorType{DType::f32, {4, 3}});
    auto tb = gb.node("transpose", {b}, {{"perm", std::vector<int64_t>{1, 0}}});
    auto s = gb.node_n("split", {c}, {{"axis", int64_t{0}}}, 2);
    auto x = gb.node("add", {a, tb});
    auto m = gb.node("mul", {a, a});
    auto out = gb.node("add", {x, m});
    auto out2 = gb.node("add", {s[1], s[0]});
    meta = add_graph(eg, gb.done({out, out2}));
    eg.rebuild();
  }
  std::vector<Match> find(const std::string& rule_text) {
    rules = parse_rules(rule_text);
    return search(eg, rules.rules[0]);
  }
  EGraph eg;
  GraphMeta meta;
  RuleSet rules;
};

TEST_F(RulesEMatch, VariablesBindClasses) {
  auto ms = find("rule r (add ?x ?y) => (add ?y ?x)");
  ASSERT_EQ(ms.size(), 3u);
  std::set<std::string> seen;
  for (const auto& m : ms) seen.insert(match_str(eg, rules.rules[0], m));
  EXPECT_EQ(seen, (std::set<std::string>{"(add a (transpose b perm=[1,0]))",
                                         "(add (add a (transpose b perm=[1,0])) (mul a a))",
                                         "(add (split c axis=0 #1/2) (split c axis=0 #0/2))"}));
}

TEST_F(RulesEMatch, NestedAndNonLinearPatterns) {
  EXPECT_EQ(find("rule r (add ?x (mul ?y ?y)) => ?x").size(), 1u);
  EXPECT_EQ(find("rule r (mul ?y ?y) => ?y").size(), 1u);
  EXPECT_EQ(find("rule r (add ?y ?y) => ?y").size(), 0u);
  auto ms = find("rule r (add ?x (transpose ?y :perm ?p)) => ?x");
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].subst.attrs[0], AttrValue(std::vector<int64_t>{1, 0}));
  EXPECT_EQ(subst_str(eg, rules.rules[0], ms[0].subst), "?x = a, ?y = b, ?p = [1,0]");
}

TEST_F(RulesEMatch, LiteralAttributesOutputsAndLeaves) {
  EXPECT_EQ(find("rule r (transpose ?x :perm [1 0]) => ?x").size(), 1u);
  EXPECT_EQ(find("rule r (transpose ?x :perm [0 1]) => ?x").size(), 0u);
  EXPECT_EQ(find("rule r (add (split@1 ?x) ?y) => ?y").size(), 1u);
  EXPECT_EQ(find("rule r (add (split@0/2 ?x) ?y) => ?y").size(), 0u);
  EXPECT_EQ(find("rule r (add (split@1/3 ?x) ?y) => ?y").size(), 0u);
  EXPECT_EQ(find("rule r (add a ?y) => ?y").size(), 1u);
  EXPECT_EQ(find("rule r (mul a a) => a").size(), 1u);
  EXPECT_EQ(find("rule r (mul b ?y) => ?y").size(), 0u);
  EXPECT_EQ(find("rule r (mul nothing ?y) => ?y").size(), 0u);
}

TEST_F(RulesEMatch, ConditionsFilterMatches) {
  EXPECT_EQ(find("rule r (add ?x ?y) => ?x if (= (dim ?x 1) 3)").size(), 1u);
  EXPECT_EQ(find("rule r (add ?x ?y) => ?x if (is-const ?x)").size(), 0u);
  EXPECT_EQ(find("rule r (add ?x ?y) => ?x if (dtype-in ?x integer)").size(), 0u);
  // A let before the first pick is computed at match time and kept with the match.
  auto ms = find("rule r (mul ?x ?y) => ?x let n = (* (rank ?x) 10) pick k in 0 .. n");
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].params[0], Value(int64_t{20}));
}

// Match-time clauses that read only class types and attributes are decided once per binding of
// them in a search: each binding must still get its own verdict and its own parameters, and two
// matches whose types repeat but whose attributes differ are two bindings (is-const, above, is
// evaluated per match).
TEST(RulesEMatchTypes, ClausesOnTypesAndAttributesDecideEachBinding) {
  GraphBuilder gb;
  auto a = gb.input("a", TensorType{DType::f32, {2, 2}});
  auto b = gb.input("b", TensorType{DType::f32, {3, 2}});
  auto v = gb.input("v", TensorType{DType::f32, {2}});
  auto ab = gb.node("add", {a, a});
  auto bb = gb.node("add", {b, b});
  auto vv = gb.node("add", {v, v});
  auto ab2 = gb.node("add", {ab, a});
  auto bb2 = gb.node("add", {bb, b});
  auto t01 = gb.node("transpose", {a}, {{"perm", std::vector<int64_t>{0, 1}}});
  auto t10 = gb.node("transpose", {a}, {{"perm", std::vector<int64_t>{1, 0}}});
  EGraph eg;
  add_graph(eg, gb.done({ab2, bb2, vv, t01, t10}));
  eg.rebuild();

  RuleSet rules = parse_rules(R"(
rule r (add ?x ?y) => ?x if (>= (rank ?x) 2) let n = (+ (rank ?x) (dim ?y 0)) pick k in 0 .. n
rule p (transpose ?x :perm ?p) => ?x if (= ?p [1 0])
rule c (add ?x ?y) => ?x if (is-const ?x)
)");
  EXPECT_TRUE(rules.rules[0].match_clauses_by_binding);
  EXPECT_TRUE(rules.rules[1].match_clauses_by_binding);
  EXPECT_FALSE(rules.rules[2].match_clauses_by_binding);
  std::map<std::string, Value> n_of;
  for (const Match& m : search(eg, rules.rules[0]))
    n_of[match_str(eg, rules.rules[0], m)] = m.params.at(0);
  EXPECT_EQ(n_of, (std::map<std::string, Value>{{"(add a a)", int64_t{4}},
                                                {"(add b b)", int64_t{5}},
                                                {"(add (add a a) a)", int64_t{4}},
                                                {"(add (add b b) b)", int64_t{5}}}));
  auto ms = search(eg, rules.rules[1]);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(match_str(eg, rules.rules[1], ms[0]), "(transpose a perm=[1,0])");
}

TEST(RulesEMatchConst, IsConstSeesConstants) {
  Graph g;
  TensorType t{DType::i32, {2}};
  g.inputs = {{"x", t}};
  g.constants = {{"c", Tensor::from_ints(DType::i32, {2}, {1, 2}), ""}};
  g.nodes.push_back(Node{"n0", "add", {"x", "c"}, {"a"}, {}, std::nullopt});
  g.nodes.push_back(Node{"n1", "add", {"a", "x"}, {"b"}, {}, std::nullopt});
  g.outputs = {"b"};
  infer_graph(g);
  EGraph eg;
  add_graph(eg, g);
  eg.rebuild();
  RuleSet rules = parse_rules(R"(
rule k (add ?x ?c) => (add ?c ?x) if (is_const ?c)
rule named (add ?x c) => (add c ?x)
)");
  auto ms = search(eg, rules.rules[0]);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(match_str(eg, rules.rules[0], ms[0]), "(add x c)");
  EXPECT_EQ(search(eg, rules.rules[1]).size(), 1u);
}

TEST(RulesEMatchPerm, ATransposeWithoutPermMatchesAPermPattern) {
  Graph g;
  g.inputs = {{"x", TensorType{DType::f32, {2, 3, 4}}}};
  g.nodes.push_back(Node{"n0", "transpose", {"x"}, {"t"}, {}, std::nullopt});
  g.outputs = {"t"};
  infer_graph(g);  // states the default: the reversed order
  EXPECT_EQ(attr_ints(g.nodes[0].attrs, "perm"), (std::vector<int64_t>{2, 1, 0}));
  EGraph eg;
  add_graph(eg, g);
  eg.rebuild();
  RuleSet rules = parse_rules("rule r (transpose ?x :perm ?p) => ?x");
  auto ms = search(eg, rules.rules[0]);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(match_str(eg, rules.rules[0], ms[0]), "(transpose x perm=[2,1,0])");
}

TEST_F(RulesEMatch, BareVariableMatchesEveryTensorClass) {
  auto ms = find("rule r ?x => (add ?x ?x)");
  // a b c, transpose, split@0 split@1, add, mul, add, add: the graph_out class is no tensor.
  EXPECT_EQ(ms.size(), 10u);
  for (const auto& m : ms) EXPECT_TRUE(eg.has_type(m.eclass));
}

TEST_F(RulesEMatch, SearchOneClassAndLimits) {
  rules = parse_rules("rule r (add ?x ?y) => (add ?y ?x)");
  EClassId out = eg.eclass(meta.root).nodes[0].children[0];
  auto ms = search_class(eg, rules.rules[0], out);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].eclass, eg.find(out));
  SearchOptions one;
  one.limit = 1;
  EXPECT_EQ(search(eg, rules.rules[0], one).size(), 1u);
  std::atomic<bool> cancel{true};
  SearchOptions cancelled;
  cancelled.cancel = &cancel;
  EXPECT_EQ(search(eg, rules.rules[0], cancelled).size(), 0u);
}

TEST_F(RulesEMatch, ExposeMatchesGraphOut) {
  auto ms = find("rule e expose 1");
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].eclass, eg.find(meta.root));
}

TEST_F(RulesEMatch, ConditionErrorsNameTheRule) {
  try {
    find("rule bad (add ?x ?y) => ?x if (= (dim ?x 5) 1)");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("rule 'bad'"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("out of range"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace retort
