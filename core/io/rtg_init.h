// Constant initialisers of .rtg (`random(seed=3)`, `fill(0.5)`), shared by the parser that reads
// them and the printer that writes one back only while it still produces the constant's values.
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor/tensor.h"

namespace retort {

// The tensor an initialiser text describes for the given type; nullopt when the text is not a
// valid initialiser for that type.
std::optional<Tensor> tensor_from_init_text(std::string_view init_text, const TensorType& type);

}  // namespace retort
