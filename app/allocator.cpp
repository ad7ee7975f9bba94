// mimalloc as the programs use it (CMakeLists.txt's retort_allocator links this file into every
// program that allocates through mimalloc). Equality saturation grows an e-graph by hundreds of
// megabytes in a second and frees and regrows its tables as it goes. With mimalloc's defaults the
// kernel took a third to a half of a 100k-e-node saturation (docs/benchmarks.md, "The
// allocator's settings"): a fault per 4 KiB page, and pages handed back to the OS as they fell
// free, then faulted in (and zeroed) again moments later. So: 2 MiB pages where the kernel
// offers them (transparent huge pages), and memory kept for reuse until the process exits rather
// than handed back; a campaign's resident memory then stays at its largest case's, as it is
// reused by the next. A MIMALLOC_* environment variable for either option still decides.
#include <cstdlib>

#include <mimalloc.h>

namespace {

void set_unless_in_environment(mi_option_t option, const char* variable, long value) {
  if (!std::getenv(variable)) mi_option_set(option, value);
}

const bool configured = [] {
  set_unless_in_environment(mi_option_large_os_pages, "MIMALLOC_LARGE_OS_PAGES", 1);
  set_unless_in_environment(mi_option_allow_decommit, "MIMALLOC_ALLOW_DECOMMIT", 0);
  return true;
}();

}  // namespace
