#include "core/egraph/id_list.h"

namespace retort {

// Out of line: where the compiler sees both branches of data(), it warns that an index past the
// inline ids overruns them (-Warray-bounds), on the path the list's size rules out.
EClassId* IdList::heap() const {
  EClassId* p;
  std::memcpy(&p, words_, sizeof(p));
  return p;
}

IdList& IdList::assign_heap(const IdList& o) {
  return *this = IdList(o);
}

}  // namespace retort
