// A node pattern: one op with conditions on its attributes and its first operand, such as "a
// max_pool with auto_pad SAME and a dilation above 1". A known bug declares the pattern that
// triggers it (core/campaign/known_bugs.h): the generator draws nodes that match one of
// GenOptions::avoid less often, and the known-bug check looks for it in a finding's failing
// slice. docs/campaigns.md, "Known bugs".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph/graph.h"

namespace retort {

// What one attribute must be: one of `any_of` (its value as plain JSON: 3, "SAME_UPPER",
// [1, 2]), or an integer above `above` or below `below` (for a list: some element so). An
// attribute the node lacks matches nothing.
struct AttrCondition {
  std::vector<nlohmann::json> any_of;
  std::optional<int64_t> above, below;
};

struct NodePattern {
  std::vector<std::string> ops;  // registry op names: a node of any of them; empty: any op
  std::map<std::string, AttrCondition> attrs;
  std::vector<DType> dtypes;       // of the first operand; empty: any
  std::optional<int> rank;         // of the first operand
  std::vector<std::string> after;  // ops, one of which makes the first operand; empty: any
  bool twin = false;               // another node of the same op reads the same first operand
  bool empty = false;              // the first operand has no elements (a dim of size 0)
  std::vector<int> empty_axes;     // with empty: that dim is one of these axes; none: any

  // What the pattern asks of a node, its first operand's type and maker, and whether another
  // node of its op reads that operand.
  bool matches(const std::string& node_op, const Attrs& node_attrs, const TensorType* first,
               const std::string& first_maker, bool has_twin) const;
  // The same for a node of a typed graph.
  bool matches(const Graph& g, const Node& n) const;
  bool has_op(const std::string& node_op) const;
  // Whether `shape` has a size-0 dim where `empty_axes` allows one.
  bool has_empty_dim(const Shape& shape) const;

  // {"op": "max_pool", "attrs": {"auto_pad": {"any_of": ["SAME_UPPER"]}, "dilations":
  // {"above": 1}}, "dtypes": ["f32"], "rank": 0, "after": "relu", "twin": true, "empty": true};
  // "op" and "after" are one name or a list of them (one bug in several kernels, or behind
  // several producers that one pass folds); "empty" is true or the axes where the size-0 dim
  // may be ([1]: a conv's channels, [2, 3, 4]: its spatial dims). Every field may be left
  // out, op (any op) only where another is given: {"dtypes": ["i64"]} is every op of an i64
  // first operand (OpenVINO's CPU plugin runs all of them in 32 bits).
  nlohmann::json to_json() const;
  // Throws Error naming `where` and the field when the JSON is no pattern or names an op the
  // registry lacks.
  static NodePattern from_json(const nlohmann::json& j, const std::string& where);
  // "max_pool auto_pad in SAME_UPPER|SAME_LOWER, dilations > 1", "mod fmod = 1, of i64",
  // "reduce_max|argmax of an empty tensor", "any op of i64", for people.
  std::string str() const;
};

// The pattern of node `n` of g as it is: its op, every attribute at its value, its first
// operand's dtype (a root a person adds from a finding, `findings known add`).
NodePattern pattern_of_node(const Graph& g, const Node& n);

}  // namespace retort
