// HirFuzz's functions and calls (seeds/001, docs/techniques.md): a connected piece of a graph
// collapsed into a named function that the graph calls once or more.
//
// Retort keeps the graph flat. Every call site's nodes stay in Graph::nodes, inlined, and a Call
// records which nodes it covers; its arguments and results follow from the dataflow. So the
// interpreter, the e-graph and every analysis see the same computation whether or not there are
// functions, and only what Retort hands to compilers shows the calls: ONNX local functions
// (core/io/onnx_export.cpp) and nested Python functions (scripts/backends/retort_backends).
//
// A function is a body (the nodes of its call sites) or a wrapper of another function, in one of
// the paper's three function rewrites; a wrapped function is then called only through its
// wrapper:
//   forward  g(args) calls f(args) and returns what it returns  (the call chain)
//   returns  g() returns f itself; the call site calls g()(args) (wrapping in an empty function)
//   closure  g(args) defines f inside itself and returns f(args) (f becomes a local closure)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

struct Graph;

enum class FunctionForm { Body, Forward, Returns, Closure };
std::string_view function_form_name(FunctionForm form);
std::optional<FunctionForm> parse_function_form(std::string_view name);

struct Function {
  std::string name;
  FunctionForm form = FunctionForm::Body;
  std::string target;  // the wrapped function; empty for a body
  bool operator==(const Function&) const = default;
};

struct Call {
  std::string function;            // the function called here (a body or the outermost wrapper)
  std::vector<std::string> nodes;  // names of the inlined nodes this call covers
  bool operator==(const Call&) const = default;
};

// What a call passes and returns, from the dataflow: args are the values its nodes read that
// they do not produce (in order of first read), results the values they produce that are read
// outside the call or are graph outputs (in the order the nodes produce them).
struct CallInterface {
  std::vector<std::string> args, results;
};
CallInterface call_interface(const Graph& g, const Call& call);

const Function* find_function(const Graph& g, std::string_view name);
// The body function a call of `name` ends in, following wrappers. g must be valid.
const Function& body_function(const Graph& g, std::string_view name);

// Checks g.functions and g.calls against g's nodes (types inferred): names unique, wrappers end
// in a body without a cycle, a wrapped function is called only through its one wrapper, a call's
// nodes exist, belong to no other call and are convex (no path leaves the call and comes back),
// and all calls of one body compute the same thing on the same argument types. Throws Error.
void check_functions(const Graph& g);

// What is wrong with one call on its own (its function unknown, a node missing, not convex,
// nothing returned), or nullopt when it could stand.
std::optional<std::string> call_problem(const Graph& g, const Call& call);

// Forgets the functions and calls (the graph computes the same: calls are inlined already).
void inline_functions(Graph& g);
// Drops the calls that no longer hold after g's nodes were edited (a node of theirs gone or
// renamed, a changed body), then the functions nothing calls. Returns how many calls it dropped.
size_t drop_broken_calls(Graph& g);

}  // namespace retort
