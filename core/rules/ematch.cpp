#include "core/rules/ematch.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/egraph/render.h"

namespace retort {

namespace {

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
      : eg_(eg),
        rule_(rule),
        options_(options),
        out_(out),
        lhs_(rule.lhs),
        prog_(rule.lhs.program),
        regs_(std::move(out.scratch().regs)),
        cands_(std::move(out.scratch().cands)),
        classes_(std::move(out.scratch().classes)),
        attrs_(std::move(out.scratch().attrs)),
        n_params_(match_time_params(rule)),
        by_binding_(rule.match_clauses_by_binding),
        root_is_op_(lhs_.root().kind == PatternNode::Kind::Op) {
    regs_.assign(prog_.n_regs, EClassId());
    cands_.assign(prog_.instrs.size(), {});
    classes_.assign(rule.vars.classes.size(), EClassId());
    attrs_.assign(rule.vars.attrs.size(), nullptr);
    for (const Instr& in : prog_.instrs)
      if (in.kind == Instr::Kind::Leaf) leaves_[in.node] = leaf_class(eg, lhs_.nodes[in.node].op);
  }

  ~Matcher() {
    MatchList::Scratch& s = out_.scratch();
    s.regs = std::move(regs_);
    s.cands = std::move(cands_);
    s.classes = std::move(classes_);
    s.attrs = std::move(attrs_);
  }
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

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
    regs_[0] = root_class_;
    run();
  }

 private:
  using Instr = MatchProgram::Instr;

  // Every match of the program from register 0's class: a depth-first search where each Bind
  // keeps its own candidates, and a failed step resumes the latest Bind.
  void run() {
    const size_t n = prog_.instrs.size();
    size_t pc = 0;
    while (true) {
      bool ok = true;
      while (ok && pc < n) {
        const Instr& in = prog_.instrs[pc];
        switch (in.kind) {
          case Instr::Kind::SameClass:
            ok = eg_.find(regs_[in.reg]) == regs_[in.arg];
            break;
          case Instr::Kind::Leaf:
            ok = leaf_matches(in.node, regs_[in.reg]);
            break;
          case Instr::Kind::Bind: {
            const PatternNode& p = lhs_.nodes[in.node];
            cands_[pc] = nodes_with_op(eg_.eclass(regs_[in.reg]), p.op_id);
            ok = next_candidate(pc);
            break;
          }
        }
        if (ok) ++pc;
      }
      if (ok) found();
      if (stopped_) return;
      // Backtrack to the latest Bind with another candidate.
      while (true) {
        if (pc == 0) return;
        --pc;
        if (prog_.instrs[pc].kind == Instr::Kind::Bind && next_candidate(pc)) break;
        if (stopped_) return;
      }
      ++pc;
    }
  }

  // Takes the next e-node of Bind pc's candidates that fits the pattern node: its children
  // go to their registers, its attribute variables are bound. False when none is left.
  bool next_candidate(size_t pc) {
    const Instr& in = prog_.instrs[pc];
    const PatternNode& p = lhs_.nodes[in.node];
    std::span<const ENode>& c = cands_[pc];
    while (!c.empty()) {
      if (done()) return false;
      const ENode& n = c.front();
      c = c.subspan(1);
      if (n.out != p.out || (p.n_out && n.n_out != p.n_out) ||
          n.children.size() != p.children.size())
        continue;
      if (!p.attrs.empty() && !match_attrs(p, prog_.attr_binds[in.node], n)) continue;
      if (pc == 0) root_node_ = &n;
      std::span<const EClassId> kids = n.children.span();
      for (size_t i = 0; i < kids.size(); ++i) regs_[in.arg + i] = kids[i];
      return true;
    }
    return false;
  }

  bool match_attrs(const PatternNode& p, const std::vector<uint8_t>& binds, const ENode& n) {
    for (size_t j = 0; j < p.attrs.size(); ++j) {
      const AttrPattern& a = p.attrs[j];
      const AttrValue* have = attr_named(a, n.attrs);
      if (!have) return false;
      if (a.kind == AttrPattern::Kind::Literal) {
        if (!(*have == a.literal)) return false;
      } else if (binds[j]) {
        attrs_[a.var] = have;  // the pool keeps interned attributes for the process
      } else if (!(*have == *attrs_[a.var])) {
        return false;
      }
    }
    return true;
  }

