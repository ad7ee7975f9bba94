// Seeded input tensors for running a graph: each input gets values in the domain that the ops
// reading it need (log gets positive values, acos values in [-1, 1]...).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

// How inputs are drawn, and the inputs a person fixed (`input`, `inputs --range`).
//   standard  floats in [-1, 1), integers in [-8, 8] (the default: products stay far from
//             overflow)
//   full      integers over their dtype's whole range (wrap-around), floats with magnitudes
//             2^-8 .. 2^14 of either sign (a sigmoid near 1, an exp that overflows f16)
//   interval  uniform in [lo, hi] (integers rounded, clipped to the dtype)
//   special   each element, with probability 1/2, one of 0, -0, 1, -1, the dtype's min and max,
//             inf, -inf and nan where the dtype has them; otherwise a standard draw
//   wide      integers where narrower paths wrap, drawn exactly (never through a double): near
//             and past +-2^31, 2^32, +-2^53 and the i64 ends for i64, near a narrow dtype's ends,
//             half range (a sum wraps) and square root of its range (a product wraps), and
//             magnitudes spread over every power of two up to the dtype's top; floats near the
//             powers of two where integer types end (2^7 .. 2^64, within the dtype's range);
//             a quarter of the elements a standard draw
// An input that an op needs in a domain (log: positive) keeps its domain draw whatever the range;
// a note says so. Fixed values win over any draw.
enum class InputRange { Standard, Full, Interval, Special, Wide };

struct InputPlan {
  InputRange range = InputRange::Standard;
  double lo = 0, hi = 0;                // interval
  std::map<std::string, Tensor> fixed;  // input name -> its values

  // "standard", "full", "-100..100", "special" or "wide".
  std::string range_str() const;
  // range_str(), then " (fixed: x, y)" when any input is fixed.
  std::string str() const;
};

// "full", "special", "standard", "wide", "LO..HI" (LO <= HI, numbers); nullopt otherwise.
std::optional<InputPlan> parse_input_range(const std::string& text);

// A plan drawn per fuzzing case from its seed, so that a campaign covers every range: wide with
// probability `wide`, else standard half the time, full, special and a wide interval
// ([-1000, 1000]) otherwise. The wide coin has a stream of its own, so with wide = 0 every seed
// draws the plan it drew before the wide plan existed (stored campaigns replay unchanged).
InputPlan campaign_input_plan(uint64_t case_seed, double wide = 0);

// One tensor per graph input. Each input draws from its own Rng seeded by the session seed and
// the input's name, so adding or removing an input leaves the values of the others unchanged.
// When an input's values are restricted to a domain, a line saying so is appended to notes
// ("x: positive values (log needs them)"); notes may be null. A fixed input whose type is not the
// graph's is an Error.
TensorMap generate_inputs(const Graph& g, uint64_t seed, std::vector<std::string>* notes,
                          const InputPlan& plan = {});

}  // namespace retort
