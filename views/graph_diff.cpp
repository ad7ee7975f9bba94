#include "views/graph_diff.h"

#include <map>

#include <fmt/format.h>

namespace retort {

namespace {

// Interns computations: a value's key is its input or constant name, or the op, attributes,
// output index and the keys of its inputs.
class Terms {
 public:
  // Keys of the values of g, by value name; and of its nodes' first outputs, by node name.
  std::map<std::string, size_t> intern(const Graph& g, std::map<std::string, size_t>* nodes) {
    std::map<std::string, size_t> value;
    for (const auto& in : g.inputs) value[in.name] = id("in:" + in.name);
    for (const auto& c : g.constants) value[c.name] = id("const:" + c.name);
    // Nodes may be in any order: resolve in passes until every node is keyed.
    std::vector<bool> done(g.nodes.size());
    for (bool progress = true; progress;) {
      progress = false;
      for (size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (done[i]) continue;
        std::string key = n.op;
        for (const auto& [k, v] : n.attrs) key += fmt::format(" {}={}", k, attr_value_str(v));
        bool ready = true;
        for (const auto& in : n.inputs) {
          auto it = value.find(in);
          if (in.empty()) {
            key += " _";
          } else if (it == value.end()) {
            ready = false;
            break;
          } else {
            key += fmt::format(" {}", it->second);
          }
        }
        if (!ready) continue;
        for (size_t o = 0; o < n.outputs.size(); ++o)
          value[n.outputs[o]] = id(fmt::format("{} #{}", key, o));
        if (nodes && !n.outputs.empty()) (*nodes)[n.name] = value[n.outputs.front()];
        done[i] = true;
        progress = true;
      }
    }
    return value;
  }

 private:
  size_t id(const std::string& key) { return ids_.try_emplace(key, ids_.size()).first->second; }
  std::map<std::string, size_t> ids_;
};

}  // namespace

std::set<std::string> new_nodes(const Graph& g, const Graph& base) {
  Terms terms;
  std::map<std::string, size_t> base_values = terms.intern(base, nullptr);
  std::set<size_t> known;
  for (const auto& [name, key] : base_values) known.insert(key);
  std::map<std::string, size_t> nodes;
  terms.intern(g, &nodes);
  std::set<std::string> fresh;
  for (const auto& n : g.nodes) {
    auto it = nodes.find(n.name);
    if (it == nodes.end() || !known.count(it->second)) fresh.insert(n.name);
  }
  return fresh;
}

}  // namespace retort
