// Graph::types: the type of each value, by name, in name order (as a std::map iterates).
// A vector sorted by name rather than a map: every restored variant gets all its types at once,
// and one map node per value (allocated, linked, balanced, freed) cost a fifth of a restore
// (docs/benchmarks.md, "Eighth round"). Lookups are a binary search. Adding one name moves the
// entries after it, so code that names many values collects them and calls assign once
// (infer_graph, the restorer); a few additions by hand are cheap.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/tensor/tensor.h"

namespace retort {

class ValueTypes {
 public:
  using value_type = std::pair<std::string, TensorType>;
  // Only const iteration: changing a name in place would break the order.
  using const_iterator = std::vector<value_type>::const_iterator;
  using iterator = const_iterator;

  ValueTypes() = default;
  ValueTypes(std::initializer_list<value_type> entries) { assign({entries}); }

  // Replaces the contents; where a name repeats, its first entry is kept (as emplace would).
  void assign(std::vector<value_type> entries);

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

  const_iterator find(std::string_view name) const;
  size_t count(std::string_view name) const { return find(name) == end() ? 0 : 1; }
  // Throws std::out_of_range when `name` is not there, as std::map::at does.
  const TensorType& at(std::string_view name) const;
  // The type of `name`, added as a default type when it is not there. The reference is good
  // until the next addition.
  TensorType& operator[](std::string_view name);
  // Adds `name` unless it is there; the entry and whether it was added.
  std::pair<const_iterator, bool> emplace(std::string name, TensorType type);

  bool operator==(const ValueTypes&) const = default;

 private:
  std::vector<value_type> entries_;  // sorted by name, names unique
};

}  // namespace retort
