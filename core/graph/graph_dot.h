// DOT text of a computation graph (pure text; views/ lays it out and renders it). Node ids in
// the DOT text are stable and readable: `in:NAME` for inputs, `const:NAME` for constants,
// `node:NAME` for ops and `out:NAME` for the output markers, so a layout can be mapped back.
// Also the one naming of nodes for readers (node_title, node_ref, value_ref): what boxes show is
// what panes, commands and messages say.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace retort {

struct GraphDotOptions {
  // Op nodes (by node name) filled with a colour: the last rewrite's additions, a diff...
  std::map<std::string, std::string> fill;
  // Output markers (by value name) filled with a colour and labelled with a note under the
  // name: a report's failing output ("wrong shape").
  std::map<std::string, std::pair<std::string, std::string>> output_marks;
  bool show_constants = true;
  bool show_attrs = true;
  std::string cluster;    // when set, the graph is one `subgraph cluster_<cluster>` (for diffs)
  std::string id_prefix;  // prepended to every DOT id, so two graphs can share one picture
  // Op nodes drawn as one dashed box per region (node name -> region name): the box says how
  // many nodes and which ops it stands for, and edges to and from its nodes attach to it.
  std::map<std::string, std::string> collapse;
  // Operands drawn in a colour, their position in large digits (op node name -> a colour per
  // operand, "" for a plain one): what a rewrite that reorders operands (mul-comm) moved.
  std::map<std::string, std::vector<std::string>> operand_colors;
};

// A node's op with its operands in order, "mul(s, a)" (an omitted optional input is "_"): boxes
// say which operand is which, since a layout may draw them in any order (POLYJUICE Fig. 7's
// commutativity bugs hinge on it).
std::string operand_call(const Node& n);

// What a node is called where a reader sees it: its output values ("v3", "a, b"), the names its
// users' operand_call shows, so a picture or pane never names one thing two ways (a generated
// graph's node n2 writes value v3); the node's own name when it has no outputs.
std::string node_title(const Node& n);
// The node of g whose node_title is `title` (an Error's node()), or null.
const Node* node_titled(const Graph& g, const std::string& title);
// How a message names a node: its title and op, "node 'v3' (mul)"; never its internal name.
std::string node_ref(const Node& n);
std::string node_ref(const std::string& title, const std::string& op);
// How a message names a value: its producer's node_ref when the value is that node's only
// output, "value 'b' of node 'a, b' (split)" when it writes several, else "input 'x'" or
// "constant 'c'".
std::string value_ref(const Graph& g, const std::string& value);
// A compiler's message about g's exported model (whose nodes keep their names, n3) with each
// node name, as a whole word, read as its node_title (v3), as panes show it. A name that would
// read two ways (it is also a value's name, or its title another node's name) stays as it is.
std::string with_node_titles(std::string_view message, const Graph& g);

// Node ids of one graph's DOT text.
std::string dot_input_id(const std::string& name);
std::string dot_constant_id(const std::string& name);
std::string dot_node_id(const std::string& name);
std::string dot_output_id(const std::string& name);
std::string dot_region_id(const std::string& region);

// A complete `digraph` (or, with options.cluster, only the cluster's statements, to be placed
// inside a digraph by the caller). Arrows run in dataflow direction, operand to user. Boxes show
// the values a node writes, its op over its operands, attributes and output types; an edge into
// a node of several operands says only the operand's position (the type is on the box above).
std::string graph_dot(const Graph& g, const GraphDotOptions& options = {});

}  // namespace retort
