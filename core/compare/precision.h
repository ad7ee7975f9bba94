// The `precision` verdict: a compiler may compute f16 or bf16 (or f32) ops in a wider type and
// skip some of the roundings back to the declared dtype (ONNX Runtime runs f16 math in f32, and
// may not round before an f16 intermediate overflows). Such a result lies in the band that the
// reference, which rounds after every op, and the wider evaluations of the same graph span (f16
// and bf16 made f32; every f16, bf16 and f32 made f64). An explicit cast up from a narrower
// float is never crossed: its input is rounded to its dtype in every evaluation, and an output it
// makes holds only that dtype's values (ONNX Runtime's f16 product cast to f64 without its f16
// rounding is a bug, the class of its #8787/#9915; 1.16.3 and 1.30.0 do it). Behind a discontinuous
// op (a cast to an integer or bool, a comparison, floor, ceil, round, sign) the skipped rounding
// becomes a jump, which lands on the value one of those evaluations gives. Two more evaluations of
// the graph move every sum up, then down, by the rounding that summing in another order or in the
// dtype may add (eps x the sum of its terms' magnitudes; an integer mean by its division in f64),
// so that a compiler's f32 cancellation lies in the band too; and two more take each step (floor,
// ceil, round, sign, a comparison, a cast to an integer or bool) the other way where its computed
// input lies within tolerance of the step; and two more move each approximated function's results
// (exp, tanh, sin, asin, pow, softmax...) by the few ulps a library may be off. One wider type,
// with those moves, must explain all the outputs of a backend's run: a compiler does not compute
// one output in f32 and another in f64. A difference inside the band is shown, but is not a
// miscompilation unless asked (docs/compare.md). All three oracles use it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/compare/tensor_diff.h"
#include "core/compare/tolerance.h"
#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

// What a widened graph does with the narrower floats that ops which only move data (reshapes,
// slices, concatenations) read: keep them wide, or round them to their dtype first, as a runtime
// that keeps math in f32 only between such kernels does.
enum class WideMoves { Wide, RoundedToTheirDType };

// g with every float value narrower than `to` (inputs, constants, node results, dtype
// attributes) made `to`, so that evaluating it rounds nothing below that type but the input of
// an explicit cast up from a narrower float, which it rounds to that float first (and, with
// WideMoves::RoundedToTheirDType, the narrower inputs of ops that only move data). Empty when
// nothing is narrower, g has opaque nodes, or its ops do not take `to` there.
std::optional<Graph> widened_graph(const Graph& g, DType to = DType::f64,
                                   WideMoves moves = WideMoves::Wide);

// The inputs converted to the widened graph's input types.
TensorMap widen_inputs(const Graph& wide, const TensorMap& inputs);

// Whether every element of `actual` lies in the band the reference's value and the wider
// evaluations' values span (all the same output), each also rounded to actual's dtype as a
// compiler stores it, within the tolerance: between them for floats and integers, one of them
// for bool, a NaN or infinity only where one of them has it.
bool within_precision_band(const Tensor& actual, const Tensor& reference,
                           const std::vector<const Tensor*>& wide,
                           const ToleranceTable& tolerances);

// The narrower float whose values `value` of g holds because an explicit cast up made it of one
// (through casts up: cast(cast(h, to=f32), to=f64) of an f16 h holds f16 values); nullopt for
// any other value. g must hold its types.
std::optional<DType> held_in(const Graph& g, const std::string& value);

// Marks as mismatched the passing outputs of `actual`, a run of g, that an explicit cast up made
// of a narrower float yet hold values that float does not: the cast's input is exact in its dtype
// in every evaluation, so such a value is the rounding the cast owes, lost, however close it is.
// ONNX Runtime's f16 math in f32 cast to f32 (docs/bugs.md row 27) lies within f32's tolerance of
// the f16 value and would pass.
void mark_lost_roundings(RunComparison& c, const Graph& g, const RunResult& actual,
                         const RunResult& expected);

// The wider evaluations of each compared graph, made when a check first needs them: one per
// wider type (f16 as f32, throughout or rounded where data only moves; everything as f64), and the
// graph with its sums, standardizations, steps, casts up, approximated functions and resize
// coordinates moved either way, opened across poles and periods. A backend's run
// is explained by one wider type, all its outputs alike: a compiler computes a graph in one type,
// not each output in another.
class PrecisionBands {
 public:
  // graphs[g] and every value of the reference's evaluation of it (nullptr where it failed);
  // both must outlive this object.
  PrecisionBands(const std::vector<const Graph*>& graphs,
                 const std::vector<const TensorMap*>& reference, const TensorMap& inputs,
                 const ToleranceTable& tolerances);

  // Whether one wider type (with the moves) puts every listed output of a backend's run of
  // graph g (`run`, the run's values by name) in the band it spans with the reference. An output
  // that an explicit cast up made of a narrower float (cast(h, to=f64) of an f16 h) must hold
  // only that float's values: the cast's input is exact in its dtype in every evaluation. False
  // for no outputs.
  bool explains(size_t g, const TensorMap& run, const std::vector<std::string>& outputs);

 private:
  struct Evaluations {
    std::vector<TensorMap> wide;   // one per wider type (and way of widening)
    std::vector<TensorMap> moved;  // the graph's own type, its values moved
  };
  const Evaluations& evaluations(size_t g);

  std::vector<const Graph*> graphs_;
  std::vector<const TensorMap*> reference_;
  const TensorMap& inputs_;
  const ToleranceTable& tolerances_;
  std::map<size_t, Evaluations> evaluations_;
};

}  // namespace retort
