#include "core/rules/rule.h"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/suggest.h"

namespace retort {

namespace {

bool asks_is_const(const std::optional<Expr>& e) {
  return e && e->asks_is_const();
}

bool asks_is_const(const RuleClause& c) {
  return asks_is_const(c.expr) || asks_is_const(c.lo) || asks_is_const(c.hi);
}

// Rule::plannable: a rewrite whose clauses, computed attributes and outputs never ask is-const
// (so that types, attribute values and parameters decide them).
bool plannable(const Rule& rule) {
  if (rule.on_graph_out()) return false;
  for (const RuleClause& c : rule.clauses)
    if (asks_is_const(c)) return false;
  for (const PatternNode& p : rule.rhs.nodes) {
    if (p.kind != PatternNode::Kind::Op || p.fixed) continue;
    if (asks_is_const(p.out_expr)) return false;
    for (const AttrPattern& a : p.attrs)
      if (a.kind == AttrPattern::Kind::Computed && asks_is_const(a.expr)) return false;
  }
  return true;
}

// Rule::match_clauses_by_binding.
bool match_clauses_by_binding(const Rule& rule) {
  for (size_t i = 0; i < rule.match_clauses; ++i)
    if (asks_is_const(rule.clauses[i])) return false;
  return rule.match_clauses > 0;
}

}  // namespace

// Defined in the build's generated/embedded_rules.cpp (see CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_rule_files();

std::string Rule::str() const {
  if (kind == Kind::Expose) return fmt::format("expose {}", expose_count);
  if (kind == Kind::Reorder) return "reorder";
  return lhs.str(vars) + " => " + rhs.str(vars);
}

void fail_in_rule(const Rule& rule, const Error& e) {
  throw Error(fmt::format("rule '{}': {}", rule.name, e.message()), e.loc());
}

const Rule* RuleSet::find(const std::string& name) const {
  for (const auto& r : rules)
    if (r.name == name) return &r;
  return nullptr;
}

const Rule& RuleSet::get(const std::string& name) const {
  if (const Rule* r = find(name)) return *r;
  std::vector<std::string> names;
  for (const auto& r : rules) names.push_back(r.name);
  // A misspelling is a few edits away; a part of a name ("comm") is contained in it.
  std::vector<std::string> close = closest_matches(name, names);
  if (close.empty())
    for (const auto& n : names)
      if (n.find(name) != std::string::npos || name.find(n) != std::string::npos)
        close.push_back(n);
  if (close.empty()) fail("no rule named '{}' (try `rules`)", name);
  fail("no rule named '{}'; did you mean {}?", name, fmt::join(close, " or "));
}

void RuleSet::append(const RuleSet& other) {
  for (const auto& r : other.rules) {
    if (const Rule* old = find(r.name))
      throw Error(fmt::format("rule '{}' is already defined at {}", r.name, old->loc.str()), r.loc);
    rules.push_back(r);
  }
}

namespace {

const std::set<std::string, std::less<>> kClauseWords = {
    "rule", "doc", "if", "let", "pick", "cap", "in", "where", "expose", "reorder"};

class RuleFileParser {
 public:
  explicit RuleFileParser(std::vector<SExpr> items) : items_(std::move(items)) {}

  RuleSet run() {
    RuleSet set;
    while (pos_ < items_.size()) {
      const SExpr& head = items_[pos_];
      if (!head.is_symbol("rule"))
        fail_at(head, fmt::format("expected 'rule NAME', got {}", head.str()));
      Rule r = rule();
      if (const Rule* old = set.find(r.name))
        throw Error(fmt::format("rule '{}' is already defined at {}", r.name, old->loc.str()),
                    r.loc);
      set.rules.push_back(std::move(r));
    }
    return set;
  }

 private:
  bool at_end() const { return pos_ >= items_.size(); }

  const SExpr& next(const SExpr& after, const std::string& what) {
    if (at_end()) fail_at(after, fmt::format("expected {} after {}", what, after.str()));
    return items_[pos_++];
  }

  const SExpr& expect_symbol(const SExpr& after, std::string_view word) {
    const SExpr& e = next(after, fmt::format("'{}'", word));
    if (!e.is_symbol(word)) fail_at(e, fmt::format("expected '{}', got {}", word, e.str()));
    return e;
  }

  std::string name_after(const SExpr& after, const std::string& what) {
    const SExpr& e = next(after, what);
    if (e.kind != SExpr::Kind::Symbol || kClauseWords.count(e.text))
      fail_at(e, fmt::format("expected {}, got {}", what, e.str()));
    return e.text;
  }

  int64_t int_after(const SExpr& after, const std::string& what) {
    const SExpr& e = next(after, what);
    if (e.kind != SExpr::Kind::Int || e.int_value < 0)
      fail_at(e, fmt::format("expected {} (an int >= 0), got {}", what, e.str()));
    return e.int_value;
  }

  std::string doc_after(const SExpr& kw) {
    const SExpr& d = next(kw, "a \"string\"");
    if (d.kind != SExpr::Kind::String) fail_at(d, "doc takes a \"string\"");
    return d.text;
  }

