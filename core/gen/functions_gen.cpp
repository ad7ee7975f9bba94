#include "core/gen/functions_gen.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/base/dtype.h"
#include "core/base/error.h"

namespace retort {

namespace {

std::string fresh_function_name(const Graph& g, std::string_view stem) {
  for (int k = 0;; ++k) {
    std::string name = fmt::format("{}{}", stem, k);
    if (!find_function(g, name)) return name;
  }
}

std::set<std::string> covered_nodes(const Graph& g) {
  std::set<std::string> covered;
  for (const Call& c : g.calls) covered.insert(c.nodes.begin(), c.nodes.end());
  return covered;
}

// The free nodes next to a piece: producers of what it reads, readers of what it makes.
std::vector<std::string> neighbours(const Graph& g, const std::set<std::string>& piece,
                                    const std::set<std::string>& taken) {
  std::set<std::string> reads, makes;
  for (const Node& n : g.nodes)
    if (piece.count(n.name)) {
      reads.insert(n.inputs.begin(), n.inputs.end());
      makes.insert(n.outputs.begin(), n.outputs.end());
    }
  std::vector<std::string> out;
  for (const Node& n : g.nodes) {
    if (piece.count(n.name) || taken.count(n.name)) continue;
    bool next = std::any_of(n.outputs.begin(), n.outputs.end(),
                            [&](const std::string& v) { return reads.count(v) > 0; }) ||
                std::any_of(n.inputs.begin(), n.inputs.end(),
                            [&](const std::string& v) { return makes.count(v) > 0; });
    if (next) out.push_back(n.name);
  }
  return out;
}

// Grows a connected piece from a random free node, one neighbour at a time, keeping only steps
// after which the piece could still be a call.
std::vector<std::string> grow_piece(const Graph& g, Rng& rng, int size,
                                    const std::set<std::string>& taken) {
  std::vector<std::string> free;
  for (const Node& n : g.nodes)
    if (!taken.count(n.name)) free.push_back(n.name);
  if (free.empty()) return {};
  std::vector<std::string> piece{pick_from(rng, free)};
  std::set<std::string> in_piece(piece.begin(), piece.end());
  Graph probe = g;  // call_problem asks for the called function to exist
  probe.functions = {{"probe", FunctionForm::Body, ""}};
  while (static_cast<int>(piece.size()) < size) {
    std::vector<std::string> next = neighbours(g, in_piece, taken);
    shuffle(rng, next);
    bool grown = false;
    for (const auto& n : next) {
      Call trial{"probe", piece};
      trial.nodes.push_back(n);
      if (call_problem(probe, trial)) continue;
      piece.push_back(n);
      in_piece.insert(n);
      grown = true;
      break;
    }
    if (!grown) break;
  }
  return piece;
}

// What another call passes for argument `arg`: a float value of g with the same type (an input
// or a node result), or `arg` itself. Integer values and constants stay: they often carry what
// an op needs of its values (indices in range, a divisor without zeros), which the generator
// made sure of for `arg` only.
std::string other_argument(const Graph& g, Rng& rng, const std::string& arg) {
  const TensorType& t = g.type_of(arg);
  if (!is_float(t.dtype) || g.find_constant(arg)) return arg;
  std::vector<std::string> same;
  for (const auto& [name, type] : g.types)
    if (type == t && !g.find_constant(name)) same.push_back(name);
  return pick_from(rng, same);
}

// One more call of `fn`: a copy of the first call's nodes reading other values of the same
// types; what it returns becomes graph outputs (nothing else reads it).
void add_extra_call(Graph& g, Rng& rng, const Call& first) {
  CallInterface io = call_interface(g, first);
  std::map<std::string, std::string> renamed;
  for (const auto& a : io.args) renamed[a] = other_argument(g, rng, a);
  std::set<std::string> members(first.nodes.begin(), first.nodes.end());
  std::vector<Node> copies;
  Call call{first.function, {}};
  Graph naming = g;  // fresh names must avoid the copies made so far too
  for (const Node& n : g.nodes) {
    if (!members.count(n.name)) continue;
    Node c = n;
    for (auto& o : c.outputs) {
      std::string fresh = fresh_value_name(naming, o + "_c");
      naming.inputs.push_back({fresh, {}});
      renamed[o] = fresh;
      o = fresh;
    }
    c.name = c.outputs.front();
    for (auto& in : c.inputs)
      if (!in.empty()) in = renamed.at(in);
    call.nodes.push_back(c.name);
    copies.push_back(std::move(c));
  }
  g.nodes.insert(g.nodes.end(), copies.begin(), copies.end());
  for (const auto& r : io.results) g.outputs.push_back(renamed.at(r));
  g.calls.push_back(std::move(call));
}

}  // namespace

std::optional<std::string> add_function(Graph& g, Rng& rng, const FunctionGenOptions& o) {
  // A piece can fail to be a call (a lone node nobody reads returns nothing; two calls can
  // depend on each other): try a few.
  constexpr int kAttempts = 8;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::vector<std::string> piece = grow_piece(
        g, rng, static_cast<int>(rng.uniform_int(1, std::max(1, o.max_body))), covered_nodes(g));
    if (piece.empty()) return std::nullopt;
    // In graph order, as a person reads the call.
    std::map<std::string, size_t> at;
    for (size_t i = 0; i < g.nodes.size(); ++i) at[g.nodes[i].name] = i;
    std::sort(piece.begin(), piece.end(),
              [&](const std::string& a, const std::string& b) { return at[a] < at[b]; });
    Graph trial = g;
    std::string name = fresh_function_name(g, "f");
    trial.functions.push_back({name, FunctionForm::Body, ""});
    Call first{name, piece};
    trial.calls.push_back(first);
    if (call_problem(trial, first)) continue;
    int extra = static_cast<int>(rng.uniform_int(0, std::max(0, o.max_extra_calls)));
    for (int k = 0; k < extra; ++k) add_extra_call(trial, rng, first);
    try {
      infer_graph(trial);
    } catch (const Error&) {
      continue;
    }
    g = std::move(trial);
    return name;
  }
  return std::nullopt;
}

std::optional<std::string> rewrite_function(Graph& g, Rng& rng, std::optional<FunctionForm> form,
                                            const std::string& target) {
  if (form == FunctionForm::Body) fail("a rewrite wraps a function: forward, returns or closure");
  std::vector<std::string> called;
  for (const Call& c : g.calls)
    if (std::find(called.begin(), called.end(), c.function) == called.end())
      called.push_back(c.function);
  if (!target.empty() && std::find(called.begin(), called.end(), target) == called.end()) {
    if (find_function(g, target))
      fail("function '{}' is called only through its wrapper; rewrite the wrapper", target);
    fail("no function '{}'", target);
  }
  if (called.empty()) return std::nullopt;
  std::string wrapped = target.empty() ? pick_from(rng, called) : target;
  static constexpr FunctionForm kForms[] = {FunctionForm::Forward, FunctionForm::Returns,
                                            FunctionForm::Closure};
  FunctionForm chosen = form ? *form : pick_from(rng, kForms);
  std::string name = fresh_function_name(g, "w");
  g.functions.push_back({name, chosen, wrapped});
  for (Call& c : g.calls)
    if (c.function == wrapped) c.function = name;
  check_functions(g);
  return name;
}

Graph with_functions(const Graph& g, Rng& rng, int functions, int rewrites) {
  Graph out = g;
  for (int k = 0; k < functions; ++k)
    if (!add_function(out, rng)) break;
  for (int k = 0; k < rewrites; ++k)
    if (!rewrite_function(out, rng)) break;
  return out;
}

}  // namespace retort
