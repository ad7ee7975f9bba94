// The children of an e-node: a small vector of class ids that keeps up to three ids inline (the
// arity of nearly every op) and moves to the heap beyond that. 16 bytes, 4-byte aligned. The
// inline cases are defined here: e-nodes are copied, compared and dropped in every hashcons
// lookup and rewrite, and a call apiece cost more than the copy.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <vector>

#include "core/egraph/ids.h"

namespace retort {

class IdList {
 public:
  IdList() = default;
  IdList(std::initializer_list<EClassId> ids)
      : IdList(std::span<const EClassId>(ids.begin(), ids.size())) {}
  explicit IdList(std::span<const EClassId> ids) : size_(static_cast<uint32_t>(ids.size())) {
    if (on_heap()) set_heap(new EClassId[size_]);
    EClassId* d = data();
    for (uint32_t i = 0; i < size_; ++i) d[i] = ids[i];
  }
  explicit IdList(const std::vector<EClassId>& ids) : IdList(std::span<const EClassId>(ids)) {}
  IdList(const IdList& o) : IdList(o.span()) {}
  IdList(IdList&& o) noexcept : size_(o.size_) {
    std::memcpy(static_cast<void*>(words_), o.words_, sizeof(words_));
    o.size_ = 0;
  }
  IdList& operator=(const IdList& o) {
    if (this == &o) return *this;
    if (on_heap() || o.on_heap()) return assign_heap(o);
    std::memcpy(static_cast<void*>(words_), o.words_, sizeof(words_));
    size_ = o.size_;
    return *this;
  }
  IdList& operator=(IdList&& o) noexcept {
    if (this != &o) {
      release();
      size_ = o.size_;
      std::memcpy(static_cast<void*>(words_), o.words_, sizeof(words_));
      o.size_ = 0;
    }
    return *this;
  }
  ~IdList() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  EClassId* begin() { return data(); }
  EClassId* end() { return data() + size_; }
  const EClassId* begin() const { return data(); }
  const EClassId* end() const { return data() + size_; }
  EClassId& operator[](size_t i) { return data()[i]; }
  EClassId operator[](size_t i) const { return data()[i]; }
  std::span<const EClassId> span() const { return {data(), size_}; }
  std::vector<EClassId> vec() const { return {begin(), end()}; }

  // A loop rather than std::equal, which becomes a memcmp call for two or three ids.
  bool operator==(const IdList& o) const {
    if (size_ != o.size_) return false;
    const EClassId *a = data(), *b = o.data();
    for (uint32_t i = 0; i < size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  // Heap bytes owned by this list (0 when inline), for memory accounting.
  size_t heap_bytes() const { return on_heap() ? size_ * sizeof(EClassId) : 0; }

 private:
  static constexpr uint32_t kInline = 3;
  bool on_heap() const { return size_ > kInline; }
  EClassId* heap() const;
  void set_heap(EClassId* p) { std::memcpy(static_cast<void*>(words_), &p, sizeof(p)); }
  EClassId* data() { return on_heap() ? heap() : words_; }
  const EClassId* data() const { return on_heap() ? heap() : words_; }
  void release() {
    if (on_heap()) delete[] heap();
    size_ = 0;
  }
  // Copy assignment when either list is on the heap.
  IdList& assign_heap(const IdList& o);

  // Inline ids, or (beyond kInline) a heap pointer stored bytewise in the first two words.
  EClassId words_[kInline];
  uint32_t size_ = 0;
};

}  // namespace retort