  // The value of pattern attribute a's name in attribute set `id` (null when absent). A search
  // meets the same few sets over and over (a rank-2 transpose has one of two perms), and finding
  // a name in a set's map compares strings: each answer is kept for the search.
  const AttrValue* attr_named(const AttrPattern& a, AttrsId id) {
    for (const AttrSeen& s : attrs_seen_)
      if (s.id == id && s.pattern == &a) return s.value;
    const Attrs& have = attrs_of(id);
    auto it = have.find(a.name);
    const AttrValue* value = it == have.end() ? nullptr : &it->second;
    if (attrs_seen_.size() < kAttrsSeen) attrs_seen_.push_back({id, &a, value});
    return value;
  }

  bool leaf_matches(int node, EClassId c) const {
    const std::optional<EClassId>& leaf = leaves_.at(node);
    return leaf && eg_.find(*leaf) == c;
  }

  void found() {
    for (size_t v = 0; v < classes_.size(); ++v) classes_[v] = regs_[prog_.class_reg[v]];
    if (rule_.match_clauses && !clauses_pass()) return;
    out_.add(root_class_, root_is_op_ ? root_node_ : nullptr, classes_, attrs_, params_);
  }

  // The match-time clauses' verdict, their parameters bound. Where they read only class types
  // and attribute values, a search sees few bindings of them (every add of two f32[4,4] asks the
  // same rank question; transposes share a few perms), so it keeps each binding's outcome rather
  // than evaluating the clauses again. An attribute is keyed by its address: the maps it lies in
  // are interned, and none goes away during a search.
  bool clauses_pass() {
    if (!by_binding_) return evaluate_clauses();
    key_.resize(classes_.size() + attrs_.size());
    for (size_t v = 0; v < classes_.size(); ++v) key_[v] = eg_.type_id(classes_[v]).value;
    for (size_t a = 0; a < attrs_.size(); ++a)
      key_[classes_.size() + a] = reinterpret_cast<uintptr_t>(attrs_[a]);
    // Compared by a hash first: the scan over the outcomes kept is for nearly every match.
    uint64_t hash = 0;
    for (uintptr_t w : key_) hash = (hash ^ w) * 0xff51afd7ed558ccdull;
    for (const Outcome& o : outcomes_)
      if (o.hash == hash && o.binding == key_) {
        std::copy(o.params.begin(), o.params.end(), params_.begin());
        return o.pass;
      }
    bool pass = evaluate_clauses();
    if (outcomes_.size() < kOutcomes) outcomes_.push_back({key_, hash, pass, params_});
    return pass;
  }

  bool evaluate_clauses() {
    // Only the parameters the match-time clauses bind (none for most rules: their `pick`s run
    // when applied); apply_match sizes the list.
    if (n_params_) params_.assign(n_params_, Value{});
    MatchContext ctx(eg_, classes_, attrs_, params_);
    for (size_t i = 0; i < rule_.match_clauses; ++i) {
      const RuleClause& c = rule_.clauses[i];
      try {
        if (c.kind == RuleClause::Kind::If) {
          if (!c.expr->eval_bool(ctx)) return false;
        } else {
          params_[c.param] = c.expr->eval(ctx);
        }
      } catch (const Error& e) {
        throw Error(fmt::format("rule '{}': {}", rule_.name, e.message()), e.loc());
      }
    }
    return true;
  }

  // One binding of class types and attributes and what the clauses said for it (by_binding_);
  // a search keeps at most kOutcomes, and evaluates the clauses for any further binding.
  struct Outcome {
    std::vector<uintptr_t> binding;
    uint64_t hash;
    bool pass;
    std::vector<Value> params;
  };
  static constexpr size_t kOutcomes = 32;
  struct AttrSeen {
    AttrsId id;
    const AttrPattern* pattern;
    const AttrValue* value;
  };
  static constexpr size_t kAttrsSeen = 32;

