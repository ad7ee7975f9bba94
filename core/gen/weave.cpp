#include "core/gen/weave.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

namespace {

// How many same-dtype, same-rank context values a pattern input tries before it is bridged.
constexpr size_t kRelaxTries = 8;

class Weaver {
 public:
  Weaver(const Graph& seed, const OptPattern& pattern, Rng& rng, WeaveReport& report)
      : g_(seed), p_(pattern), rng_(rng), rep_(report) {
    for (const auto& i : g_.inputs) used_.insert(i.name);
    for (const auto& c : g_.constants) used_.insert(c.name);
    for (const auto& n : g_.nodes) {
      used_.insert(n.name);
      used_.insert(n.outputs.begin(), n.outputs.end());
    }
  }

  Graph weave() {
    rep_.pattern = p_.name;
    rep_.point = rng_.below(g_.nodes.size() + 1);
    std::vector<std::string> preceding;
    for (const auto& i : g_.inputs) preceding.push_back(i.name);
    for (const auto& c : g_.constants) preceding.push_back(c.name);
    for (size_t k = 0; k < rep_.point; ++k)
      preceding.insert(preceding.end(), g_.nodes[k].outputs.begin(), g_.nodes[k].outputs.end());
    if (preceding.empty()) fail("the seed graph has no value to feed pattern '{}'", p_.name);

    Graph pat = renamed_pattern();
    std::map<std::string, std::string> feed;  // pattern input -> context value
    for (size_t i = 0; i < pat.inputs.size(); ++i)
      feed[pat.inputs[i].name] = fed(pat, i, preceding);

    std::vector<Node> woven;
    for (Node n : pat.nodes) {
      for (auto& in : n.inputs)
        if (auto it = feed.find(in); it != feed.end()) in = it->second;
      woven.push_back(std::move(n));
    }
    g_.constants.insert(g_.constants.end(), pat.constants.begin(), pat.constants.end());
    size_t later = rep_.point;  // the seed's nodes from here on may read the pattern's outputs
    std::vector<Node> nodes(g_.nodes.begin(), g_.nodes.begin() + static_cast<long>(later));
    nodes.insert(nodes.end(), bridge_.begin(), bridge_.end());
    nodes.insert(nodes.end(), woven.begin(), woven.end());
    nodes.insert(nodes.end(), g_.nodes.begin() + static_cast<long>(later), g_.nodes.end());
    size_t first_later = nodes.size() - (g_.nodes.size() - later);
    g_.nodes = std::move(nodes);
    connect_outputs(pat, first_later);

    try {
      infer_graph(g_);
    } catch (const Error& e) {
      fail("weaving pattern '{}' made a graph that does not type: {}", p_.name, e.what());
    }
    return std::move(g_);
  }

 private:
  std::string fresh(const std::string& stem) {
    std::string name = stem;
    for (int i = 1; used_.count(name); ++i) name = fmt::format("{}_{}", stem, i);
    used_.insert(name);
    return name;
  }

  // The pattern with every name prefixed by its own name and unique in the seed, typed.
  Graph renamed_pattern() {
    Graph pat = p_.graph;
    std::map<std::string, std::string> to;
    auto rename = [&](std::string& name) {
      auto [it, added] = to.try_emplace(name);
      if (added) it->second = fresh(p_.name + "_" + name);
      name = it->second;
    };
    for (auto& i : pat.inputs) rename(i.name);
    for (auto& c : pat.constants) rename(c.name);
    for (auto& n : pat.nodes) {
      for (auto& o : n.outputs) rename(o);
      n.name = n.outputs.empty() ? fresh(p_.name + "_" + n.name) : n.outputs.front();
      for (auto& in : n.inputs)
        if (!in.empty()) rename(in);
    }
    for (auto& o : pat.outputs) rename(o);
    infer_graph(pat);
    return pat;
  }

  // The context value that feeds pattern input i; may relax pat's input type or add bridges.
  std::string fed(Graph& pat, size_t i, const std::vector<std::string>& preceding) {
    const std::string hole = pat.inputs[i].name;
    const TensorType want = pat.inputs[i].type;
    std::vector<std::string> same, relaxable;
    for (const auto& v : preceding) {
      const TensorType& t = g_.type_of(v);
      if (t == want)
        same.push_back(v);
      else if (t.dtype == want.dtype && t.shape.size() == want.shape.size())
        relaxable.push_back(v);
    }
    if (!same.empty()) {
      const std::string& v = pick_from(rng_, same);
      rep_.inputs.push_back(fmt::format("{} <- {} (same type)", hole, v));
      return v;
    }
    shuffle(rng_, relaxable);
    for (size_t k = 0; k < relaxable.size() && k < kRelaxTries; ++k) {
      Graph trial = pat;
      trial.inputs[i].type = g_.type_of(relaxable[k]);
      try {
        infer_graph(trial);
      } catch (const Error&) {
        continue;  // the pattern's ops do not take this shape
      }
      pat = std::move(trial);
      rep_.inputs.push_back(
          fmt::format("{} <- {} (relaxed to {})", hole, relaxable[k], pat.inputs[i].type.str()));
      return relaxable[k];
    }
    const std::string& from = pick_from(rng_, preceding);
    std::vector<std::string> steps;
    std::string v = bridged(from, want, steps);
    rep_.inputs.push_back(
        fmt::format("{} <- {} via {}", hole, from,
                    steps.empty() ? "nothing" : fmt::format("{}", fmt::join(steps, ", "))));
    return v;
  }

