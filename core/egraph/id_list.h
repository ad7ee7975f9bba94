// The children of an e-node: a small vector of class ids that keeps up to three ids inline (the
// arity of nearly every op) and moves to the heap beyond that. 16 bytes, 4-byte aligned.
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
  explicit IdList(std::span<const EClassId> ids);
  explicit IdList(const std::vector<EClassId>& ids) : IdList(std::span<const EClassId>(ids)) {}
  IdList(const IdList& o) : IdList(o.span()) {}
  IdList(IdList&& o) noexcept;
  IdList& operator=(const IdList& o);
  IdList& operator=(IdList&& o) noexcept;
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

  bool operator==(const IdList& o) const;
  // Heap bytes owned by this list (0 when inline), for memory accounting.
  size_t heap_bytes() const { return on_heap() ? size_ * sizeof(EClassId) : 0; }

 private:
  static constexpr uint32_t kInline = 3;
  bool on_heap() const { return size_ > kInline; }
  EClassId* heap() const;
  void set_heap(EClassId* p);
  EClassId* data() { return on_heap() ? heap() : words_; }
  const EClassId* data() const { return on_heap() ? heap() : words_; }
  void release();

  // Inline ids, or (beyond kInline) a heap pointer stored bytewise in the first two words.
  EClassId words_[kInline];
  uint32_t size_ = 0;
};

}  // namespace retort
