#include "core/graph/functions.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/graph/graph_dot.h"

namespace retort {

namespace {

constexpr std::string_view kFormNames[] = {"body", "forward", "returns", "closure"};

// The node indices of a call in graph order; throws Error when a node is missing.
std::vector<size_t> call_node_indices(const Graph& g, const Call& call) {
  std::set<std::string> wanted(call.nodes.begin(), call.nodes.end());
  if (wanted.size() != call.nodes.size()) fail("a call of '{}' lists a node twice", call.function);
  std::vector<size_t> at;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (wanted.erase(g.nodes[i].name)) at.push_back(i);
  if (!wanted.empty())
    fail("a call of '{}' covers node '{}', which is not in the graph", call.function,
         *wanted.begin());
  if (at.empty()) fail("a call of '{}' covers no node", call.function);
  return at;
}

// Convexity: a value that leaves the call must not flow back into it, or no single call could
// compute it (its arguments would depend on its own results).
void check_convex(const Graph& g, const Call& call, const std::vector<size_t>& at) {
  std::set<size_t> inside(at.begin(), at.end());
  std::set<std::string> made;       // values the call's nodes produce
  std::set<std::string> from_call;  // values computed outside the call from what it produced
  auto reads_any = [](const Node& n, const std::set<std::string>& values) {
    return std::any_of(n.inputs.begin(), n.inputs.end(),
                       [&](const std::string& v) { return values.count(v) > 0; });
  };
  for (size_t i = at.front(); i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (inside.count(i)) {
      if (reads_any(n, from_call))
        fail(
            "the call of '{}' is not convex: {} reads a value computed outside the call from the "
            "call's own values",
            call.function, node_ref(n));
      made.insert(n.outputs.begin(), n.outputs.end());
    } else if (reads_any(n, made) || reads_any(n, from_call)) {
      from_call.insert(n.outputs.begin(), n.outputs.end());
    }
  }
}

// What a call computes, independent of value names: each node's op, attributes and where its
// inputs come from (argument k with its type, or the j-th value made inside), and the results.
std::string body_signature(const Graph& g, const Call& call) {
  CallInterface io = call_interface(g, call);
  std::map<std::string, std::string> ref;
  for (size_t k = 0; k < io.args.size(); ++k)
    ref[io.args[k]] = fmt::format("a{}:{}", k, g.type_of(io.args[k]).str());
  std::string sig;
  size_t made = 0;
  for (size_t i : call_node_indices(g, call)) {
    const Node& n = g.nodes[i];
    sig += n.op + "(";
    for (const auto& [key, value] : n.attrs) sig += key + "=" + attr_value_str(value) + ",";
    sig += ")[";
    for (const auto& in : n.inputs) sig += (in.empty() ? "_" : ref.at(in)) + ",";
    sig += "]";
    for (const auto& o : n.outputs) ref[o] = fmt::format("v{}", made++);
    sig += fmt::format("{};", n.outputs.size());
  }
  sig += "->";
  for (const auto& r : io.results) sig += ref.at(r) + ",";
  return sig;
}

// Checks one call on its own (its function exists; its nodes exist and are convex).
void check_call(const Graph& g, const Call& call) {
  if (!find_function(g, call.function)) fail("a call names unknown function '{}'", call.function);
  std::vector<size_t> at = call_node_indices(g, call);
  check_convex(g, call, at);
  if (call_interface(g, call).results.empty())
    fail("a call of '{}' returns nothing (no node outside it or output reads its values)",
         call.function);
}

void check_function_table(const Graph& g) {
  std::set<std::string> names, wrapped;
  for (const Function& f : g.functions) {
    if (f.name.empty()) fail("a function has an empty name");
    if (!names.insert(f.name).second) fail("function '{}' is defined twice", f.name);
  }
  for (const Function& f : g.functions) {
    if (f.form == FunctionForm::Body ? !f.target.empty() : !names.count(f.target))
      fail("function '{}' {} '{}'", f.name,
           f.form == FunctionForm::Body ? "is a body; it cannot wrap" : "wraps unknown function",
           f.target);
  }
  for (const Function& f : g.functions) {
    if (f.form == FunctionForm::Body) continue;
    if (!wrapped.insert(f.target).second)
      fail("function '{}' is wrapped twice (its calls go through one wrapper)", f.target);
    // Follow the chain: it must reach a body without coming back.
    std::set<std::string> seen{f.name};
    for (const Function* t = find_function(g, f.target); t->form != FunctionForm::Body;
         t = find_function(g, t->target))
      if (!seen.insert(t->name).second)
        fail("function '{}' wraps itself through '{}'", f.name, t->name);
  }
  for (const Call& c : g.calls)
    if (wrapped.count(c.function))
      fail("function '{}' is called directly, but its calls go through its wrapper", c.function);
}

// With each call contracted to one unit, the graph must stay acyclic: two calls that each
// read what the other returns cannot both be called.
void check_calls_acyclic(const Graph& g) {
  std::map<std::string, size_t> unit_of_node, unit_of_value;
  for (size_t c = 0; c < g.calls.size(); ++c)
    for (const auto& n : g.calls[c].nodes) unit_of_node[n] = c;
  size_t units = g.calls.size();
  std::vector<size_t> unit(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    auto it = unit_of_node.find(g.nodes[i].name);
    unit[i] = it != unit_of_node.end() ? it->second : units++;
    for (const auto& o : g.nodes[i].outputs) unit_of_value[o] = unit[i];
  }
  std::vector<std::set<size_t>> next(units);
  std::vector<size_t> indegree(units, 0);
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& in : g.nodes[i].inputs) {
      auto from = unit_of_value.find(in);
      if (from != unit_of_value.end() && from->second != unit[i] &&
          next[from->second].insert(unit[i]).second)
        ++indegree[unit[i]];
    }
  std::vector<size_t> ready;
  for (size_t u = 0; u < units; ++u)
    if (indegree[u] == 0) ready.push_back(u);
  size_t done = 0;
  while (!ready.empty()) {
    size_t u = ready.back();
    ready.pop_back();
    ++done;
    for (size_t v : next[u])
      if (--indegree[v] == 0) ready.push_back(v);
  }
  if (done != units) fail("calls depend on each other in a cycle; no order could call them");
}

}  // namespace

