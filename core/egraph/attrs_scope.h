// What a fuzz case interns (core/egraph/attrs_pool.h) and the process-wide pool lacks goes, inside
// an AttrsScope, to a table of the case's thread that the scope's end frees: the pool itself only
// grows, so without scopes a campaign's memory grew with every case until, at 4,194,304 sets,
// every later case failed (issue 27; docs/benchmarks.md, "Memory over a long campaign").
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/egraph/ids.h"

namespace retort {

// While one lives, this thread interns the attribute sets the process-wide pool lacks into a
// table of its own, which its end frees. Its ids are valid on this thread until then: nothing a
// scope's work made may keep one (a case's findings are text); attrs_of a kept one is an Error.
// A scope inside another adds nothing.
class AttrsScope {
 public:
  AttrsScope();
  ~AttrsScope();
  AttrsScope(const AttrsScope&) = delete;
  AttrsScope& operator=(const AttrsScope&) = delete;

 private:
  bool outer_;
};

// Whether an id belongs to the current scope's table (whose ids a cache must not keep longer).
bool attrs_scoped(AttrsId id);
// Changes whenever a scope of this thread begins: a cache of scoped ids starts anew on a change.
uint64_t attrs_scope_generation();
// The entries of the process-wide pool, and of this thread's scope.
size_t attrs_pool_size();
size_t attrs_scope_size();

}  // namespace retort
