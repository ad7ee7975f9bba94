#include "core/egraph/id_list.h"

namespace retort {

IdList& IdList::assign_heap(const IdList& o) {
  return *this = IdList(o);
}

}  // namespace retort
