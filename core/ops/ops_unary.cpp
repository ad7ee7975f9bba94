#include "core/ops/registry.h"

namespace retort {

void register_unary_ops(OpRegistry&) {}

}  // namespace retort
