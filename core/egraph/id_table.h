// A hash set of 32-bit ids whose keys live elsewhere (the e-graph's term table): a slot holds the
// id and 32 bits of its key's hash, 8 bytes, where a node-based map keeps a copy of the key, a
// next pointer and a bucket per entry. Open addressing with linear probing; erase shifts the
// following entries back, so there are no tombstones. The caller hashes keys and says when an id
// has the key it is looking for; an entry's key must not change while it is in the table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace retort {

class IdTable {
 public:
  size_t size() const { return size_; }
  size_t bytes() const { return slots_.capacity() * sizeof(Slot); }
  void reserve(size_t n) {
    size_t cap = 16;
    while (cap * kMaxLoadNum < n * kMaxLoadDen) cap *= 2;
    if (cap > slots_.size()) rehash(cap);
  }

  // The id whose key `is_key` accepts among those with this hash, if any.
  template <typename IsKey>
  std::optional<uint32_t> find(size_t hash, const IsKey& is_key) const {
    if (slots_.empty()) return std::nullopt;
    auto h = static_cast<uint32_t>(hash);
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.id == kEmpty) return std::nullopt;
      if (s.hash == h && is_key(s.id)) return s.id;
    }
  }

  // Adds an id whose key is not in the table yet.
  void insert(uint32_t id, size_t hash) {
    if ((size_ + 1) * kMaxLoadDen > slots_.size() * kMaxLoadNum)
      rehash(slots_.empty() ? 16 : 2 * slots_.size());
    place({id, static_cast<uint32_t>(hash)});
    ++size_;
  }

  // Removes the entry of `id` (added with this hash); false when it is not there.
  bool erase(uint32_t id, size_t hash) {
    if (slots_.empty()) return false;
    size_t i = static_cast<uint32_t>(hash) & mask_;
    for (; slots_[i].id != id; i = (i + 1) & mask_)
      if (slots_[i].id == kEmpty) return false;
    // Backward shift: move each following entry of the run into the hole when its home slot
    // does not lie between the hole and its slot.
    for (size_t j = (i + 1) & mask_; slots_[j].id != kEmpty; j = (j + 1) & mask_) {
      size_t home = slots_[j].hash & mask_;
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --size_;
    return true;
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr size_t kMaxLoadNum = 4, kMaxLoadDen = 5;  // at most 80% full
  struct Slot {
    uint32_t id = kEmpty;
    uint32_t hash = 0;
  };

  void place(Slot s) {
    size_t i = s.hash & mask_;
    while (slots_[i].id != kEmpty) i = (i + 1) & mask_;
    slots_[i] = s;
  }
  void rehash(size_t cap) {
    std::vector<Slot> old(cap);
    old.swap(slots_);
    mask_ = cap - 1;
    for (const Slot& s : old)
      if (s.id != kEmpty) place(s);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace retort
