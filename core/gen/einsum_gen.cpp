#include "core/gen/einsum_gen.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/graph/graph_dot.h"
#include "core/ops/attrs.h"

namespace retort {

namespace {

void check_options(const EinsumGenOptions& o) {
  if (o.min_inputs < 2 || o.max_inputs < o.min_inputs)
    fail("einsum inputs: need 2 <= min <= max, got {}..{}", o.min_inputs, o.max_inputs);
  if (o.max_rank < 1 || o.max_rank > o.pool)
    fail("einsum rank: need 1 <= rank <= pool size ({}), got {}", o.pool, o.max_rank);
  if (o.pool < 1 || o.pool > 26) fail("einsum label pool: 1..26 labels, got {}", o.pool);
  if (o.max_dim < 1) fail("einsum dimension: at least 1, got {}", o.max_dim);
}

// k distinct labels of the pool, in random order.
std::string draw_labels(int pool, int k, Rng& rng) {
  std::string all;
  for (int i = 0; i < pool; ++i) all += static_cast<char>('a' + i);
  for (int i = 0; i < k; ++i)
    std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(rng.uniform_int(i, pool - 1))]);
  return all.substr(0, static_cast<size_t>(k));
}

template <typename T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i) - 1))]);
}

// The operand terms of an equation "ij,jk->ik", and its output.
std::pair<std::vector<std::string>, std::string> split_equation(const std::string& eq) {
  size_t arrow = eq.find("->");
  if (arrow == std::string::npos) fail("einsum '{}': the mutation needs an explicit output", eq);
  std::vector<std::string> terms;
  std::string lhs = eq.substr(0, arrow);
  size_t start = 0;
  for (size_t comma; (comma = lhs.find(',', start)) != std::string::npos; start = comma + 1)
    terms.push_back(lhs.substr(start, comma - start));
  terms.push_back(lhs.substr(start));
  return {terms, eq.substr(arrow + 2)};
}

}  // namespace

std::string EinsumSpec::equation() const {
  return fmt::format("{}->{}", fmt::join(operands, ","), output);
}

std::string EinsumSpec::summed() const {
  std::string out;
  for (const auto& term : operands)
    for (char c : term)
      if (output.find(c) == std::string::npos && out.find(c) == std::string::npos) out += c;
  return out;
}

Shape EinsumSpec::shape_of(const std::string& labels) const {
  Shape s;
  for (char c : labels) s.push_back(sizes.at(static_cast<size_t>(c - 'a')));
  return s;
}

EinsumSpec generate_einsum(const EinsumGenOptions& o, Rng& rng) {
  check_options(o);
  EinsumSpec spec;
  // Step 1: each input's labels, distinct within it.
  int n = static_cast<int>(rng.uniform_int(o.min_inputs, o.max_inputs));
  std::vector<int> usage(static_cast<size_t>(o.pool), 0);
  for (int k = 0; k < n; ++k) {
    std::string labels = draw_labels(o.pool, static_cast<int>(rng.uniform_int(1, o.max_rank)), rng);
    for (char c : labels) ++usage[static_cast<size_t>(c - 'a')];
    spec.operands.push_back(labels);
  }
  // Step 2: the output, a random subset of the used labels in random order.
  std::string used;
  for (int i = 0; i < o.pool; ++i)
    if (usage[static_cast<size_t>(i)] > 0) used += static_cast<char>('a' + i);
  for (char c : used)
    if (rng.coin()) spec.output += c;
  std::vector<char> order(spec.output.begin(), spec.output.end());
  shuffle(order, rng);
  spec.output.assign(order.begin(), order.end());
  // Step 3: a summed label used by one input only is added to another input.
  for (char c : used) {
    if (spec.output.find(c) != std::string::npos || usage[static_cast<size_t>(c - 'a')] != 1)
      continue;
    std::vector<size_t> room;
    for (size_t k = 0; k < spec.operands.size(); ++k)
      if (spec.operands[k].find(c) == std::string::npos &&
          static_cast<int>(spec.operands[k].size()) < o.max_rank)
        room.push_back(k);
    if (room.empty()) {
      spec.output += c;
      continue;
    }
    std::string& target = spec.operands[room[static_cast<size_t>(
        rng.uniform_int(0, static_cast<int64_t>(room.size()) - 1))]];
    target.insert(static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(target.size()))), 1,
                  c);
    ++usage[static_cast<size_t>(c - 'a')];
  }
  // Step 4: one size per label.
  for (int i = 0; i < o.pool; ++i) spec.sizes.push_back(rng.uniform_int(1, o.max_dim));
  return spec;
}

Graph einsum_graph(const EinsumSpec& spec, DType dtype) {
  Graph g;
  g.name = "einsum";
  Node n;
  n.name = "A";
  n.op = "einsum";
  for (size_t k = 0; k < spec.operands.size(); ++k) {
    std::string name = fmt::format("B{}", k + 1);
    g.inputs.push_back({name, {dtype, spec.shape_of(spec.operands[k])}});
    n.inputs.push_back(name);
  }
  n.outputs = {"A"};
  n.attrs["equation"] = spec.equation();
  g.nodes.push_back(std::move(n));
  g.outputs = {"A"};
  infer_graph(g);
  return g;
}

Graph permute_einsum_operands(const Graph& g, Rng& rng) {
  Graph out = g;
  for (Node& n : out.nodes) {
    if (n.op != "einsum" || n.inputs.size() < 2) continue;
    auto [terms, output] = split_equation(attr_string(n.attrs, "equation"));
    if (terms.size() != n.inputs.size())
      fail("{}: {} operand terms for {} inputs", node_ref(n), terms.size(), n.inputs.size());
    std::vector<size_t> order(terms.size());
    std::iota(order.begin(), order.end(), size_t{0});
    while (std::is_sorted(order.begin(), order.end())) shuffle(order, rng);
    std::vector<std::string> inputs, new_terms;
    for (size_t k : order) {
      inputs.push_back(n.inputs[k]);
      new_terms.push_back(terms[k]);
    }
    n.inputs = inputs;
    n.attrs["equation"] = fmt::format("{}->{}", fmt::join(new_terms, ","), output);
  }
  infer_graph(out);
  return out;
}

}  // namespace retort
