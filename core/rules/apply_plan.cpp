#include "core/rules/apply_plan.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/egraph/attrs_pool.h"

namespace retort {

namespace {

constexpr int64_t kMaxPickRange = 65536;

}  // namespace

ClauseRun run_clauses(const EGraph& eg, const Rule& rule, const Match& m, size_t first,
                      std::vector<Value>& params, std::vector<int64_t>& candidates,
                      std::vector<std::pair<int, Value>>* lets) {
  MatchContext ctx(eg, m.subst, params);
  ClauseRun run;
  for (size_t i = first; i < rule.clauses.size(); ++i) {
    const RuleClause& c = rule.clauses[i];
    try {
      switch (c.kind) {
        case RuleClause::Kind::If:
          if (!c.expr->eval_bool(ctx)) {
            run.skip = fmt::format("condition {} is false", c.expr->str());
            return run;
          }
          break;
        case RuleClause::Kind::Let:
          params[c.param] = c.expr->eval(ctx);
          if (lets) lets->emplace_back(c.param, params[c.param]);
          break;
        case RuleClause::Kind::Pick: {
          int64_t lo = c.lo->eval_int(ctx), hi = c.hi->eval_int(ctx);
          if (hi >= lo && static_cast<__int128>(hi) - lo >= kMaxPickRange)
            throw Error(
                fmt::format("pick range {} .. {} holds more than {} values", lo, hi, kMaxPickRange),
                c.loc);
          candidates.clear();
          for (int64_t v = lo; v <= hi; ++v) {
            params[c.param] = v;
            if (!c.expr || c.expr->eval_bool(ctx)) candidates.push_back(v);
          }
          if (candidates.empty()) {
            run.skip =
                fmt::format("no value for {} in {} .. {}", rule.vars.params[c.param], lo, hi);
            return run;
          }
          run.pick = c.param;
          run.next = i + 1;
          return run;
        }
      }
    } catch (const Error& e) {
      fail_in_rule(rule, e);
    }
  }
  run.next = rule.clauses.size();
  return run;
}

std::optional<ApplyPlan> ApplyPlan::for_rule(const Rule& rule) {
  if (!rule.plannable) return std::nullopt;
  return ApplyPlan(rule);
}

ApplyPlan::ApplyPlan(const Rule& rule) : n_classes_(rule.vars.classes.size()) {
  // Without parameters there is no clause at application time (no pick, no let).
  one_leaf_ = rule.vars.params.empty() &&
              std::all_of(rule.rhs.nodes.begin(), rule.rhs.nodes.end(), [](const PatternNode& p) {
                return p.kind != PatternNode::Kind::Op || p.fixed;
              });
}

ApplyPlan::Outcome ApplyPlan::run(const EGraph& eg, const Rule& rule, const Match& m,
                                  std::vector<Value>& params, std::vector<int64_t>& candidates,
                                  Rng& rng) {
  if (one_leaf_) {
    if (leaves_.empty()) leaves_.emplace_back();
    return {nullptr, &leaves_[0]};
  }
  // `params` is only filled in where a step must be run: the path's recorded choices, then the
  // step's own clauses.
  path_.clear();
  size_t replayed = 0;  // the path's steps whose choices stand in `params`
  auto replay = [&] {
    if (replayed == 0) {
      params.assign(m.params.begin(), m.params.end());
      params.resize(rule.vars.params.size());
    }
    for (; replayed < path_.size(); ++replayed) {
      const auto [at, k] = path_[replayed];
      const Step& step = steps_[at - 1];
      for (const auto& [p, v] : step.lets) params[p] = v;
      params[step.pick] = step.candidates[k];
    }
  };
  uint32_t s = find_root(eg, m);
  if (!s) {
    replay();
    s = add_root(eg, rule, m, params, candidates);
  }
  for (;;) {
    const Step& step = steps_[s - 1];
    if (step.skip) return {&*step.skip, nullptr};
    if (step.pick < 0) return {nullptr, &leaves_[step.leaf - 1]};
    auto k =
        static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(step.candidates.size()) - 1));
    path_.push_back({s, k});
    if (!step.next[k]) {
      size_t resume = step.resume;
      replay();
      uint32_t next = add_step(eg, rule, m, resume, params, candidates);
      steps_[s - 1].next[k] = next;  // add_step may have moved the steps
    }
    s = steps_[s - 1].next[k];
  }
}

uint32_t ApplyPlan::find_root(const EGraph& eg, const Match& m) {
  key_types_.clear();
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (EClassId c : m.subst.classes) {
    uint32_t t = eg.type_id(c).value;
    key_types_.push_back(t);
    h = (h ^ t) * 0xff51afd7ed558ccdull;
  }
  for (const AttrValue& a : m.subst.attrs) h = (h ^ attr_value_hash(a)) * 0xff51afd7ed558ccdull;
  key_hash_ = h ^ (h >> 32);
  size_t n_attrs = m.subst.attrs.size();
  auto found = index_.find(key_hash_, [&](uint32_t b) {
    return std::equal(key_types_.begin(), key_types_.end(), types_.begin() + b * n_classes_) &&
           std::equal(m.subst.attrs.begin(), m.subst.attrs.end(), attrs_.begin() + b * n_attrs);
  });
  return found ? roots_[*found] : 0;
}

uint32_t ApplyPlan::add_root(const EGraph& eg, const Rule& rule, const Match& m,
                             std::vector<Value>& params, std::vector<int64_t>& candidates) {
  uint32_t first = add_step(eg, rule, m, rule.match_clauses, params, candidates);
  auto b = static_cast<uint32_t>(roots_.size());
  types_.insert(types_.end(), key_types_.begin(), key_types_.end());
  attrs_.insert(attrs_.end(), m.subst.attrs.begin(), m.subst.attrs.end());
  roots_.push_back(first);
  index_.insert(b, key_hash_);
  return first;
}

uint32_t ApplyPlan::add_step(const EGraph& eg, const Rule& rule, const Match& m, size_t first,
                             std::vector<Value>& params, std::vector<int64_t>& candidates) {
  Step step;
  ClauseRun run = run_clauses(eg, rule, m, first, params, candidates, &step.lets);
  step.skip = std::move(run.skip);
  step.pick = run.pick;
  step.resume = run.next;
  if (step.pick >= 0) {
    step.candidates = candidates;
    step.next.assign(candidates.size(), 0);
  } else if (!step.skip) {
    Leaf& leaf = leaves_.emplace_back();
    leaf.params = params;
    leaf.index = static_cast<uint32_t>(leaves_.size() - 1);
    step.leaf = static_cast<uint32_t>(leaves_.size());
  }
  steps_.push_back(std::move(step));
  return static_cast<uint32_t>(steps_.size());
}

}  // namespace retort
