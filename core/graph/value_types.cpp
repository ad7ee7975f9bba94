#include "core/graph/value_types.h"

#include <algorithm>
#include <stdexcept>

namespace retort {

namespace {

bool name_less(const ValueTypes::value_type& a, const ValueTypes::value_type& b) {
  return a.first < b.first;
}

// The first entry whose name is not below `name`.
template <class It>
It first_not_below(It begin, It end, std::string_view name) {
  return std::lower_bound(
      begin, end, name,
      // compare(), not <: clang 14 cannot rewrite string < string_view through operator<=>.
      [](const ValueTypes::value_type& e, std::string_view n) { return e.first.compare(n) < 0; });
}

}  // namespace

void ValueTypes::assign(std::vector<value_type> entries) {
  // The restorer and infer_graph hand theirs over in order, each name once: then this is one
  // comparison per entry.
  auto out_of_order = [](const value_type& a, const value_type& b) { return !(a.first < b.first); };
  if (std::adjacent_find(entries.begin(), entries.end(), out_of_order) != entries.end()) {
    std::stable_sort(entries.begin(), entries.end(), name_less);
    entries.erase(
        std::unique(entries.begin(), entries.end(),
                    [](const value_type& a, const value_type& b) { return a.first == b.first; }),
        entries.end());
  }
  entries_ = std::move(entries);
}

ValueTypes::const_iterator ValueTypes::find(std::string_view name) const {
  auto it = first_not_below(entries_.begin(), entries_.end(), name);
  return it != entries_.end() && it->first == name ? it : entries_.end();
}

const TensorType& ValueTypes::at(std::string_view name) const {
  auto it = find(name);
  if (it == end()) throw std::out_of_range("ValueTypes::at: no such value");
  return it->second;
}

TensorType& ValueTypes::operator[](std::string_view name) {
  auto it = first_not_below(entries_.begin(), entries_.end(), name);
  if (it == entries_.end() || it->first != name)
    it = entries_.insert(it, {std::string(name), TensorType{}});
  return it->second;
}

std::pair<ValueTypes::const_iterator, bool> ValueTypes::emplace(std::string name, TensorType type) {
  auto it = first_not_below(entries_.begin(), entries_.end(), name);
  if (it != entries_.end() && it->first == name) return {it, false};
  return {entries_.insert(it, {std::move(name), std::move(type)}), true};
}

}  // namespace retort
