// One-line descriptions of tensors for the console: enough to see at a glance whether two
// results agree, where the NaNs are and what the values look like.
#pragma once

#include <string>

#include "core/tensor/tensor.h"

namespace retort {

// "f32[2,3] min=-0.93 max=0.88 mean=0.012 nan=0 inf=0 [0.1, -0.5, 0.25, ...]". min, max and
// mean are over the finite elements; nan/inf counts appear for float dtypes only. At most
// max_values leading elements are listed.
std::string summarize_tensor(const Tensor& t, int max_values = 6);

}  // namespace retort
