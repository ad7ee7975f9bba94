#include "core/graph/graph_diff.h"

#include <optional>
#include <vector>

#include <fmt/format.h>

namespace retort {

std::string_view diff_status_name(DiffStatus s) {
  switch (s) {
    case DiffStatus::Same:
      return "same";
    case DiffStatus::Added:
      return "added";
    case DiffStatus::Removed:
      return "removed";
    case DiffStatus::Rewritten:
      return "rewritten";
  }
  return "?";
}

size_t GraphDiff::count(DiffStatus s) const {
  size_t n = 0;
  for (const auto& [name, status] : b) n += status == s;
  if (s == DiffStatus::Same || s == DiffStatus::Rewritten) return n;
  for (const auto& [name, status] : a) n += status == s;
  return n;
}

namespace {

// Identities of values, shared by both graphs: a class ("c<id>") or an interned structural
// signature ("s<n>").
class Identities {
 public:
  std::string of(const Graph& g, const ValueClasses& classes, const std::string& value) {
    if (auto it = classes.find(value); it != classes.end()) return fmt::format("c{}", it->second);
    return signature(g, value);
  }

  // The node's op, attributes and output position over its inputs' identities.
  std::string shape(const Graph& g, const ValueClasses& classes, const Node& n, size_t out) {
    std::string key = fmt::format("{}|{}|{}", n.op, out, n.outputs.size());
    for (const auto& [name, value] : n.attrs)
      key += fmt::format("|{}={}", name, attr_value_str(value));
    key += "|";
    for (const auto& in : n.inputs)
      key += (in.empty() ? std::string("-") : of(g, classes, in)) + ",";
    return key;
  }

 private:
  std::string signature(const Graph& g, const std::string& value) {
    const Node* p = g.producer(value);
    if (!p) return "v:" + value;  // an input or a constant: its name
    size_t out = 0;
    while (out < p->outputs.size() && p->outputs[out] != value) ++out;
    std::string key = shape(g, kNone, *p, out);
    auto [it, fresh] = interned_.try_emplace(key, interned_.size());
    return fmt::format("s{}", it->second);
  }

  static inline const ValueClasses kNone{};
  std::map<std::string, size_t> interned_;
};

struct Side {
  const Graph& g;
  const ValueClasses& classes;
  std::map<std::string, const Node*> by_identity;  // first output's identity -> node
};

void index(Identities& ids, Side& side) {
  for (const Node& n : side.g.nodes)
    if (!n.outputs.empty())
      side.by_identity.emplace(ids.of(side.g, side.classes, n.outputs[0]), &n);
}

// The node of `other` that computes the same value as n, if any.
const Node* counterpart(Identities& ids, const Side& side, const Side& other, const Node& n,
                        bool by_class) {
  if (n.outputs.empty()) return nullptr;
  auto it = other.by_identity.find(ids.of(side.g, side.classes, n.outputs[0]));
  if (it != other.by_identity.end()) return it->second;
  if (by_class) return nullptr;
  for (const Node& m : other.g.nodes)
    if (m.name == n.name) return &m;
  return nullptr;
}

void mark(Identities& ids, const Side& side, const Side& other, DiffStatus missing, bool by_class,
          std::map<std::string, DiffStatus>& out, std::map<std::string, std::string>* pairs) {
  for (const Node& n : side.g.nodes) {
    const Node* m = counterpart(ids, side, other, n, by_class);
    if (!m) {
      out[n.name] = missing;
      continue;
    }
    if (pairs) (*pairs)[n.name] = m->name;
    bool same = ids.shape(side.g, side.classes, n, 0) == ids.shape(other.g, other.classes, *m, 0);
    out[n.name] = same ? DiffStatus::Same : DiffStatus::Rewritten;
  }
}

GraphDiff diff(const Graph& a, const Graph& b, const ValueClasses& ca, const ValueClasses& cb,
               bool by_class) {
  Identities ids;
  Side sa{a, ca, {}}, sb{b, cb, {}};
  index(ids, sa);
  index(ids, sb);
  GraphDiff d;
  mark(ids, sa, sb, DiffStatus::Removed, by_class, d.a, &d.counterpart);
  mark(ids, sb, sa, DiffStatus::Added, by_class, d.b, nullptr);
  return d;
}

}  // namespace

std::set<std::string> new_nodes(const GraphDiff& d) {
  std::set<std::string> out;
  for (const auto& [name, status] : d.b)
    if (status != DiffStatus::Same) out.insert(name);
  return out;
}

GraphDiff diff_graphs(const Graph& a, const Graph& b) {
  return diff(a, b, {}, {}, false);
}

GraphDiff diff_graphs(const Graph& a, const Graph& b, const ValueClasses& classes_a,
                      const ValueClasses& classes_b) {
  return diff(a, b, classes_a, classes_b, true);
}

}  // namespace retort