std::string_view function_form_name(FunctionForm form) {
  return kFormNames[static_cast<size_t>(form)];
}

std::optional<FunctionForm> parse_function_form(std::string_view name) {
  for (size_t i = 0; i < std::size(kFormNames); ++i)
    if (kFormNames[i] == name) return static_cast<FunctionForm>(i);
  return std::nullopt;
}

CallInterface call_interface(const Graph& g, const Call& call) {
  std::set<std::string> members(call.nodes.begin(), call.nodes.end());
  std::set<std::string> made, args;
  CallInterface io;
  std::vector<std::string> produced;
  for (const Node& n : g.nodes) {
    if (!members.count(n.name)) continue;
    for (const auto& in : n.inputs)
      if (!in.empty() && !made.count(in) && args.insert(in).second) io.args.push_back(in);
    for (const auto& o : n.outputs) {
      made.insert(o);
      produced.push_back(o);
    }
  }
  std::set<std::string> read_outside(g.outputs.begin(), g.outputs.end());
  for (const Node& n : g.nodes)
    if (!members.count(n.name)) read_outside.insert(n.inputs.begin(), n.inputs.end());
  for (const auto& v : produced)
    if (read_outside.count(v)) io.results.push_back(v);
  return io;
}

const Function* find_function(const Graph& g, std::string_view name) {
  for (const Function& f : g.functions)
    if (f.name == name) return &f;
  return nullptr;
}

const Function& body_function(const Graph& g, std::string_view name) {
  const Function* f = find_function(g, name);
  while (f && f->form != FunctionForm::Body) f = find_function(g, f->target);
  if (!f) fail("function '{}' does not end in a body", name);
  return *f;
}

namespace {

// What the calls taken so far fix: the nodes they cover, and what each body computes.
struct CallLedger {
  std::map<std::string, std::string> covered;       // node -> the function of the call covering it
  std::map<std::string, std::string> signature_of;  // body -> what its first call computes
};

// Why call c cannot join the calls in the ledger (a node one of them covers, a body that computes
// something else), or nullopt, and then it has joined. Throws Error when its function does not
// end in a body.
std::optional<std::string> join_call(const Graph& g, const Call& c, CallLedger& ledger) {
  for (const auto& n : c.nodes)
    if (auto it = ledger.covered.find(n); it != ledger.covered.end())
      return fmt::format("node '{}' is in a call of '{}' and in a call of '{}'", n, it->second,
                         c.function);
  const std::string& body = body_function(g, c.function).name;
  std::string sig = body_signature(g, c);
  auto [it, first] = ledger.signature_of.emplace(body, sig);
  if (!first && it->second != sig)
    return fmt::format(
        "the calls of function '{}' compute different things (the call covering node '{}' "
        "differs from the first one in its ops, attributes, wiring or argument types)",
        body, c.nodes.front());
  for (const auto& n : c.nodes) ledger.covered.emplace(n, c.function);
  return std::nullopt;
}

}  // namespace

void check_functions(const Graph& g) {
  if (g.functions.empty() && g.calls.empty()) return;
  check_function_table(g);
  CallLedger ledger;
  for (const Call& c : g.calls) {
    check_call(g, c);
    if (auto problem = join_call(g, c, ledger)) fail("{}", *problem);
  }
  check_calls_acyclic(g);
}

std::optional<std::string> call_problem(const Graph& g, const Call& call) {
  try {
    check_call(g, call);
    return std::nullopt;
  } catch (const Error& e) {
    return e.message();
  }
}

void inline_functions(Graph& g) {
  g.functions.clear();
  g.calls.clear();
}

size_t drop_broken_calls(Graph& g) {
  size_t before = g.calls.size();
  CallLedger ledger;
  std::vector<Call> kept;
  for (const Call& c : g.calls) {
    if (call_problem(g, c)) continue;
    try {
      if (!join_call(g, c, ledger)) kept.push_back(c);
    } catch (const Error&) {
      continue;  // its function no longer ends in a body
    }
  }
  g.calls = std::move(kept);
  try {
    check_calls_acyclic(g);
  } catch (const Error&) {
    g.calls.clear();
  }
  // Keep the functions a call still reaches, with the wrappers on the way.
  std::set<std::string> used;
  for (const Call& c : g.calls)
    for (const Function* f = find_function(g, c.function); f && used.insert(f->name).second;
         f = f->form == FunctionForm::Body ? nullptr : find_function(g, f->target)) {
    }
  std::erase_if(g.functions, [&](const Function& f) { return !used.count(f.name); });
  return before - g.calls.size();
}

}  // namespace retort
