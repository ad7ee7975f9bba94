#include "core/ops/registry.h"

namespace retort {

void register_conv_pool_ops(OpRegistry&) {}

}  // namespace retort