  const EGraph& eg_;
  const Rule& rule_;
  const SearchOptions& options_;
  MatchList& out_;
  const Pattern& lhs_;
  const MatchProgram& prog_;
  // Taken from the list's scratch (MatchList::Scratch) and given back at the end: members of
  // their own, as the search reads them in its inner loops.
  std::vector<EClassId> regs_;
  std::vector<std::span<const ENode>> cands_;  // by Bind instruction: the e-nodes left to try
  std::vector<EClassId> classes_;
  std::vector<const AttrValue*> attrs_;
  std::vector<Value> params_;
  // By Leaf pattern node: the class of its graph input or constant (few rules have leaves).
  std::map<int, std::optional<EClassId>> leaves_;
  const ENode* root_node_ = nullptr;
  size_t n_params_ = 0;  // the parameters the match-time `let`s bind
  bool by_binding_ = false;
  std::vector<uintptr_t> key_;  // the current match's binding (by_binding_)
  std::vector<Outcome> outcomes_;
  std::vector<AttrSeen> attrs_seen_;  // attr_named's answers in this search
  EClassId root_class_;
  bool root_is_op_ = false;
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

MatchList::MatchList(const Rule& rule) {
  reset(rule);
}

void MatchList::reset(const Rule& rule) {
  n_classes_ = rule.vars.classes.size();
  n_attrs_ = rule.vars.attrs.size();
  n_params_ = match_time_params(rule);
  eclass_.clear();
  roots_.clear();
  children_.clear();
  classes_.clear();
  attrs_.clear();
  params_.clear();
}

void MatchList::add(EClassId eclass, const ENode* node, std::span<const EClassId> classes,
                    std::span<const AttrValue* const> attrs, std::span<const Value> params) {
  eclass_.push_back(eclass);
  if (node) {
    roots_.push_back({node->op, node->attrs, node->out, node->n_out,
                      static_cast<uint32_t>(children_.size()),
                      static_cast<uint32_t>(node->children.size())});
    children_.append(node->children.span());
  }
  // Most rules bind no attribute and no parameter: skip their empty lists.
  classes_.append(classes);
  if (n_attrs_) attrs_.append(attrs);
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
  get(i, m);
  return m;
}

void MatchList::get(size_t i, Match& m) const {
  m.eclass = eclass_[i];
  if (roots_.empty()) {
    m.node.reset();
  } else {
    const Root& r = roots_[i];
    std::span<const EClassId> kids(children_.data() + r.first, r.count);
    if (!m.node) m.node.emplace();
    m.node->op = r.op;
    m.node->attrs = r.attrs;
    m.node->out = r.out;
    m.node->n_out = r.n_out;
    // A rule's root op mostly has the same arity from match to match: the ids are copied over.
    if (m.node->children.size() == kids.size())
      std::copy(kids.begin(), kids.end(), m.node->children.begin());
    else
      m.node->children = IdList(kids);
  }
  m.subst.classes.assign(classes_.begin() + i * n_classes_,
                         classes_.begin() + (i + 1) * n_classes_);
  // Assigned in place: a list attribute (a perm) keeps its storage when it was a list before.
  m.subst.attrs.resize(n_attrs_);
  for (size_t j = 0; j < n_attrs_; ++j) m.subst.attrs[j] = *attrs_[i * n_attrs_ + j];
  if (params_.empty())
    m.params.clear();
  else
    m.params.assign(params_.begin() + i * n_params_, params_.begin() + (i + 1) * n_params_);
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
  find_matches(eg, rule, options, out);
  return out;
}

void find_matches(const EGraph& eg, const Rule& rule, const SearchOptions& options,
                  MatchList& out) {
  out.reset(rule);
  if (rule.on_graph_out()) {
    for (EClassId c : eg.classes_with_op(special_ops::kGraphOut))
      search_graph_out(eg, rule, c, options, out);
    return;
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
