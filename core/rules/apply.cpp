#include "core/rules/apply.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/egraph/attrs_scope.h"
#include "core/egraph/render.h"

namespace retort {

std::string_view apply_outcome_name(ApplyOutcome o) {
  switch (o) {
    case ApplyOutcome::Applied:
      return "applied";
    case ApplyOutcome::Unchanged:
      return "unchanged";
    case ApplyOutcome::Skipped:
      return "skipped";
    case ApplyOutcome::Rejected:
      return "rejected";
  }
  return "?";
}

namespace {

// Runs the application-time clauses, drawing each pick's value; returns why the application is
// skipped, or nothing. `candidates` is a buffer for a pick's values.
std::optional<std::string> choose_params(const EGraph& eg, const Rule& rule, const Match& m,
                                         std::vector<Value>& params,
                                         std::vector<int64_t>& candidates, Rng& rng) {
  for (size_t i = rule.match_clauses;;) {
    ClauseRun run = run_clauses(eg, rule, m, i, params, candidates);
    if (run.skip) return std::move(run.skip);
    if (run.pick < 0) return std::nullopt;
    params[run.pick] = candidates[rng.uniform_int(0, static_cast<int64_t>(candidates.size()) - 1)];
    i = run.next;
  }
}

// Intermediate tensors an Expose rule may add to the outputs of graph_out node `out`: classes
// reachable from it that are tensors, hold no input or constant, and are not outputs yet, in
// increasing id order. Marks by class id rather than sets: the walk may cover the whole e-graph.
std::vector<EClassId> expose_candidates(const EGraph& eg, const ENode& out) {
  constexpr uint8_t kSeen = 1, kOutput = 2;
  std::vector<uint8_t> mark(eg.term_count(), 0);
  std::vector<EClassId> stack;
  for (EClassId c : out.children) {
    mark[eg.find(c).value] |= kOutput;
    stack.push_back(eg.find(c));
  }
  std::vector<EClassId> seen;
  while (!stack.empty()) {
    EClassId c = stack.back();
    stack.pop_back();
    if (mark[c.value] & kSeen) continue;
    mark[c.value] |= kSeen;
    seen.push_back(c);
    for (const ENode& n : eg.eclass(c).nodes)
      for (EClassId k : n.children) {
        EClassId kc = eg.find(k);
        if (!(mark[kc.value] & kSeen)) stack.push_back(kc);
      }
  }
  std::sort(seen.begin(), seen.end());
  std::vector<EClassId> out_ids;
  for (EClassId c : seen) {
    if ((mark[c.value] & kOutput) || !eg.has_type(c)) continue;
    const auto& nodes = eg.eclass(c).nodes;
    bool leaf =
        std::any_of(nodes.begin(), nodes.end(), [](const ENode& n) { return is_leaf_op(n.op); });
    if (!leaf) out_ids.push_back(c);
  }
  return out_ids;
}

std::vector<EClassId> choose_exposed(const EGraph& eg, const Rule& rule, const Match& m, Rng& rng) {
  std::vector<EClassId> pool = expose_candidates(eg, *m.node);
  size_t n = std::min<size_t>(pool.size(), static_cast<size_t>(rule.expose_count));
  for (size_t i = 0; i < n; ++i)
    std::swap(
        pool[i],
        pool[rng.uniform_int(static_cast<int64_t>(i), static_cast<int64_t>(pool.size()) - 1)]);
  pool.resize(n);
  return pool;
}

// A Reorder rule's new order of the outputs of graph_out node `out`: a uniformly drawn
// permutation that lists other classes than `out` does somewhere (rotated by one where the draw
// changed nothing); empty when every order is the same (fewer than two distinct outputs).
std::vector<EClassId> choose_order(const EGraph& eg, const ENode& out, Rng& rng) {
  std::vector<EClassId> kids = out.children.vec();
  auto same_order = [&](const std::vector<EClassId>& order) {
    for (size_t i = 0; i < order.size(); ++i)
      if (eg.find(order[i]) != eg.find(out.children[i])) return false;
    return true;
  };
  for (size_t i = kids.size(); i > 1; --i)
    std::swap(kids[i - 1],
              kids[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i) - 1))]);
  if (same_order(kids) && !kids.empty()) std::rotate(kids.begin(), kids.begin() + 1, kids.end());
  if (same_order(kids)) return {};
  return kids;
}

using Slot = ApplyMemo::Scratch::Slot;

