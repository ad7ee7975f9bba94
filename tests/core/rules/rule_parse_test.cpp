#include "core/rules/rule.h"

#include <gtest/gtest.h>

#include "core/base/rng.h"

namespace retort {
namespace {

TEST(RulesParse, RuleWithClauses) {
  RuleSet set = parse_rules(R"R(
# a comment
rule wrap
  doc "add(x, y) -> trans(...)"
  (add ?x ?y) => (transpose (add ?x ?y) :perm (swap (rank ?x) r1 0))
  if (>= (rank ?x) 2)
  let n = (rank ?x)
  pick r1 in 1 .. (- n 1) where (!= r1 0)
  cap 3

rule inv
  (transpose (transpose ?x :perm ?p) :perm ?q) => ?x
  if (is-identity (compose ?p ?q))
)R",
                            "t.rules");
  ASSERT_EQ(set.rules.size(), 2u);
  const Rule& w = set.get("wrap");
  EXPECT_EQ(w.doc, "add(x, y) -> trans(...)");
  EXPECT_EQ(w.cap, 3);
  EXPECT_EQ(w.clauses.size(), 3u);
  EXPECT_EQ(w.match_clauses, 2u);  // the if and the let come before the first pick
  EXPECT_EQ(w.vars.classes, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(w.vars.params, (std::vector<std::string>{"n", "r1"}));
  EXPECT_EQ(w.loc.line, 3);
  EXPECT_EQ(w.str(), "(add ?x ?y) => (transpose (add ?x ?y) :perm (swap (rank ?x) r1 0))");
  const Rule& inv = set.get("inv");
  EXPECT_TRUE(inv.rhs.is_var());
  EXPECT_EQ(inv.vars.attrs, (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(inv.match_clauses, 1u);
  EXPECT_EQ(inv.cap, -1);
}

TEST(RulesParse, OutputsLeavesAndExpose) {
  RuleSet set = parse_rules(R"(
rule s ?x => (split@r/2 (concat ?x ?x :axis 0) :axis 0)
  pick r in 0 .. 1
rule t (add I1 (split@1 ?y)) => (mul I1 ?y)
rule e expose 2 cap 1
rule o reorder cap 1
)");
  const Rule& s = set.get("s");
  EXPECT_TRUE(s.lhs.is_var());
  EXPECT_EQ(s.rhs.root().n_out, 2);
  EXPECT_TRUE(s.rhs.root().out_expr.has_value());
  EXPECT_EQ(s.str(), "?x => (split@r/2 (concat ?x ?x :axis 0) :axis 0)");
  const Rule& t = set.get("t");
  EXPECT_EQ(t.lhs.nodes[0].kind, PatternNode::Kind::Leaf);
  EXPECT_EQ(t.lhs.nodes[2].out, 1);
  EXPECT_EQ(t.lhs.nodes[2].n_out, 0);
  const Rule& e = set.get("e");
  EXPECT_EQ(e.kind, Rule::Kind::Expose);
  EXPECT_EQ(e.expose_count, 2);
  EXPECT_EQ(e.cap, 1);
  const Rule& o = set.get("o");
  EXPECT_EQ(o.kind, Rule::Kind::Reorder);
  EXPECT_TRUE(o.on_graph_out());
  EXPECT_EQ(o.str(), "reorder");
  EXPECT_EQ(o.cap, 1);
}

void expect_error(const std::string& text, int line, int col, const std::string& fragment) {
  try {
    parse_rules(text, "bad.rules");
    FAIL() << "no error for:\n" << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "bad.rules") << e.what();
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.what();
  }
}

TEST(RulesParse, LocatedErrors) {
  expect_error("rule a (add ?x ?y) => (add ?y ?z)", 1, 31, "?z is not bound");
  expect_error("rule a\n  (addd ?x ?y) => ?x", 2, 4, "unknown op 'addd'");
  expect_error("rule a (add ?x) => ?x", 1, 8, "takes 2 operand(s), got 1");
  expect_error("rule a (transpose ?x :prem ?p) => ?x", 1, 22, "has no attribute 'prem'");
  expect_error("rule a (concat ?x ?y :axis 0.5) => ?x", 1, 28, "must be int");
  expect_error("rule a (add ?x ?y) ?x", 1, 20, "expected '=>'");
  expect_error("rule a (add ?x ?y) => ?y\n  iff true", 2, 3, "unknown clause 'iff'");
  expect_error("rule a (add ?x ?y) => ?y\n  if (< r 1)", 2, 9, "unknown name 'r'");
  expect_error("rule a (add ?x ?y) => ?y\n  let r = 1\n  let r = 2", 3, 7, "bound twice");
  expect_error("rule a (add ?x ?y) => ?x\nrule a (mul ?x ?y) => ?x", 2, 1, "already defined");
  expect_error("rule a (add ?x ?y) => (concat ?x ?y)", 1, 23, "needs attribute :axis");
  expect_error("rule a ?x => (split@0 ?x)", 1, 15, "variable number of outputs");
  expect_error("rule a (split@x ?x) => ?x", 1, 9, "bad output index");
  expect_error("rule a (add ?x ?y) => (add ?x (transpose ?y :perm (frob 1)))", 1, 52,
               "unknown function 'frob'");
  expect_error("rule a (add ?x ?p) => (transpose ?x :perm ?p)", 1, 43, "bound to an operand");
  expect_error("rule a ?x => ?x", 1, 14, "to itself");
  expect_error("(add ?x ?y) => ?x", 1, 1, "expected 'rule NAME'");
  expect_error("rule a expose 0", 1, 8, "at least 1");
  expect_error("rule a reorder\n  if true", 2, 3, "a reorder rule takes only doc and cap");
  expect_error("rule a (add ?x ?y) => (graph_out ?x)", 1, 24, "cannot appear in a pattern");
}

TEST(RulesParse, BuiltinSetsAreEmbeddedAndLoad) {
  auto names = builtin_rule_set_names();
  EXPECT_EQ(names,
            (std::vector<std::string>{"fig6", "identities", "polyjuice", "polyjuice_extra"}));
  for (const auto& n : names) {
    RuleSet set = builtin_rules(n);
    EXPECT_FALSE(set.rules.empty()) << n;
    for (const Rule& r : set.rules) EXPECT_FALSE(r.doc.empty()) << n << " " << r.name;
  }
  EXPECT_EQ(builtin_rules("fig6").rules.size(), 3u);
  EXPECT_EQ(builtin_rules("polyjuice").rules.size(), 16u);  // Table 1 and graph-out-reorder
  EXPECT_THROW(builtin_rules("nope"), Error);
  EXPECT_NE(builtin_rules_text("fig6").find("fig6-add-assoc"), std::string_view::npos);
}

TEST(RulesParse, LoadsFilesFromTheSourceTree) {
  RuleSet set = load_rules_file(std::string(RETORT_SOURCE_DIR) + "/samples/rules/fig6.rules");
  EXPECT_EQ(set.rules.size(), 3u);
  EXPECT_EQ(set.rules[0].loc.file, std::string(RETORT_SOURCE_DIR) + "/samples/rules/fig6.rules");
  EXPECT_THROW(load_rules_file("/no/such/file.rules"), Error);
}

// Random token soup: parsing either succeeds or throws Error, never anything else.
TEST(RulesParse, GarbageNeverCrashes) {
  const char* tokens[] = {"rule",      "r",     "(",     ")",      "[",         "]",
                          "?x",        "?p",    ":perm", ":axis",  "add",       "transpose",
                          "split@1/2", "=>",    "if",    "let",    "pick",      "in",
                          "..",        "where", "cap",   "expose", "doc",       "\"s\"",
                          "1",         "-3",    "0.5",   "=",      "(rank ?x)", "(swap 2 0 1)",
                          "\n",        "#",     "@",     "r1",     "concat",    "?"};
  Rng rng(11);
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = "rule r ";
    int n = static_cast<int>(rng.uniform_int(1, 25));
    for (int k = 0; k < n; ++k) text += std::string(tokens[rng.uniform_int(0, 35)]) + " ";
    try {
      parse_rules(text);
      ++parsed;
    } catch (const Error&) {
    }
  }
  EXPECT_LT(parsed, 3000);
}

TEST(RulesParse, AppendRejectsDuplicates) {
  RuleSet a = parse_rules("rule x (add ?a ?b) => (add ?b ?a)");
  RuleSet b = parse_rules("rule y (mul ?a ?b) => (mul ?b ?a)");
  a.append(b);
  EXPECT_EQ(a.rules.size(), 2u);
  EXPECT_THROW(a.append(b), Error);
}

}  // namespace
}  // namespace retort
