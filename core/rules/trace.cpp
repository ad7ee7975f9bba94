#include "core/rules/trace.h"

#include <fmt/format.h>

#include "core/egraph/render.h"
#include "core/egraph/rewrite_label.h"

namespace retort {

namespace {

std::string params_text(const EGraph& eg, const Rule& rule, const std::vector<Value>& params,
                        const std::vector<EClassId>& exposed) {
  std::string out;
  auto add = [&](const std::string& item) { out += (out.empty() ? "" : ", ") + item; };
  for (size_t i = 0; i < rule.vars.params.size(); ++i)
    add(fmt::format("{} = {}", rule.vars.params[i], value_str(params[i])));
  for (size_t i = 0; i < exposed.size(); ++i)
    add(fmt::format("out{} = {}", i + 1, term_str(eg, exposed[i], 24)));
  return out;
}

}  // namespace

StepText step_text(const EGraph& eg, const Rule& rule, const TraceStep& step) {
  Match m;
  m.eclass = step.eclass;
  m.node = step.node;
  m.subst = step.subst;
  StepText t;
  t.matched = match_str(eg, rule, m);
  t.subst = subst_str(eg, rule, step.subst);
  t.params = params_text(eg, rule, step.params, step.exposed);
  t.rhs = term_str(eg, step.rhs, 24);
  return t;
}

std::string step_str(const EGraph& eg, const RuleSet& rules, const TraceStep& step) {
  const Rule* rule = rules.find(step.rule);
  StepText t;
  if (rule) {
    t = step_text(eg, *rule, step);
  } else {
    t.matched = term_str(eg, step.eclass, 24);
    t.rhs = term_str(eg, step.rhs, 24);
  }
  std::string out = fmt::format("rewrite {}: {} e{} {} => {}", rewrite_label(step.step), step.rule,
                                step.eclass.value, t.matched, t.rhs);
  if (!t.subst.empty()) out += fmt::format(" [{}]", t.subst);
  if (!t.params.empty()) out += fmt::format(" {{{}}}", t.params);
  return out + fmt::format(" nodes={} classes={}", step.nodes_after, step.classes_after);
}

std::string trace_str(const EGraph& eg, const RuleSet& rules, const RewriteTrace& trace) {
  std::string out;
  for (const auto& s : trace.steps) out += step_str(eg, rules, s) + "\n";
  return out;
}

TraceNode trace_node(const ENode& n) {
  return {op_name(n.op), attrs_of(n.attrs), n.out, n.n_out, n.children.vec()};
}

ENode trace_enode(const TraceNode& n) {
  ENode e;
  e.op = op_id(n.op);
  e.attrs = intern_attrs(n.attrs);
  e.out = n.out;
  e.n_out = n.n_out;
  e.children = IdList(n.children);
  return e;
}

}  // namespace retort