class Instance {
 public:
  // `leaf`, when given, is where the match's plan ended: its computed nodes are taken from
  // there (and put there by the first application that reaches it).
  Instance(EGraph& eg, const Rule& rule, const Match& m, const std::vector<Value>& params,
           ApplyMemo& memo, ApplyPlan::Leaf* leaf)
      : eg_(eg),
        rule_(rule),
        m_(m),
        ctx_(eg, m.subst, params),
        memo_(memo),
        slots_(memo.scratch.slots),
        leaf_(leaf) {
    slots_.clear();
    if (leaf_ && leaf_->state == ApplyPlan::Leaf::State::Unknown) plan_leaf();
    if (leaf_ && leaf_->state != ApplyPlan::Leaf::State::Ready) leaf_ = nullptr;
  }

  // Builds the slots, resolves those the e-graph already holds and type-checks the others;
  // returns why the instance is rejected, or nothing. A node the e-graph holds has its class's
  // type, so only the others are inferred (most applications find their whole right-hand side
  // there already). Looking up changes nothing, so the outcome and its reason are those of
  // checking each node's type as it is built.
  std::optional<std::string> build(const std::vector<EClassId>& exposed) {
    if (rule_.on_graph_out()) {
      try {
        // Expose appends its classes; Reorder's are the outputs in their new order.
        std::vector<EClassId> kids = exposed;
        if (rule_.kind == Rule::Kind::Expose) {
          kids = m_.node->children.vec();
          kids.insert(kids.end(), exposed.begin(), exposed.end());
        }
        Slot s;
        s.fresh = true;
        s.node = graph_out_enode(kids);
        slots_.push_back(std::move(s));
      } catch (const Error& e) {
        return e.message();
      }
      resolve_known();
      return std::nullopt;
    }
    for (size_t i = 0; i < rule_.rhs.nodes.size(); ++i) {
      std::optional<std::string> why;
      try {
        why = add_slot(i);
      } catch (const Error& e) {
        why = e.message();
      }
      if (why) {
        slots_.pop_back();  // this node's slot, unfinished
        // The nodes before this one would have been type-checked first.
        if (auto bad = infer_types()) return bad;
        return why;
      }
    }
    resolve_known();
    if (auto bad = infer_types()) return bad;
    const Slot& root = slots_.back();
    TypeId want = eg_.type_id(m_.eclass);
    if (root.type != want)
      return fmt::format("the right-hand side is {} but the matched term is {}",
                         eg_.type_of(root.type).str(), eg_.type(m_.eclass).str());
    return std::nullopt;
  }

  // True when the whole right-hand side is already in the matched class.
  bool already_there() const {
    return !slots_.back().fresh && eg_.same(slots_.back().id, m_.eclass);
  }

  std::optional<std::string> constant_clash() const {
    const Slot& root = slots_.back();
    if (root.fresh) return std::nullopt;
    const Constant* a = eg_.constant(m_.eclass);
    const Constant* b = eg_.constant(root.id);
    if (a && b && !(a->value == b->value))
      return fmt::format("it would merge constants '{}' and '{}', which differ", a->name, b->name);
    return std::nullopt;
  }

  EClassId add() {
    for (Slot& s : slots_) {
      if (!s.fresh) continue;
      children_known(s);
      // An op slot's type was inferred by build(); the graph_out root has none.
      s.id = rule_.on_graph_out() ? eg_.add(s.node) : eg_.add(s.node, s.type);
      s.fresh = false;
    }
    return slots_.back().id;
  }

 private:
  // Resolves the fresh slots that the e-graph already holds (children first): each takes its
  // class and that class's type.
  void resolve_known() {
    for (Slot& s : slots_) {
      if (!s.fresh || !children_known(s)) continue;
      if (auto id = eg_.lookup(s.node)) {
        s.fresh = false;
        s.id = *id;
        s.type = eg_.type_id(*id);
      }
    }
  }

  // Infers the type of each fresh slot in order, its children's types known by then; returns
  // the first ill-typed one's error, or nothing.
  std::optional<std::string> infer_types() {
    try {
      for (Slot& s : slots_)
        if (s.fresh) s.type = infer_fresh(s.node, s.kids);
    } catch (const Error& e) {
      return e.message();
    }
    return std::nullopt;
  }

  bool children_known(Slot& s) {
    for (size_t i = 0; i < s.kids.size(); ++i) {
      const Slot& k = slots_[s.kids[i]];
      if (k.fresh) return false;
      s.node.children[i] = k.id;
    }
    return true;
  }

