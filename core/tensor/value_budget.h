// The memory budget: the most bytes one value (a graph input, a constant, a node's result, a
// tensor a worker sends back) may take. Every value's size is checked against it before anything
// is allocated — at type inference, where the error can name the input, constant or node
// (infer_graph), and again in the Tensor constructor, where every allocation passes — so that a
// hostile or mistyped model (an input of f32[1500000000], an expand to 10^15 elements) is a clear
// error and not a machine swapping to death. The values of one run of a graph together have a
// budget too (eight inputs of 1.9 GiB each are as fatal as one of 15 GiB), checked at type
// inference as well. docs/architecture.md, "Memory budget".
#pragma once

#include <cstdint>
#include <optional>

#include "core/base/dtype.h"
#include "core/base/shape.h"

namespace retort {

inline constexpr uint64_t kValueByteBudget = uint64_t{2} << 30;  // 2 GiB per value

// The bytes a value of this dtype and shape takes, or nullopt when it does not fit in 64 bits
// (negative dimensions count as 0 here; callers check them).
std::optional<uint64_t> value_bytes(DType dtype, const Shape& shape);

// Throws an (unlocated) Error naming the type and its size when a value of it would take more
// than the budget; the caller adds which value it is.
void check_value_budget(DType dtype, const Shape& shape);

// The bytes the values of one run (its inputs, constants and every node's result, which a
// compare keeps) may take together: half the machine's memory, never less than one value's
// budget.
uint64_t total_value_budget();
// A test's budget; 0 goes back to the machine's.
void set_total_value_budget(uint64_t bytes);
// Throws an (unlocated) Error when values taking `bytes` together pass the total budget.
void check_total_value_budget(uint64_t bytes);

}  // namespace retort
