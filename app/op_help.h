// Help text about ops, written from the op registry.
#pragma once

#include <string>

#include "core/ops/op_def.h"

namespace retort {

// `help op NAME`: doc, inputs with their value domains, attributes with kinds and defaults,
// outputs, the ONNX mapping and tags.
std::string op_help_text(const OpDef& op);
// `help ops`: one line per registered op.
std::string op_list_text();

}  // namespace retort
