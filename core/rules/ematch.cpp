#include "core/rules/ematch.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/egraph/render.h"

namespace retort {

namespace {

// A non-owning reference to a callable: the continuation of the backtracking matcher, passed
// down the recursion without allocating.
class Continuation {
 public:
  template <typename F>
  Continuation(const F& f)  // NOLINT: implicit by design
      : obj_(&f), call_([](const void* o) { (*static_cast<const F*>(o))(); }) {}
  void operator()() const { call_(obj_); }

 private:
  const void* obj_;
  void (*call_)(const void*);
};

// The members of a class with the given op: a contiguous run, as members are sorted by op.
// Most classes hold a few e-nodes, so a scan beats two binary searches there.
std::span<const ENode> nodes_with_op(const EClass& c, OpId op) {
  auto lo = c.nodes.begin(), end = c.nodes.end();
  if (end - lo > 8)
    lo = std::lower_bound(lo, end, op, [](const ENode& n, OpId o) { return n.op < o; });
  else
    while (lo != end && lo->op < op) ++lo;
  auto hi = lo;
  while (hi != end && hi->op == op) ++hi;
  return {lo, hi};
}

// How many parameters the match-time clauses bind: their `let`s, which are numbered first (a
// rule's parameters are numbered in clause order and no `pick` comes before them). A match keeps
// only these; apply_match sizes the list for the rest.
size_t match_time_params(const Rule& rule) {
  size_t n = 0;
  for (size_t i = 0; i < rule.match_clauses; ++i)
    if (rule.clauses[i].kind != RuleClause::Kind::If)
      n = std::max(n, static_cast<size_t>(rule.clauses[i].param) + 1);
  return n;
}

// The class of the graph input or constant with this name, if the e-graph has one.
std::optional<EClassId> leaf_class(const EGraph& eg, const std::string& name) {
  if (eg.inputs().count(name)) return eg.lookup(input_enode(name));
  if (eg.find_constant(name)) return eg.lookup(const_enode(name));
  return std::nullopt;
}

class Matcher {
 public:
  Matcher(const EGraph& eg, const Rule& rule, const SearchOptions& options, MatchList& out)
      : eg_(eg), rule_(rule), options_(options), out_(out), lhs_(rule.lhs) {
    classes_.resize(rule.vars.classes.size());
    attrs_.resize(rule.vars.attrs.size());
    class_bound_.assign(rule.vars.classes.size(), 0);
    attr_bound_.assign(rule.vars.attrs.size(), 0);
    matched_.assign(lhs_.nodes.size(), nullptr);
    for (const PatternNode& n : lhs_.nodes)
      leaves_.push_back(n.kind == PatternNode::Kind::Leaf ? leaf_class(eg, n.op) : std::nullopt);
    n_params_ = match_time_params(rule);
  }

  // Past the limit, cancelled or out of time; once true it stays true.
  bool done() {
    if (stopped_) return true;
    if (out_.size() >= options_.limit ||
        (options_.cancel && options_.cancel->load(std::memory_order_relaxed)))
      return stopped_ = true;
    // Reading the clock costs more than a candidate: look every 64 calls.
    if (timed_ && ++calls_ % 64 == 0 && std::chrono::steady_clock::now() > options_.deadline)
      return stopped_ = true;
    return false;
  }

  void search_root(EClassId cls) {
    if (done()) return;
    root_class_ = eg_.find(cls);
    match(lhs_.root_index(), root_class_, [this] { found(); });
  }

 private:
  void match(int pi, EClassId c, Continuation k) {
    const PatternNode& p = lhs_.nodes[pi];
    switch (p.kind) {
      case PatternNode::Kind::Var: {
        if (class_bound_[p.var]) {
          if (eg_.find(classes_[p.var]) == c) k();
          return;
        }
        classes_[p.var] = c;
        class_bound_[p.var] = 1;
        k();
        class_bound_[p.var] = 0;
        return;
      }
      case PatternNode::Kind::Leaf:
        if (leaves_[pi] && eg_.find(*leaves_[pi]) == c) k();
        return;
      case PatternNode::Kind::Op:
        break;
    }
    for (const ENode& n : nodes_with_op(eg_.eclass(c), p.op_id)) {
      if (done()) return;
      if (n.out != p.out || (p.n_out && n.n_out != p.n_out) ||
          n.children.size() != p.children.size())
        continue;
      matched_[pi] = &n;
      match_attrs(p, n, 0, [&] { match_children(p, n, 0, k); });
    }
  }

  void match_children(const PatternNode& p, const ENode& n, size_t i, Continuation k) {
    if (i == p.children.size()) return k();
    match(p.children[i], n.children[i], [&] { match_children(p, n, i + 1, k); });
  }

