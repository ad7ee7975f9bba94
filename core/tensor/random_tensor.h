// Seeded random tensors: graph inputs, `random(seed=...)` constants, property tests.
#pragma once

#include "core/base/rng.h"
#include "core/tensor/tensor.h"
#include "core/tensor/value_domain.h"

namespace retort {

// Values drawn from a range that suits the dtype (floats in [-1,1), integers in a small range
// that keeps products far from overflow, bools fair) and respects the domain.
Tensor random_tensor(const TensorType& type, Rng& rng, const InputDomain& domain = {});
// Uniform in [lo, hi) for floats and [lo, hi] (rounded) for integers.
Tensor random_tensor_in(const TensorType& type, Rng& rng, double lo, double hi);

}  // namespace retort