  std::string add_bridge(const std::string& op, const std::string& in, Attrs attrs) {
    Node n;
    n.op = op;
    n.inputs = {in};
    n.outputs = {fresh(p_.name + "_bridge")};
    n.name = n.outputs.front();
    n.attrs = std::move(attrs);
    bridge_.push_back(std::move(n));
    ++rep_.bridge_nodes;
    return bridge_.back().outputs.front();
  }

  // Section 3.2.2: the element count by pad or crop (on the flattened value), then the rank by
  // reshape, then the dtype by cast.
  std::string bridged(const std::string& from, const TensorType& want,
                      std::vector<std::string>& steps) {
    const TensorType& have = g_.type_of(from);
    int64_t n = numel(have.shape), m = numel(want.shape);
    std::string cur = from;
    if (n != m && have.shape.size() != 1) {
      cur = add_bridge("reshape", cur, {{"shape", std::vector<int64_t>{n}}});
      steps.push_back("reshape");
    }
    if (n < m) {
      cur = add_bridge("pad", cur, {{"pads", std::vector<int64_t>{0, m - n}}});
      steps.push_back("pad");
    } else if (n > m) {
      cur = add_bridge("slice", cur,
                       {{"starts", std::vector<int64_t>{0}},
                        {"ends", std::vector<int64_t>{m}},
                        {"axes", std::vector<int64_t>{0}}});
      steps.push_back("slice");
    }
    if (n != m || have.shape != want.shape) {
      cur = add_bridge("reshape", cur, {{"shape", want.shape}});
      steps.push_back("reshape");
    }
    if (have.dtype != want.dtype) {
      cur = add_bridge("cast", cur, {{"to", std::string(dtype_name(want.dtype))}});
      steps.push_back("cast");
    }
    return cur;
  }

  // Each pattern output replaces a same-typed input of a later seed node (nodes from
  // first_later on); one that finds none is a graph output. A seed value that loses its last
  // reader that way becomes a graph output, so the seed's computation stays observable.
  void connect_outputs(const Graph& pat, size_t first_later) {
    std::set<std::pair<size_t, size_t>> taken;
    std::vector<std::string> replaced;
    for (const auto& o : pat.outputs) {
      const TensorType& t = pat.type_of(o);
      std::vector<std::pair<size_t, size_t>> slots;
      for (size_t j = first_later; j < g_.nodes.size(); ++j)
        for (size_t s = 0; s < g_.nodes[j].inputs.size(); ++s) {
          const std::string& in = g_.nodes[j].inputs[s];
          if (!in.empty() && !taken.count({j, s}) && g_.types.count(in) && g_.types.at(in) == t)
            slots.emplace_back(j, s);
        }
      if (slots.empty()) {
        g_.outputs.push_back(o);
        rep_.outputs.push_back(fmt::format("{} -> a graph output", o));
        continue;
      }
      auto [j, s] = pick_from(rng_, slots);
      taken.insert({j, s});
      replaced.push_back(g_.nodes[j].inputs[s]);
      g_.nodes[j].inputs[s] = o;
      rep_.outputs.push_back(fmt::format("{} -> {} input {}", o, g_.nodes[j].name, s));
    }
    for (const auto& v : replaced) {
      // An input or constant nobody reads is harmless; a node's result must stay observable.
      bool read =
          !g_.producer(v) || std::find(g_.outputs.begin(), g_.outputs.end(), v) != g_.outputs.end();
      for (const auto& n : g_.nodes)
        read = read || std::find(n.inputs.begin(), n.inputs.end(), v) != n.inputs.end();
      if (!read) g_.outputs.push_back(v);
    }
  }

  Graph g_;
  const OptPattern& p_;
  Rng& rng_;
  WeaveReport& rep_;
  std::set<std::string> used_;
  std::vector<Node> bridge_;
};

}  // namespace

Graph weave_pattern(const Graph& seed, const OptPattern& pattern, Rng& rng, WeaveReport* report) {
  WeaveReport local;
  return Weaver(seed, pattern, rng, report ? *report : local).weave();
}

}  // namespace retort
