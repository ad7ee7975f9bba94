// A vector that keeps up to N elements inside itself and moves them to the heap beyond that, for
// the lists of an e-class record (egraph.h): most classes hold one e-node and a few parents, and
// a heap block per list cost more than the record itself (issue 24: bytes per e-node).
//
// It has no capacity field, so that a class record stays at 64 bytes: the capacity is N while
// the size is at most N, else the size rounded up to a power of two. Growing one element at a
// time therefore reallocates only at powers of two, as std::vector does, and shrinking
// (truncate) moves the elements back inline or to a smaller block so the rule keeps holding.
// The heap pointer is stored bytewise over the inline elements, so the vector needs only T's
// alignment (4 bytes for ENode and EClassId).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace retort {

template <typename T, uint32_t N>
class InlineVec {
  static_assert(N >= 1);

 public:
  InlineVec() = default;
  InlineVec(const InlineVec& o) { append(o.begin(), o.end()); }
  InlineVec(InlineVec&& o) noexcept { take(o); }
  InlineVec& operator=(const InlineVec& o) {
    if (this != &o) {
      truncate(0);
      append(o.begin(), o.end());
    }
    return *this;
  }
  InlineVec& operator=(InlineVec&& o) noexcept {
    if (this != &o) {
      truncate(0);
      take(o);
    }
    return *this;
  }
  ~InlineVec() { truncate(0); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return on_heap() ? heap() : inline_data(); }
  const T* data() const { return on_heap() ? heap() : inline_data(); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  const T& back() const { return data()[size_ - 1]; }
  std::vector<T> vec() const { return {begin(), end()}; }
  bool operator==(const InlineVec& o) const {
    return std::equal(begin(), end(), o.begin(), o.end());
  }

  void push_back(T v) {
    make_room(size_ + 1);
    ++size_;
    std::construct_at(data() + size_ - 1, std::move(v));
  }
  // Appends copies of [first, last), which must not lie in this vector.
  void append(const T* first, const T* last) {
    auto old = size_;
    make_room(size_ + static_cast<uint32_t>(last - first));
    size_ += static_cast<uint32_t>(last - first);
    std::uninitialized_copy(first, last, data() + old);
  }
  // Appends o's elements, moved; o is left empty.
  void append_moved(InlineVec& o) {
    auto old = size_;
    make_room(size_ + o.size_);
    size_ += o.size_;
    std::uninitialized_move(o.begin(), o.end(), data() + old);
    o.truncate(0);
  }
  // Keeps the first n elements (n <= size()).
  void truncate(size_t n) {
    auto keep = static_cast<uint32_t>(n);
    T* d = data();
    std::destroy(d + keep, d + size_);
    if (capacity_for(keep) != capacity_for(size_)) {
      // A heap block that is now too large: the elements go inline or to a smaller block.
      T* to = keep > N ? allocate(capacity_for(keep)) : inline_data();
      std::uninitialized_move(d, d + keep, to);
      std::destroy(d, d + keep);
      ::operator delete(d);
      if (keep > N) set_heap(to);
    }
    size_ = keep;
  }

  // Heap bytes owned by this vector (0 while inline), for memory accounting.
  size_t heap_bytes() const { return on_heap() ? capacity_for(size_) * sizeof(T) : 0; }

 private:
  static uint32_t capacity_for(uint32_t n) { return n <= N ? N : std::bit_ceil(n); }
  static T* allocate(uint32_t n) { return static_cast<T*>(::operator new(n * sizeof(T))); }
  bool on_heap() const { return size_ > N; }
  T* inline_data() const {
    return std::launder(reinterpret_cast<T*>(const_cast<unsigned char*>(bytes_)));
  }
  T* heap() const {
    T* p;
    std::memcpy(&p, bytes_, sizeof(p));
    return p;
  }
  void set_heap(T* p) { std::memcpy(bytes_, &p, sizeof(p)); }

  // Before the size grows to n: moves the elements to a block of capacity_for(n) when the
  // current storage is smaller. The caller sets size_ at once (data() reads it).
  void make_room(uint32_t n) {
    if (capacity_for(n) == capacity_for(size_)) return;
    T* to = allocate(capacity_for(n));
    T* from = data();
    std::uninitialized_move(from, from + size_, to);
    std::destroy(from, from + size_);
    if (on_heap()) ::operator delete(from);
    set_heap(to);
  }
  // Takes o's elements (this vector is empty); o is left empty.
  void take(InlineVec& o) {
    if (o.on_heap()) {
      std::memcpy(bytes_, o.bytes_, sizeof(T*));
    } else {
      std::uninitialized_move(o.begin(), o.end(), inline_data());
      std::destroy(o.begin(), o.end());
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  uint32_t size_ = 0;
  alignas(T) unsigned char bytes_[std::max(N * sizeof(T), sizeof(T*))];
};

}  // namespace retort
