// A growable array of trivially copyable values that appends without constructing them: a search
// appends a few hundred thousand matches' ids per saturation, where std::vector's range insert
// and push_back cost tens of instructions per append (element-wise construction, the checks of
// the general case). Move-only; its storage is kept across clear().
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace retort {

template <typename T>
class PodVec {
  static_assert(std::is_trivially_copyable_v<T>, "PodVec copies its values as bytes");

 public:
  PodVec() = default;
  PodVec(const PodVec&) = delete;
  PodVec& operator=(const PodVec&) = delete;
  PodVec(PodVec&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        cap_(std::exchange(o.cap_, 0)) {}
  PodVec& operator=(PodVec&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
    return *this;
  }
  ~PodVec() { std::free(data_); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* data() const { return data_; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > cap_) grow_to(n);
  }
  void push_back(const T& value) {
    if (size_ == cap_) grow_to(size_ + 1);
    data_[size_++] = value;
  }
  void append(std::span<const T> values) {
    size_t n = values.size();
    if (cap_ - size_ < n) grow_to(size_ + n);
    T* out = data_ + size_;
    // Nearly every append is of one to three values (a match's classes, an e-node's children):
    // copied in place, where a call to memcpy costs more than the copy.
    switch (n) {
      case 3:
        out[2] = values[2];
        [[fallthrough]];
      case 2:
        out[1] = values[1];
        [[fallthrough]];
      case 1:
        out[0] = values[0];
        [[fallthrough]];
      case 0:
        break;
      default:
        std::memcpy(static_cast<void*>(out), values.data(), n * sizeof(T));
    }
    size_ += n;
  }

 private:
  void grow_to(size_t n) {
    size_t cap = std::max({n, 2 * cap_, size_t{16}});
    void* grown = std::realloc(static_cast<void*>(data_), cap * sizeof(T));
    if (!grown) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    cap_ = cap;
  }

  T* data_ = nullptr;
  size_t size_ = 0, cap_ = 0;
};

}  // namespace retort
