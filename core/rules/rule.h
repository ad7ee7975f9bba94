// Rewrite rules and rule files (syntax in docs/rules.md).
//
//   rule add-transpose-wrap
//     doc "add(x,y) -> trans(add(trans(x), trans(y)))  (Polyjuice Table 1)"
//     (add ?x ?y) => (transpose (add (transpose ?x :perm (swap (rank ?x) r1 r2)) ...) ...)
//     if (>= (min-rank ?x ?y) 2)
//     let m = (max-rank ?x ?y)
//     pick r5 in (- m (min-rank ?x ?y)) .. (- m 1)
//     ...
//     cap 20
//
// Clauses run in the order written. The `if` and `let` clauses before the first `pick` are
// decided when matching (a match that fails them is no match); the rest run when the match is
// applied, with `pick` drawing from the applier's seeded Rng, and a failing `if` or an empty
// `pick` there skips that application.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/rules/expr.h"
#include "core/rules/pattern.h"

namespace retort {

struct RuleClause {
  enum class Kind { If, Let, Pick };
  Kind kind = Kind::If;
  int param = -1;              // Let, Pick: the parameter bound
  std::optional<Expr> expr;    // If: the condition; Let: the value; Pick: the filter (`where`)
  std::optional<Expr> lo, hi;  // Pick: the inclusive range
  SourceLoc loc;
};

struct Rule {
  enum class Kind {
    Rewrite,  // lhs => rhs
    Expose,   // Polyjuice's graph_out(x) -> graph_out(r1, x, r2): add intermediate tensors as
              // extra graph outputs (expose N: up to N of them per application)
    Reorder,  // graph_out(x, y) -> graph_out(y, x): the outputs in another order, drawn
  };
  Kind kind = Kind::Rewrite;
  std::string name;
  std::string doc;
  SourceLoc loc;
  VarTable vars;
  Pattern lhs, rhs;
  std::vector<RuleClause> clauses;
  size_t match_clauses = 0;  // the leading clauses decided at match time
  int64_t cap = -1;          // at most this many applications per runner iteration; -1: no cap
  int64_t expose_count = 0;  // Expose: outputs added per application
  // A rewrite none of whose clauses and computed right-hand-side nodes asks is-const: class
  // types, attribute values and parameters decide its applications' choices, which can then be
  // planned per binding (core/rules/apply_plan.h). Set by the parser.
  bool plannable = false;
  // There are match-time clauses, and none asks is-const: class types, attribute values and the
  // parameters they set decide them, so a search evaluates them once per such binding (a merge
  // can give a class a constant; its type never changes). Set by the parser.
  bool match_clauses_by_binding = false;

  // Expose and Reorder rewrite the graph_out e-node itself rather than a term.
  bool on_graph_out() const { return kind != Kind::Rewrite; }
  std::string str() const;  // "lhs => rhs", "expose N" or "reorder"
};

struct RuleSet {
  std::vector<Rule> rules;

  const Rule* find(const std::string& name) const;
  // Throws Error naming the close matches when absent.
  const Rule& get(const std::string& name) const;
  // Appends the rules of another set; a name present in both is an error.
  void append(const RuleSet& other);
};

// Throws `e` again with the rule named: "rule 'add-comm': ...".
[[noreturn]] void fail_in_rule(const Rule& rule, const Error& e);

// Parses a rule file; errors carry file:line:col.
RuleSet parse_rules(std::string_view text, const std::string& file = "");
// Reads and parses a file.
RuleSet load_rules_file(const std::string& path);

// The rule sets shipped in samples/rules/ (embedded at build time): "polyjuice",
// "polyjuice_extra", "fig6".
std::vector<std::string> builtin_rule_set_names();
RuleSet builtin_rules(const std::string& name);
// The embedded source text of a built-in set (for `rules show`).
std::string_view builtin_rules_text(const std::string& name);

}  // namespace retort
