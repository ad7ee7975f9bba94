// mimalloc as the programs use it (CMakeLists.txt's retort_allocator links this file into every
// program that allocates through mimalloc). Equality saturation grows an e-graph by hundreds of
// megabytes in a second and frees and regrows its tables as it goes; with mimalloc's defaults
// pages were handed back to the OS as they fell free, then faulted in and zeroed again moments
// later, and the kernel took a third of a 100k-e-node saturation (docs/benchmarks.md, "The
// allocator's settings"). So freed memory is kept for reuse until the process exits; a
// campaign's resident memory then stays at its largest case's, reused by the next case. (Large
// OS pages were tried too: fewer faults, but the kernel's compaction for them made some runs
// half again slower.) MIMALLOC_ALLOW_DECOMMIT in the environment still decides.
#include <cstdlib>

#include <mimalloc.h>

namespace {

const bool configured = [] {
  if (!std::getenv("MIMALLOC_ALLOW_DECOMMIT")) mi_option_set(mi_option_allow_decommit, 0);
  return true;
}();

}  // namespace
