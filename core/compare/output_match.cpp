#include "core/compare/output_match.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/egraph/convert.h"
#include "core/egraph/value_classes.h"

namespace retort {

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// Classes joined by an output's name: a small union-find over e-class ids beside the e-graph
// (the e-graph's own merges would need a rule to justify them).
class NameUnions {
 public:
  uint32_t find(uint32_t c) {
    auto it = parent_.find(c);
    if (it == parent_.end() || it->second == c) return c;
    return it->second = find(it->second);
  }
  void unite(uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::map<uint32_t, uint32_t> parent_;
};

}  // namespace

std::vector<std::vector<size_t>> output_values(const std::vector<const Graph*>& graphs) {
  EGraph eg;
  std::vector<std::optional<std::vector<EClassId>>> outs(graphs.size());
  for (size_t g = 0; g < graphs.size(); ++g) {
    try {
      GraphMeta meta = add_graph(eg, *graphs[g]);
      const auto& kids = eg.term(meta.root).children;
      outs[g].emplace(kids.begin(), kids.end());
    } catch (const Error&) {
      outs[g].reset();  // its outputs are known equal to nothing
    }
  }
  eg.rebuild();
  NameUnions unions;
  if (!graphs.empty() && outs[0]) {
    const Graph& original = *graphs[0];
    ValueClasses named = value_classes(eg, original);
    for (size_t g = 1; g < graphs.size(); ++g) {
      if (!outs[g]) continue;
      for (size_t i = 0; i < graphs[g]->outputs.size(); ++i) {
        const std::string& name = graphs[g]->outputs[i];
        auto it = named.find(name);
        if (it == named.end() || original.type_of(name) != graphs[g]->type_of(name)) continue;
        unions.unite(eg.find((*outs[g])[i]).value, it->second);
      }
    }
  }
  std::vector<std::vector<size_t>> values(graphs.size());
  size_t own = eg.term_count();
  for (size_t g = 0; g < graphs.size(); ++g)
    for (size_t i = 0; i < graphs[g]->outputs.size(); ++i)
      values[g].push_back(outs[g] ? unions.find(eg.find((*outs[g])[i]).value) : own++);
  return values;
}

OutputMatch match_outputs(const Graph& original, const Graph& variant,
                          const std::string& variant_name) {
  const size_t n = original.outputs.size(), m = variant.outputs.size();
  std::vector<size_t> of(n, kNone);
  std::vector<bool> taken(m, false);
  auto take = [&](size_t k, size_t i) {
    of[k] = i;
    taken[i] = true;
  };
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < m; ++i)
      if (!taken[i] && variant.outputs[i] == original.outputs[k]) {
        take(k, i);
        break;
      }
  if (std::find(of.begin(), of.end(), kNone) != of.end()) {
    std::vector<std::vector<size_t>> values = output_values({&original, &variant});
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < m && of[k] == kNone; ++i)
        if (!taken[i] && values[1][i] == values[0][k]) take(k, i);
  }
  for (size_t k = 0; k < n; ++k)
    if (of[k] == kNone && k < m && !taken[k]) take(k, k);
  for (size_t k = 0; k < n; ++k) {
    const TensorType& want = original.type_of(original.outputs[k]);
    if (of[k] == kNone)
      fail(
          "'{}' has no output for the original's output {} ('{}': {}): none has its name or "
          "value, and its position is {}",
          variant_name, k, original.outputs[k], want.str(),
          k < m ? fmt::format("taken by '{}'", variant.outputs[k]) : "past its outputs");
    const TensorType& got = variant.type_of(variant.outputs[of[k]]);
    if (want != got)
      fail("output {} of '{}' ('{}') is {} but the original's output {} ('{}') is {}", of[k],
           variant_name, variant.outputs[of[k]], got.str(), k, original.outputs[k], want.str());
  }
  OutputMatch match;
  match.of_original = std::move(of);
  for (size_t i = 0; i < m; ++i)
    if (!taken[i]) match.extra.push_back(i);
  return match;
}

OutputPairs output_pairs(const std::vector<const Graph*>& graphs,
                         const std::vector<OutputMatch>& matches,
                         const std::vector<std::vector<size_t>>& values, size_t a, size_t b) {
  const Graph& ga = *graphs[a];
  const Graph& gb = *graphs[b];
  OutputPairs pairs;
  if (a == b) {
    for (const auto& o : ga.outputs) pairs.emplace_back(o, o);
  } else if (b == 0) {
    for (size_t k = 0; k < gb.outputs.size(); ++k)
      pairs.emplace_back(ga.outputs[matches[a].of_original[k]], gb.outputs[k]);
  } else if (a == 0) {
    for (size_t k = 0; k < ga.outputs.size(); ++k)
      pairs.emplace_back(ga.outputs[k], gb.outputs[matches[b].of_original[k]]);
  } else if (a < values.size() && b < values.size()) {
    std::vector<bool> used(gb.outputs.size(), false);
    for (size_t i : matches[a].extra)
      for (size_t j : matches[b].extra)
        if (!used[j] && values[a][i] == values[b][j]) {
          used[j] = true;
          pairs.emplace_back(ga.outputs[i], gb.outputs[j]);
          break;
        }
  }
  return pairs;
}

GraphOutputs match_graph_outputs(std::vector<const Graph*> graphs,
                                 const std::vector<std::string>& names) {
  GraphOutputs out;
  out.graphs = std::move(graphs);
  out.matches.resize(out.graphs.size());
  for (size_t g = 1; g < out.graphs.size(); ++g) {
    out.matches[g] = match_outputs(*out.graphs[0], *out.graphs[g], names[g]);
    out.with_extras += !out.matches[g].extra.empty();
  }
  if (out.with_extras >= 2) out.values = output_values(out.graphs);
  return out;
}

}  // namespace retort
