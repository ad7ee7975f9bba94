// Seeded random generation of well-typed graphs (HirFuzz-style, constraint-aware): for tests now
// and the fuzzer later. Ops, their arity and attributes come from the registry; registry
// inference decides whether a candidate node is kept. See docs/generator.md.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/dtype.h"
#include "core/gen/node_pattern.h"
#include "core/graph/graph.h"

namespace retort {

// Shapes where compilers switch code paths (docs/generator.md, "Shape classes"). A graph drawn
// with a class makes its new leaves' shapes so:
//   vector  the last dimension a length at or just past a vector width (1, 7-9, 15-17, 31-33,
//           63-65): the vectorized body and the scalar tail disagree there
//   empty   one dimension 0: size-0 tensors
//   unit    dimensions of 1 (each with probability 0.6): broadcasts and squeezed loops
//   large   one dimension of 16384..65536, the rest small: where libraries switch paths and
//           reductions get long
// and every value of it holds at most kShapeClassElements elements.
enum class ShapeClass { Plain, Vector, Empty, Unit, Large };
inline constexpr ShapeClass kShapeClasses[] = {ShapeClass::Vector, ShapeClass::Empty,
                                               ShapeClass::Unit, ShapeClass::Large};
inline constexpr int64_t kShapeClassElements = int64_t{1} << 17;

std::string_view shape_class_name(ShapeClass c);  // "plain", "vector", ...

struct GenOptions {
  int min_nodes = 10, max_nodes = 30;  // the op node count is drawn from [min_nodes, max_nodes]
  // Every value of the graph (inputs, constants, node results) has one of these dtypes.
  std::vector<DType> dtypes{std::begin(kDefaultDrawnDTypes), std::end(kDefaultDrawnDTypes)};
  int max_rank = 4;  // of every value
  int64_t max_dim =
      6;  // of input and constant dimensions; results stay below max_dim^max_rank elements
  int max_inputs = 3;            // graph inputs; further leaves become constants
  double const_prob = 0.3;       // chance that a new leaf is a constant rather than a graph input
  std::vector<std::string> ops;  // registry op names to draw from; empty: every registry op
  // Per op: the dtypes its first operand may have (what a backend supports, from
  // core/backend/support.h). Ops not listed are unrestricted; an op listed with none is not drawn.
  std::map<std::string, std::set<DType>> op_dtypes;
  // A node that matches one of these (a known bug's trigger, core/campaign/known_bugs.h) is kept
  // with probability avoid_keep only, else drawn again: the budget goes to bugs not known yet.
  // The coin is thrown only for a matching node, so a graph with none is drawn as without them.
  std::vector<NodePattern> avoid;
  double avoid_keep = 0.1;
  // The chance that a graph draws its leaves' shapes from a shape class (each equally likely)
  // instead of dimensions up to max_dim. The coin and the class have a stream of their own, so
  // with 0 every seed gives the graph it gave before shape classes existed.
  double shape_classes = 0;
};

// The shape class that generate_graph(options, seed) draws with (Plain: none).
ShapeClass graph_shape_class(const GenOptions& options, uint64_t seed);

// A graph that has passed infer_graph, with between min_nodes and max_nodes op nodes; every value
// nobody reads is an output. The same options and seed give the same graph. Throws Error when the
// options are malformed or no node can be typed with them (e.g. ops {"not"} with dtypes {f32}).
Graph generate_graph(const GenOptions& options, uint64_t seed);

}  // namespace retort