  Rule rule() {
    const SExpr& kw = items_[pos_++];
    Rule r;
    r.loc = kw.loc;
    r.name = name_after(kw, "a rule name");
    while (!at_end() && items_[pos_].is_symbol("doc")) r.doc = doc_after(items_[pos_++]);
    const SExpr& first = next(kw, "the rule's 'lhs => rhs', 'expose N' or 'reorder'");
    const SExpr* rhs = nullptr;
    if (first.is_symbol("reorder")) {
      r.kind = Rule::Kind::Reorder;
    } else if (first.is_symbol("expose")) {
      r.kind = Rule::Kind::Expose;
      r.expose_count = int_after(first, "the number of outputs to expose");
      if (r.expose_count == 0) fail_at(first, "expose needs at least 1 output");
    } else {
      r.lhs = parse_pattern(first, r.vars, PatternSide::Lhs);
      const SExpr& arrow = expect_symbol(first, "=>");
      rhs = &next(arrow, "a right-hand side");
    }
    clauses(r);
    if (rhs) {
      r.rhs = parse_pattern(*rhs, r.vars, PatternSide::Rhs);
      check_rhs_root(r, *rhs);
    }
    r.plannable = plannable(r);
    r.match_clauses_by_binding = match_clauses_by_binding(r);
    return r;
  }

  void check_rhs_root(const Rule& r, const SExpr& rhs) {
    const PatternNode& lroot = r.lhs.root();
    const PatternNode& rroot = r.rhs.root();
    if (r.lhs.is_var() && r.rhs.is_var() && lroot.var == rroot.var)
      fail_at(rhs, "the rule rewrites a term to itself");
  }

  void clauses(Rule& r) {
    std::set<std::string> seen_params;
    bool picked = false;
    while (!at_end() && !items_[pos_].is_symbol("rule")) {
      const SExpr& kw = items_[pos_++];
      if (kw.kind != SExpr::Kind::Symbol)
        fail_at(kw, fmt::format("expected a clause (doc, if, let, pick, cap) or the next rule, "
                                "got {}",
                                kw.str()));
      if (kw.text == "doc") {
        r.doc = doc_after(kw);
        continue;
      }
      if (kw.text == "cap") {
        r.cap = int_after(kw, "the per-iteration application cap");
        continue;
      }
      if (r.on_graph_out() && kw.text != "doc" && kw.text != "cap")
        fail_at(kw, fmt::format("{} rule takes only doc and cap clauses",
                                r.kind == Rule::Kind::Expose ? "an expose" : "a reorder"));
      RuleClause c;
      c.loc = kw.loc;
      if (kw.text == "if") {
        c.kind = RuleClause::Kind::If;
        c.expr = Expr::parse(next(kw, "a condition"), r.vars);
      } else if (kw.text == "let" || kw.text == "pick") {
        std::string name = name_after(kw, "a parameter name");
        if (!seen_params.insert(name).second)
          fail_at(items_[pos_ - 1], fmt::format("parameter '{}' is bound twice", name));
        if (kw.text == "let") {
          c.kind = RuleClause::Kind::Let;
          const SExpr& eq = expect_symbol(kw, "=");
          c.expr = Expr::parse(next(eq, "a value"), r.vars);
        } else {
          c.kind = RuleClause::Kind::Pick;
          picked = true;
          const SExpr& in = expect_symbol(kw, "in");
          c.lo = Expr::parse(next(in, "the low end of the range"), r.vars);
          const SExpr& dots = expect_symbol(in, "..");
          c.hi = Expr::parse(next(dots, "the high end of the range"), r.vars);
        }
        c.param = static_cast<int>(r.vars.params.size());
        r.vars.params.push_back(name);
        // `where` sees the parameter being picked.
        if (c.kind == RuleClause::Kind::Pick && !at_end() && items_[pos_].is_symbol("where")) {
          const SExpr& w = items_[pos_++];
          c.expr = Expr::parse(next(w, "a condition"), r.vars);
        }
      } else {
        fail_at(kw,
                fmt::format("unknown clause '{}' (expected doc, if, let, pick or cap)", kw.text));
      }
      r.clauses.push_back(std::move(c));
      if (!picked) r.match_clauses = r.clauses.size();
    }
  }

  std::vector<SExpr> items_;
  size_t pos_ = 0;
};

}  // namespace

RuleSet parse_rules(std::string_view text, const std::string& file) {
  return RuleFileParser(read_sexprs(text, file)).run();
}

RuleSet load_rules_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read rule file '{}'", path);
  std::stringstream buf;
  buf << in.rdbuf();
  return parse_rules(buf.str(), path);
}

std::vector<std::string> builtin_rule_set_names() {
  std::vector<std::string> out;
  for (const auto& [name, _] : embedded_rule_files()) out.emplace_back(name);
  return out;
}

std::string_view builtin_rules_text(const std::string& name) {
  for (const auto& [n, text] : embedded_rule_files())
    if (n == name) return text;
  fail_unknown("rule set", name, builtin_rule_set_names());
}

RuleSet builtin_rules(const std::string& name) {
  return parse_rules(builtin_rules_text(name), fmt::format("samples/rules/{}.rules", name));
}

}  // namespace retort
