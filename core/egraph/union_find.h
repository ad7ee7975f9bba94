// The e-graph's union-find over dense ids (egg's src/unionfind.rs): ids are handed out in order,
// each its own set; find() halves paths as it goes, so it mutates even when the e-graph is
// const (the sets it answers for do not change).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace retort {

class UnionFind {
 public:
  void reserve(size_t n) { parent_.reserve(n); }
  // A new id, in a set of its own.
  uint32_t make_set() {
    auto id = static_cast<uint32_t>(parent_.size());
    parent_.push_back(id);
    return id;
  }
  size_t size() const { return parent_.size(); }
  // The root of x's set; x must be an id handed out.
  uint32_t find(uint32_t x) const {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];  // path halving
      x = parent_[x];
    }
    return x;
  }
  // Puts the set of root `child` under root `root`.
  void link(uint32_t child, uint32_t root) { parent_[child] = root; }
  size_t capacity_bytes() const { return parent_.capacity() * sizeof(uint32_t); }

 private:
  mutable std::vector<uint32_t> parent_;
};

}  // namespace retort
