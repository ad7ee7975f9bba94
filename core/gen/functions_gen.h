// HirFuzz's function and call nodes, made on a generated graph (seeds/001 section 3.1.4 and the
// function rewrite of 3.2.2; docs/techniques.md): a piece of the graph collapsed into a function
// that is called once or more, and the rewrites that change only the call chain.
#pragma once

#include <optional>
#include <string>

#include "core/base/rng.h"
#include "core/graph/graph.h"

namespace retort {

struct FunctionGenOptions {
  int max_body = 4;         // nodes in a function's body, at most
  int max_extra_calls = 2;  // further calls of it on other values of the same types
};

// Collapses a random connected, convex piece of g (of nodes no call covers yet) into a new body
// function called there, then calls it up to max_extra_calls more times on other values of the
// argument types (copies of the piece whose results become graph outputs). Returns the
// function's name; nullopt when no node is left to collapse. g must be inferred and stays so.
std::optional<std::string> add_function(Graph& g, Rng& rng, const FunctionGenOptions& o = {});

// The function rewrite: wraps a function that calls reach directly (`target`, or a random one)
// in a new function of `form` (forward, returns or closure; random when nullopt), and its calls
// go through the wrapper. Repeated forwards make a call chain. Returns the wrapper's name;
// nullopt when g has no call. Throws Error for an unknown target or a body form.
std::optional<std::string> rewrite_function(Graph& g, Rng& rng,
                                            std::optional<FunctionForm> form = std::nullopt,
                                            const std::string& target = "");

// A generated graph with HirFuzz's functions: `functions` pieces collapsed (fewer when the graph
// runs out of nodes), then `rewrites` function rewrites.
Graph with_functions(const Graph& g, Rng& rng, int functions, int rewrites);

}  // namespace retort