  void match_attrs(const PatternNode& p, const ENode& n, size_t j, Continuation k) {
    if (j == p.attrs.size()) return k();
    const AttrPattern& a = p.attrs[j];
    const Attrs& have = attrs_of(n.attrs);
    auto it = have.find(a.name);
    if (it == have.end()) return;
    if (a.kind == AttrPattern::Kind::Literal) {
      if (it->second == a.literal) match_attrs(p, n, j + 1, k);
      return;
    }
    if (attr_bound_[a.var]) {
      if (it->second == *attrs_[a.var]) match_attrs(p, n, j + 1, k);
      return;
    }
    attrs_[a.var] = &it->second;  // the pool keeps interned attributes for the process
    attr_bound_[a.var] = 1;
    match_attrs(p, n, j + 1, k);
    attr_bound_[a.var] = 0;
  }

  void found() {
    // Only the parameters the match-time clauses bind (none for most rules: their `pick`s run
    // when applied); apply_match sizes the list.
    if (n_params_) params_.assign(n_params_, Value{});
    MatchContext ctx(eg_, classes_, attrs_, params_);
    for (size_t i = 0; i < rule_.match_clauses; ++i) {
      const RuleClause& c = rule_.clauses[i];
      try {
        if (c.kind == RuleClause::Kind::If) {
          if (!c.expr->eval_bool(ctx)) return;
        } else {
          params_[c.param] = c.expr->eval(ctx);
        }
      } catch (const Error& e) {
        throw Error(fmt::format("rule '{}': {}", rule_.name, e.message()), e.loc());
      }
    }
    const ENode* node =
        lhs_.root().kind == PatternNode::Kind::Op ? matched_[lhs_.root_index()] : nullptr;
    out_.add(root_class_, node, classes_, attrs_, params_);
  }

