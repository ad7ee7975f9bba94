// A process-wide pool of interned attribute maps. An e-node stores a 4-byte AttrsId, so hashing
// and comparing e-nodes never walks an attribute map. The pool only grows (attribute sets are
// few: op parameters) and is safe to use from several threads; reading an id takes no lock.
#pragma once

#include "core/egraph/ids.h"
#include "core/ops/attrs.h"

namespace retort {

inline constexpr AttrsId kNoAttrs{0};  // the empty map

AttrsId intern_attrs(const Attrs& attrs);
// A hash of one attribute value (its kind and contents), as interning hashes them.
size_t attr_value_hash(const AttrValue& value);
// The attributes of an id; the reference stays valid for the life of the process.
const Attrs& attrs_of(AttrsId id);
// A total order on attribute contents (not on ids, whose values depend on interning history).
int compare_attrs(AttrsId a, AttrsId b);
// "perm=[1,0] axis=2" (empty for no attributes).
std::string attrs_str(AttrsId id);

}  // namespace retort