  // Instantiates the leaf's computed nodes: each one's e-node, or why it cannot be built, as
  // add_slot would find it. A node with attributes of a fuzz case's AttrsScope leaves the leaf
  // unplanned, as the memo does not keep them either.
  void plan_leaf() {
    leaf_->nodes.resize(rule_.rhs.nodes.size());
    leaf_->state = ApplyPlan::Leaf::State::Ready;
    for (size_t i = 0; i < rule_.rhs.nodes.size(); ++i) {
      const PatternNode& p = rule_.rhs.nodes[i];
      if (p.kind != PatternNode::Kind::Op || p.fixed) continue;
      PlannedNode& planned = leaf_->nodes[i];
      try {
        planned.why = instantiate(p, planned.node);
      } catch (const Error& e) {
        planned.why = e.message();
      }
      if (!planned.why && attrs_scoped(planned.node.attrs))
        leaf_->state = ApplyPlan::Leaf::State::Unplanned;
    }
  }

  // Appends the slot of right-hand-side node i (left unfinished when it fails).
  std::optional<std::string> add_slot(size_t i) {
    const PatternNode& p = rule_.rhs.nodes[i];
    Slot& s = slots_.emplace_back();
    switch (p.kind) {
      case PatternNode::Kind::Var:
        s.id = m_.subst.classes[p.var];
        s.type = tensor_type(s.id);
        break;
      case PatternNode::Kind::Leaf: {
        std::optional<EClassId> c;
        if (eg_.inputs().count(p.op))
          c = eg_.lookup(input_enode(p.op));
        else if (eg_.find_constant(p.op))
          c = eg_.lookup(const_enode(p.op));
        if (!c) return fmt::format("the e-graph has no input or constant '{}'", p.op);
        s.id = *c;
        s.type = tensor_type(*c);
        break;
      }
      case PatternNode::Kind::Op: {
        if (p.fixed) {
          s.node = *p.fixed;
        } else if (leaf_) {
          const PlannedNode& planned = leaf_->nodes[i];
          if (planned.why) return planned.why;
          s.node = planned.node;
        } else if (auto why = instantiate(p, s.node)) {
          return why;
        }
        s.fresh = true;
        s.kids = p.children;  // its type is inferred once the known slots are resolved
        break;
      }
    }
    return std::nullopt;
  }

  // The e-node of a right-hand side node whose attributes or output depend on the match (its
  // children are filled in later); returns why it cannot be built, or nothing.
  std::optional<std::string> instantiate(const PatternNode& p, ENode& node) {
    std::vector<AttrValue>& values = memo_.scratch.values;  // in p.attrs order
    values.clear();
    for (const AttrPattern& a : p.attrs)
      if (a.kind != AttrPattern::Kind::Literal) values.push_back(attr_value(a));
    int64_t out = p.out;
    if (p.out_expr) {
      try {
        out = p.out_expr->eval_int(ctx_);
      } catch (const Error& e) {
        fail_in_rule(rule_, e);
      }
      if (out < 0 || (p.n_out && out >= p.n_out))
        return fmt::format("output {} of {} does not exist", out, p.op);
    }
    ApplyMemo::Key key = ApplyMemo::key(p, out, values);
    if (const ENode* known = memo_.find(key)) {
      node = *known;
      return std::nullopt;
    }
    Attrs attrs;
    size_t next = 0;
    for (const AttrPattern& a : p.attrs)
      attrs[a.name] = a.kind == AttrPattern::Kind::Literal ? a.literal : values[next++];
    std::vector<EClassId> placeholder(p.children.size());
    node = make_enode(p.op_id, attrs, placeholder, static_cast<unsigned>(out),
                      static_cast<unsigned>(p.n_out));
    memo_.insert(key, node);
    return std::nullopt;
  }

  // The type of a fresh e-node over the slots `kids` (memoised by the e-graph); throws Error.
  TypeId infer_fresh(const ENode& node, std::span<const int> kids) {
    std::array<TypeId, 8> inline_types;  // nearly every op; a variadic one may take more
    std::vector<TypeId> more;
    std::span<TypeId> types(inline_types.data(), kids.size());
    if (kids.size() > inline_types.size()) {
      more.resize(kids.size());
      types = more;
    }
    for (size_t i = 0; i < kids.size(); ++i) types[i] = slots_[kids[i]].type;
    return eg_.infer_op(node, types);
  }

  // The class's type; throws Error for the graph_out class, which is no operand.
  TypeId tensor_type(EClassId c) const {
    TypeId t = eg_.type_id(c);
    if (t == kNoType) fail("e-class e{} is the graph's output list, not an operand", c.value);
    return t;
  }

