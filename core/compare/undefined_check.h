// Finds where a graph's inputs make an op undefined (division by zero, log of a negative...).
// POLYJUICE filters such graphs: compilers legitimately disagree there (a rewrite may turn a NaN
// into a number). The check reads each node's inputs, as the reference computed them, against
// the input domains of its op in the registry.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "core/exec/interpreter.h"
#include "core/graph/graph.h"
#include "core/ops/op_def.h"

namespace retort {

struct UndefinedUse {
  std::string node, op, value;  // the node, its op, and the input value out of its domain
  size_t input_index = 0;
  InputDomain domain;
  int64_t element = 0;  // flat index of the first element outside the domain
  double element_value = 0;
  // Set when the node's result, not an input, is undefined (an integer reduction that overflows):
  // the dtype it overflows, with element and element_value naming the exact result.
  std::string overflows{};
  // Set when the node's result is a mean of no values (its input is empty, its result is not).
  bool averages_nothing = false;
  // Set when a form a compiler may compute the node in cancels (ONNX Runtime's instance_norm
  // x * s + (b - mean * s)): the form, with element and element_value naming the term that
  // cancels.
  std::string cancels{};
  // Set when ONNX leaves the whole run open there, not only the value (an integer power with a
  // negative exponent, which Retort defines nowhere): an error or a crash is no bug either.
  bool any_outcome = false;
  // A later use in the graph that leaves any outcome open, as its str(), when this one does not:
  // a crash of the run is then no bug either (an i64 product past the range, then INT64_MIN / -1,
  // kills ONNX Runtime), but an error still is (the model may fail for a reason of its own).
  std::string crash_open_at{};
  // Every value of the graph computed from an undefined use (this one or a later one): a
  // difference in any other output is a difference all the same.
  std::set<std::string> tainted{};

  std::string str() const;  // "node 'd' (div) input 1 'z' needs non-zero values: [3] = 0"
};

// For a float op that sums (tags "accumulates": matmul, gemm, conv, sums; "averages": means):
// each element of its first result as the sum of the magnitudes of the terms it adds, in f64
// (infinities left out: they make the result the same in any order). Empty for other ops, when
// an input is omitted, and when no input is a float. inputs: the node's inputs (nullptr for an
// omitted optional one).
std::optional<Tensor> magnitude_sums(const Node& node, const OpDef& op,
                                     const std::vector<const Tensor*>& inputs);

// The values every compiler holds bit for bit: the graph's inputs and constants, and what shape
// ops (tag "shape": reshapes, slices, gathers, concatenations) make of those alone.
std::set<std::string> exact_values(const Graph& g);

// The mean and (biased) variance of x's elements [start, start + n), in f64 and in two passes,
// as the reference's standardizing ops compute them.
std::pair<double, double> block_statistics(const Tensor& x, int64_t start, int64_t n);

// The elements of x one statistic of a standardizing op covers (tag "standardizes"): a
// layer_norm's axes from `axis` on, a group_norm's group of channels with their planes, an
// instance_norm's plane; 0 for other ops.
int64_t normalized_block(const Node& node, const Shape& x);

// The first node in topological order that reads a value outside its op's input domain (or
// whose result its dtype cannot hold), with crash_open_at set when a later use leaves any outcome
// open, and tainted the values downstream of every use.
// values: the values of g to check (evaluate with keep_intermediates gives them all); a value
// missing from it is not checked. g must have passed infer_graph.
std::optional<UndefinedUse> find_undefined(const Graph& g, const TensorMap& values);

}  // namespace retort
