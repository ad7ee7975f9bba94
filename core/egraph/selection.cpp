#include "core/egraph/selection.h"

#include <algorithm>
#include <iterator>

#include "core/base/error.h"

namespace retort {

namespace {

bool class_less(const Selection::Choice& a, const Selection::Choice& b) {
  return a.first < b.first;
}

std::vector<Selection::Choice>::const_iterator lower(const std::vector<Selection::Choice>& chosen,
                                                     EClassId c) {
  return std::lower_bound(chosen.begin(), chosen.end(), c,
                          [](const Selection::Choice& x, EClassId id) { return x.first < id; });
}

}  // namespace

const ENode* Selection::find(EClassId canonical_class) const {
  auto it = lower(chosen, canonical_class);
  return it != chosen.end() && it->first == canonical_class ? &it->second : nullptr;
}

const ENode& Selection::at(EClassId canonical_class) const {
  const ENode* n = find(canonical_class);
  if (!n) fail("the selection has no e-node for class e{}", canonical_class.value);
  return *n;
}

void Selection::set(EClassId canonical_class, ENode node) {
  auto it = chosen.begin() + (lower(chosen, canonical_class) - chosen.cbegin());
  if (it != chosen.end() && it->first == canonical_class)
    it->second = std::move(node);
  else
    chosen.emplace(it, canonical_class, std::move(node));
}

void Selection::fill_from(const Selection& other) {
  std::vector<Choice> merged;
  merged.reserve(chosen.size() + other.chosen.size());
  // Both are sorted with one entry per class: where both reach a class, ours comes first and
  // the unique pass keeps it.
  std::merge(std::make_move_iterator(chosen.begin()), std::make_move_iterator(chosen.end()),
             other.chosen.begin(), other.chosen.end(), std::back_inserter(merged), class_less);
  merged.erase(std::unique(merged.begin(), merged.end(),
                           [](const Choice& a, const Choice& b) { return a.first == b.first; }),
               merged.end());
  chosen = std::move(merged);
}

}  // namespace retort