  AttrValue attr_value(const AttrPattern& a) {
    switch (a.kind) {
      case AttrPattern::Kind::Literal:
        return a.literal;
      case AttrPattern::Kind::Var:
        return m_.subst.attrs[a.var];
      case AttrPattern::Kind::Computed:
        break;
    }
    try {
      return value_to_attr(a.expr->eval(ctx_));
    } catch (const Error& e) {
      fail_in_rule(rule_, e);
    }
  }

  EGraph& eg_;
  const Rule& rule_;
  const Match& m_;
  MatchContext ctx_;
  ApplyMemo& memo_;
  std::vector<Slot>& slots_;
  ApplyPlan::Leaf* leaf_;
};

// Adds the instance and merges it into the matched class, recording the step.
// `leaf`: where the match's plan ended, if the rule has one.
ApplyResult commit(EGraph& eg, const Rule& rule, const Match& m, const std::vector<Value>& params,
                   const std::vector<EClassId>& exposed, uint32_t number, RewriteTrace& trace,
                   ApplyMemo& memo, ApplyPlan::Leaf* leaf) {
  Instance inst(eg, rule, m, params, memo, leaf);
  if (auto why = inst.build(exposed)) return {ApplyOutcome::Rejected, *why, {}};
  // Nine applications in ten find their right-hand side in the matched class, whose constant
  // cannot clash with itself: that is checked first.
  if (inst.already_there()) return {ApplyOutcome::Unchanged, {}, eg.find(m.eclass)};
  if (auto why = inst.constant_clash()) return {ApplyOutcome::Rejected, *why, {}};

  TraceStep step;
  step.step = number;
  step.iteration = trace.iteration;
  step.rule = rule.name;
  step.eclass = m.eclass;
  step.node = m.node;
  step.subst = m.subst;
  step.exposed = exposed;
  step.clean_before = eg.clean();

  EClassId rhs = inst.add();
  EClassId lhs = m.node ? eg.add(*m.node) : m.eclass;
  eg.merge(lhs, rhs, Justification::by_rule(rule.name, step.step));

  step.rhs = rhs;
  step.params = params;
  step.nodes_after = eg.node_count();
  step.classes_after = eg.class_count();
  trace.steps.push_back(std::move(step));
  return {ApplyOutcome::Applied, {}, rhs};
}

}  // namespace

ApplyMemo::Key ApplyMemo::key(const PatternNode& p, int64_t out,
                              std::span<const AttrValue> values) {
  size_t h = std::hash<const void*>()(&p) ^ static_cast<size_t>(out) * 0x9e3779b97f4a7c15ull;
  for (const AttrValue& v : values) h = (h ^ attr_value_hash(v)) * 0xff51afd7ed558ccdull;
  return {&p, out, values, h ^ (h >> 32)};
}

const ENode* ApplyMemo::find(const Key& k) {
  auto i = index_.find(k.hash, [&](uint32_t i) {
    const Entry& e = entries_[i];
    return e.node == k.node && e.out == k.out &&
           std::equal(e.values.begin(), e.values.end(), k.values.begin(), k.values.end());
  });
  return i ? &entries_[*i].enode : nullptr;
}

void ApplyMemo::insert(const Key& k, const ENode& node) {
  if (attrs_scoped(node.attrs)) return;
  index_.insert(static_cast<uint32_t>(entries_.size()), k.hash);
  entries_.push_back({k.node, k.out, {k.values.begin(), k.values.end()}, node});
}

void ApplyMemo::begin(const EGraph& eg, const RuleSet& rules) {
  if (rules_ != &rules || n_rules_ != rules.rules.size()) {
    *this = ApplyMemo();
    rules_ = &rules;
    n_rules_ = rules.rules.size();
    plans_.reserve(n_rules_);  // so that adding a plan does not move the others
  }
  forget_unchanged(eg);
}

void ApplyMemo::forget_unchanged(const EGraph& eg) {
  unchanged = UnchangedTable();
  unchanged_for_ = &eg;
}

ApplyPlan* ApplyMemo::plan(const EGraph& eg, const Rule& rule) {
  if (unchanged_for_ != &eg) forget_unchanged(eg);
  if (plans_for_ != eg.types_serial()) {
    plans_.clear();
    plans_for_ = eg.types_serial();
  }
  if (last_plan_ >= plans_.size() || plans_[last_plan_].first != &rule) {
    auto it =
        std::find_if(plans_.begin(), plans_.end(), [&](const auto& p) { return p.first == &rule; });
    if (it == plans_.end()) it = plans_.insert(it, {&rule, ApplyPlan::for_rule(rule)});
    last_plan_ = static_cast<size_t>(it - plans_.begin());
  }
  auto& plan = plans_[last_plan_].second;
  return plan ? &*plan : nullptr;
}

