#include "core/egraph/id_list.h"

#include <algorithm>

namespace retort {

IdList::IdList(std::span<const EClassId> ids) : size_(static_cast<uint32_t>(ids.size())) {
  if (on_heap()) set_heap(new EClassId[size_]);
  std::copy(ids.begin(), ids.end(), data());
}

IdList::IdList(IdList&& o) noexcept : size_(o.size_) {
  std::memcpy(static_cast<void*>(words_), o.words_, sizeof(words_));
  o.size_ = 0;
}

IdList& IdList::operator=(const IdList& o) {
  if (this != &o) *this = IdList(o);
  return *this;
}

IdList& IdList::operator=(IdList&& o) noexcept {
  if (this != &o) {
    release();
    size_ = o.size_;
    std::memcpy(static_cast<void*>(words_), o.words_, sizeof(words_));
    o.size_ = 0;
  }
  return *this;
}

bool IdList::operator==(const IdList& o) const {
  return size_ == o.size_ && std::equal(begin(), end(), o.begin());
}

EClassId* IdList::heap() const {
  EClassId* p;
  std::memcpy(&p, words_, sizeof(p));
  return p;
}

void IdList::set_heap(EClassId* p) {
  std::memcpy(static_cast<void*>(words_), &p, sizeof(p));
}

void IdList::release() {
  if (on_heap()) delete[] heap();
  size_ = 0;
}

}  // namespace retort
