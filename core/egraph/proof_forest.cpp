#include "core/egraph/proof_forest.h"

#include "core/base/error.h"

namespace retort {

void ProofForest::reroot(EClassId term) {
  EClassId node = term;
  Link carried{term, kCongruence, true};
  while (true) {
    Link old = links_[node.value];
    links_[node.value] = carried;
    if (old.next == node) break;
    carried = {node, old.just, !old.forward};
    node = old.next;
  }
}

void ProofForest::connect(EClassId a, EClassId b, uint32_t just) {
  reroot(a);
  links_[a.value] = {b, just, true};
}

std::vector<ProofForest::Edge> ProofForest::path(EClassId a, EClassId b) const {
  std::unordered_map<uint32_t, size_t> pos_a;
  std::vector<EClassId> up_a{a};
  pos_a[a.value] = 0;
  for (EClassId x = a; links_[x.value].next != x;) {
    x = links_[x.value].next;
    pos_a[x.value] = up_a.size();
    up_a.push_back(x);
  }
  std::vector<EClassId> up_b{b};
  for (EClassId y = b; !pos_a.count(y.value);) {
    if (links_[y.value].next == y) fail("e{} and e{} are not equal", a.value, b.value);
    y = links_[y.value].next;
    up_b.push_back(y);
  }
  std::vector<Edge> edges;
  for (size_t i = 0; i < pos_a.at(up_b.back().value); ++i) {
    const Link& l = links_[up_a[i].value];
    edges.push_back({up_a[i], up_a[i + 1], l.just, !l.forward});
  }
  for (size_t j = up_b.size() - 1; j-- > 0;) {
    const Link& l = links_[up_b[j].value];
    edges.push_back({up_b[j + 1], up_b[j], l.just, l.forward != 0});
  }
  return edges;
}

uint32_t ProofForest::intern(const Justification& why) {
  if (why.kind == Justification::Kind::Congruence) return kCongruence;
  if (last_rule_ >= rule_names_.size() || rule_names_[last_rule_] != why.rule) {
    auto [it, inserted] =
        rule_index_.try_emplace(why.rule, static_cast<uint32_t>(rule_names_.size()));
    if (inserted) rule_names_.push_back(why.rule);
    last_rule_ = it->second;
  }
  if (justs_.size() >= (1u << 31) - 1) fail("too many rule applications for the proof forest");
  justs_.push_back({last_rule_, why.step});
  return static_cast<uint32_t>(justs_.size());
}

Justification ProofForest::justification(uint32_t just) const {
  if (just == kCongruence) return Justification::congruence();
  const RuleJust& r = justs_[just - 1];
  return Justification::by_rule(rule_names_[r.rule], r.step);
}

}  // namespace retort