ApplyResult apply_match(EGraph& eg, const Rule& rule, const Match& match, Rng& rng,
                        RewriteTrace& trace, ApplyMemo* memo) {
  if (!memo) {
    ApplyMemo own;  // for this application alone
    return apply_match(eg, rule, match, rng, trace, &own);
  }
  ApplyMemo& work = *memo;
  ApplyPlan* plan = work.plan(eg, rule);  // none for Expose and Reorder (Rule::plannable)
  std::vector<Value>& params = work.scratch.params;
  if (!plan) {
    params.assign(match.params.begin(), match.params.end());
    params.resize(rule.vars.params.size());
  }
  std::vector<EClassId> exposed;
  ApplyPlan::Leaf* leaf = nullptr;
  if (rule.kind == Rule::Kind::Expose) {
    exposed = choose_exposed(eg, rule, match, rng);
    if (exposed.empty())
      return {ApplyOutcome::Skipped, "no intermediate tensor is left to expose", {}};
  } else if (rule.kind == Rule::Kind::Reorder) {
    exposed = choose_order(eg, *match.node, rng);
    if (exposed.empty()) return {ApplyOutcome::Skipped, "no other order of the outputs", {}};
  } else if (plan) {
    ApplyPlan::Outcome o = plan->run(eg, rule, match, params, work.scratch.candidates, rng);
    if (o.skip) return {ApplyOutcome::Skipped, *o.skip, {}};
    leaf = o.leaf;
    work.unchanged.key(static_cast<uint32_t>(work.plan_index()), leaf->index, match.eclass,
                       match.subst.classes);
    if (work.look_up_unchanged && work.unchanged.known(eg))
      return {ApplyOutcome::Unchanged, {}, eg.find(match.eclass)};
  } else if (auto why = choose_params(eg, rule, match, params, work.scratch.candidates, rng)) {
    return {ApplyOutcome::Skipped, *why, {}};
  }
  ApplyResult r = commit(eg, rule, match, leaf ? leaf->params : params, exposed,
                         static_cast<uint32_t>(trace.steps.size()), trace, work, leaf);
  // Only unchanged applications are kept: one that merged is found unchanged the iteration after
  // and kept then, and keeping every merge too cost more than it saved (10k e-nodes, 200 nodes).
  if (leaf && work.keep_unchanged && r.outcome == ApplyOutcome::Unchanged) {
    std::span<uint32_t> record = work.unchanged.record(work.scratch.slots.size());
    for (size_t i = 0; i < record.size(); ++i) record[i] = eg.find(work.scratch.slots[i].id).value;
  }
  return r;
}

namespace {

// A step read from a file may name ids this e-graph never handed out; replaying it must fail
// with a message, not index past the e-graph's tables.
void check_step_ids(const EGraph& eg, const TraceStep& step) {
  auto check = [&](EClassId id, std::string_view what) {
    if (!id.valid() || id.value >= eg.term_count())
      fail("trace step {} ({}) names e{} as {}, but the e-graph has only {} ids", step.step,
           step.rule, id.value, what, eg.term_count());
  };
  check(step.eclass, "its matched class");
  if (step.node)
    for (EClassId c : step.node->children) check(c, "a child");
  for (EClassId c : step.subst.classes) check(c, "a substitution");
  for (EClassId c : step.exposed) check(c, "an exposed class");
}

}  // namespace

void replay_trace(EGraph& eg, const RuleSet& rules, const RewriteTrace& trace, size_t from,
                  size_t to) {
  to = std::min(to, trace.steps.size());
  RewriteTrace redo;
  ApplyMemo memo;
  for (size_t i = from; i < to; ++i) {
    const TraceStep& step = trace.steps[i];
    const Rule* rule = rules.find(step.rule);
    if (!rule) fail("trace step {}: no rule named '{}'", step.step, step.rule);
    check_step_ids(eg, step);
    if (step.clean_before && !eg.clean()) eg.rebuild();
    Match m;
    m.eclass = step.eclass;
    m.node = step.node;
    m.subst = step.subst;
    redo.iteration = step.iteration;
    ApplyResult r = commit(eg, *rule, m, step.params, step.exposed, step.step, redo, memo, nullptr);
    if (r.outcome != ApplyOutcome::Applied || r.rhs != step.rhs ||
        eg.node_count() != step.nodes_after)
      fail("trace step {} ({}) does not replay: it was applied to another e-graph ({}{})",
           step.step, step.rule, apply_outcome_name(r.outcome),
           r.reason.empty() ? "" : ": " + r.reason);
  }
  eg.rebuild();
}

}  // namespace retort