  const EGraph& eg_;
  const Rule& rule_;
  const SearchOptions& options_;
  MatchList& out_;
  const Pattern& lhs_;
  std::vector<EClassId> classes_;
  std::vector<const AttrValue*> attrs_;
  std::vector<Value> params_;
  std::vector<uint8_t> class_bound_, attr_bound_;  // not vector<bool>: read on every candidate
  std::vector<const ENode*> matched_;
  std::vector<std::optional<EClassId>> leaves_;
  size_t n_params_ = 0;  // the parameters the match-time `let`s bind
  EClassId root_class_;
  bool stopped_ = false;
  bool timed_ = options_.deadline != std::chrono::steady_clock::time_point::max();
  uint32_t calls_ = 0;
};

// A graph_out rule matches each graph_out e-node; Reorder only those with two outputs to swap.
void search_graph_out(const EGraph& eg, const Rule& rule, EClassId cls,
                      const SearchOptions& options, MatchList& out) {
  for (const ENode& n : nodes_with_op(eg.eclass(cls), special_ops::kGraphOut)) {
    if (out.size() >= options.limit) return;
    if (rule.kind == Rule::Kind::Reorder && n.children.size() < 2) continue;
    out.add(eg.find(cls), &n, {}, {}, {});
  }
}

}  // namespace

MatchList::MatchList(const Rule& rule)
    : n_classes_(rule.vars.classes.size()),
      n_attrs_(rule.vars.attrs.size()),
      n_params_(match_time_params(rule)) {}

void MatchList::add(EClassId eclass, const ENode* node, std::span<const EClassId> classes,
                    std::span<const AttrValue* const> attrs, std::span<const Value> params) {
  eclass_.push_back(eclass);
  if (node) {
    roots_.push_back({node->op, node->attrs, node->out, node->n_out,
                      static_cast<uint32_t>(children_.size()),
                      static_cast<uint32_t>(node->children.size())});
    children_.insert(children_.end(), node->children.begin(), node->children.end());
  }
  // Most rules bind no attribute and no parameter: skip their empty lists.
  classes_.insert(classes_.end(), classes.begin(), classes.end());
  if (n_attrs_) attrs_.insert(attrs_.end(), attrs.begin(), attrs.end());
  if (n_params_) params_.insert(params_.end(), params.begin(), params.end());
}

void MatchList::reserve(size_t n, size_t arity) {
  eclass_.reserve(n);
  if (arity) {
    roots_.reserve(n);
    children_.reserve(n * arity);
  }
  classes_.reserve(n * n_classes_);
  attrs_.reserve(n * n_attrs_);
  params_.reserve(n * n_params_);
}

Match MatchList::at(size_t i) const {
  Match m;
  m.eclass = eclass_[i];
  if (!roots_.empty()) {
    const Root& r = roots_[i];
    m.node = ENode{r.op, r.attrs, r.out, r.n_out,
                   IdList(std::span<const EClassId>(children_.data() + r.first, r.count))};
  }
  m.subst.classes.assign(classes_.begin() + i * n_classes_,
                         classes_.begin() + (i + 1) * n_classes_);
  m.subst.attrs.reserve(n_attrs_);
  for (size_t j = 0; j < n_attrs_; ++j) m.subst.attrs.push_back(*attrs_[i * n_attrs_ + j]);
  if (!params_.empty())
    m.params.assign(params_.begin() + i * n_params_, params_.begin() + (i + 1) * n_params_);
  return m;
}

std::vector<Match> MatchList::all() const {
  std::vector<Match> out;
  out.reserve(size());
  for (size_t i = 0; i < size(); ++i) out.push_back(at(i));
  return out;
}

std::vector<Match> search(const EGraph& eg, const Rule& rule, const SearchOptions& options) {
  return find_matches(eg, rule, options).all();
}

MatchList find_matches(const EGraph& eg, const Rule& rule, const SearchOptions& options) {
  MatchList out(rule);
  if (rule.on_graph_out()) {
    for (EClassId c : eg.classes_with_op(special_ops::kGraphOut))
      search_graph_out(eg, rule, c, options, out);
    return out;
  }
  Matcher m(eg, rule, options, out);
  const PatternNode& root = rule.lhs.root();
  // Room for one match per candidate class: the ?x rules match nearly every class, and most
  // other rules about one e-node in each class that has their root op.
  switch (root.kind) {
    case PatternNode::Kind::Op: {
      std::span<const EClassId> roots = eg.classes_with_op(root.op_id);
      out.reserve(roots.size(), root.children.size());
      for (EClassId c : roots) {
        if (m.done()) break;
        m.search_root(c);
      }
      break;
    }
    case PatternNode::Kind::Var: {
      std::vector<EClassId> ids = eg.class_ids();
      out.reserve(ids.size(), 0);
      for (EClassId c : ids) {
        if (m.done()) break;
        if (eg.has_type(c)) m.search_root(c);
      }
      break;
    }
    case PatternNode::Kind::Leaf:
      if (auto c = leaf_class(eg, root.op)) m.search_root(*c);
      break;
  }
  return out;
}

std::vector<Match> search_class(const EGraph& eg, const Rule& rule, EClassId eclass,
                                const SearchOptions& options) {
  MatchList out(rule);
  if (rule.on_graph_out())
    search_graph_out(eg, rule, eclass, options, out);
  else if (!rule.lhs.is_var() || eg.has_type(eclass))
    Matcher(eg, rule, options, out).search_root(eclass);
  return out.all();
}

namespace {

std::string attr_text(const Subst& s, const AttrPattern& a) {
  switch (a.kind) {
    case AttrPattern::Kind::Literal:
      return attr_value_str(a.literal);
    case AttrPattern::Kind::Var:
      return attr_value_str(s.attrs[a.var]);
    case AttrPattern::Kind::Computed:
      return a.expr->str();
  }
  return "";
}

}  // namespace

std::string match_str(const EGraph& eg, const Rule& rule, const Match& m, size_t max_nodes) {
  if (rule.on_graph_out() || rule.lhs.is_var()) {
    if (m.node) return enode_str(eg, *m.node);
    return term_str(eg, m.eclass, max_nodes);
  }
  std::vector<std::string> text(rule.lhs.nodes.size());
  for (size_t i = 0; i < rule.lhs.nodes.size(); ++i) {
    const PatternNode& p = rule.lhs.nodes[i];
    switch (p.kind) {
      case PatternNode::Kind::Var:
        text[i] = term_str(eg, m.subst.classes[p.var], max_nodes);
        break;
      case PatternNode::Kind::Leaf:
        text[i] = p.op;
        break;
      case PatternNode::Kind::Op: {
        std::string s = "(" + p.op;
        for (int c : p.children) s += " " + text[c];
        for (const auto& a : p.attrs) s += fmt::format(" {}={}", a.name, attr_text(m.subst, a));
        text[i] = s + ")";
        break;
      }
    }
  }
  return text.back();
}

std::string subst_str(const EGraph& eg, const Rule& rule, const Subst& s, size_t max_nodes) {
  std::string out;
  auto add = [&](const std::string& item) { out += (out.empty() ? "" : ", ") + item; };
  for (size_t i = 0; i < rule.vars.classes.size() && i < s.classes.size(); ++i)
    add(fmt::format("?{} = {}", rule.vars.classes[i], term_str(eg, s.classes[i], max_nodes)));
  for (size_t i = 0; i < rule.vars.attrs.size() && i < s.attrs.size(); ++i)
    add(fmt::format("?{} = {}", rule.vars.attrs[i], attr_value_str(s.attrs[i])));
  return out;
}

std::string subst_ids_str(const Rule& rule, const Subst& s) {
  std::string out;
  auto add = [&](const std::string& item) { out += (out.empty() ? "" : " ") + item; };
  for (size_t i = 0; i < rule.vars.classes.size() && i < s.classes.size(); ++i)
    add(fmt::format("?{}=e{}", rule.vars.classes[i], s.classes[i].value));
  for (size_t i = 0; i < rule.vars.attrs.size() && i < s.attrs.size(); ++i)
    add(fmt::format("?{}={}", rule.vars.attrs[i], attr_value_str(s.attrs[i])));
  return out;
}

}  // namespace retort
