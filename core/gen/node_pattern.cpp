#include "core/gen/node_pattern.h"

#include <algorithm>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

// An attribute's value as plain JSON: what a pattern's any_of lists hold.
nlohmann::json plain_json(const AttrValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

bool holds(const AttrCondition& c, const AttrValue& v) {
  if (c.above || c.below) {
    auto in_range = [&](int64_t e) { return c.above ? e > *c.above : e < *c.below; };
    if (const auto* i = std::get_if<int64_t>(&v)) return in_range(*i);
    if (const auto* list = std::get_if<std::vector<int64_t>>(&v))
      return std::any_of(list->begin(), list->end(), in_range);
    return false;
  }
  nlohmann::json value = plain_json(v);
  return std::find(c.any_of.begin(), c.any_of.end(), value) != c.any_of.end();
}

// One op name or a list of them, as a trigger writes "op" and "after".
nlohmann::json names_json(const std::vector<std::string>& names) {
  return names.size() == 1 ? nlohmann::json(names[0]) : nlohmann::json(names);
}

// The registry ops that field `key` of trigger `j` names (one name or a list); none where it is
// absent.
std::vector<std::string> op_names(const nlohmann::json& j, const char* key,
                                  const std::string& where) {
  if (!j.contains(key)) return {};
  const nlohmann::json& field = j.at(key);
  std::vector<std::string> names = field.is_array()
                                       ? field.get<std::vector<std::string>>()
                                       : std::vector<std::string>{field.get<std::string>()};
  if (names.empty())
    fail("{}: trigger's {} list is empty (leave \"{}\" out for any op)", where, key, key);
  for (const std::string& name : names)
    if (!OpRegistry::instance().find(name))
      fail("{}: trigger {} '{}' is no registry op", where, key, name);
  return names;
}

}  // namespace

bool NodePattern::matches(const std::string& node_op, const Attrs& node_attrs,
                          const TensorType* first, const std::string& first_maker,
                          bool has_twin) const {
  if (!has_op(node_op) || (twin && !has_twin)) return false;
  if (!after.empty() && std::find(after.begin(), after.end(), first_maker) == after.end())
    return false;
  if (!dtypes.empty() &&
      (!first || std::find(dtypes.begin(), dtypes.end(), first->dtype) == dtypes.end()))
    return false;
  if (rank && (!first || static_cast<int>(first->shape.size()) != *rank)) return false;
  if (empty && (!first || !has_empty_dim(first->shape))) return false;
  for (const auto& [name, condition] : attrs) {
    auto it = node_attrs.find(name);
    if (it == node_attrs.end() || !holds(condition, it->second)) return false;
  }
  return true;
}

bool NodePattern::has_empty_dim(const Shape& shape) const {
  if (empty_axes.empty()) return std::find(shape.begin(), shape.end(), 0) != shape.end();
  return std::any_of(empty_axes.begin(), empty_axes.end(), [&](int axis) {
    return static_cast<size_t>(axis) < shape.size() && shape[static_cast<size_t>(axis)] == 0;
  });
}

bool NodePattern::has_op(const std::string& node_op) const {
  return ops.empty() || std::find(ops.begin(), ops.end(), node_op) != ops.end();
}

namespace {

// The value `v` copies through identities: what a compiler's EliminateIdentity makes it.
std::string through_identities(const Graph& g, std::string v) {
  for (const Node* p = g.producer(v); p && p->op == "identity" && !p->inputs.empty();
       p = g.producer(v))
    v = p->inputs[0];
  return v;
}

}  // namespace

bool NodePattern::matches(const Graph& g, const Node& n) const {
  if (!has_op(n.op)) return false;
  const std::string* input = n.inputs.empty() || n.inputs[0].empty() ? nullptr : &n.inputs[0];
  const TensorType* first = input ? &g.type_of(*input) : nullptr;
  const Node* maker = input ? g.producer(*input) : nullptr;
  // Twins read one value, maybe through identities (ORT merged split(identity(x)) with
  // split(x) once EliminateIdentity ran: seed 7216 default #33).
  std::string source = input ? through_identities(g, *input) : "";
  bool has_twin = input && std::any_of(g.nodes.begin(), g.nodes.end(), [&](const Node& m) {
                    return &m != &n && m.op == n.op && !m.inputs.empty() && !m.inputs[0].empty() &&
                           through_identities(g, m.inputs[0]) == source;
                  });
  return matches(n.op, n.attrs, first, maker ? maker->op : "", has_twin);
}

nlohmann::json NodePattern::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  if (!ops.empty()) j["op"] = names_json(ops);
  if (!attrs.empty()) {
    nlohmann::json a = nlohmann::json::object();
    for (const auto& [name, c] : attrs)
      a[name] = c.above   ? nlohmann::json{{"above", *c.above}}
                : c.below ? nlohmann::json{{"below", *c.below}}
                          : nlohmann::json{{"any_of", c.any_of}};
    j["attrs"] = a;
  }
  if (!dtypes.empty()) {
    std::vector<std::string> names;
    for (DType t : dtypes) names.emplace_back(dtype_name(t));
    j["dtypes"] = names;
  }
  if (rank) j["rank"] = *rank;
  if (!after.empty()) j["after"] = names_json(after);
  if (twin) j["twin"] = true;
  if (empty) j["empty"] = empty_axes.empty() ? nlohmann::json(true) : nlohmann::json(empty_axes);
  return j;
}

NodePattern NodePattern::from_json(const nlohmann::json& j, const std::string& where) {
  NodePattern p;
  try {
    if (!j.is_object()) fail("{}: a trigger pattern is a JSON object, got {}", where, j.dump());
    p.ops = op_names(j, "op", where);
    if (j.contains("attrs"))
      for (const auto& [name, c] : j.at("attrs").items()) {
        AttrCondition condition;
        if (c.contains("above"))
          condition.above = c.at("above").get<int64_t>();
        else if (c.contains("below"))
          condition.below = c.at("below").get<int64_t>();
        else
          condition.any_of = c.at("any_of").get<std::vector<nlohmann::json>>();
        p.attrs[name] = std::move(condition);
      }
    for (const auto& name : j.value("dtypes", std::vector<std::string>{})) {
      std::optional<DType> t = parse_dtype(name);
      if (!t) fail("{}: trigger dtype '{}' is unknown", where, name);
      p.dtypes.push_back(*t);
    }
    if (j.contains("rank")) p.rank = j.at("rank").get<int>();
    p.after = op_names(j, "after", where);
    p.twin = j.value("twin", false);
    if (j.contains("empty")) {
      const nlohmann::json& e = j.at("empty");
      if (e.is_array()) {
        p.empty = true;
        p.empty_axes = e.get<std::vector<int>>();
        if (p.empty_axes.empty() ||
            std::any_of(p.empty_axes.begin(), p.empty_axes.end(), [](int a) { return a < 0; }))
          fail("{}: trigger's empty axes are a list of axes from 0, got {}", where, e.dump());
      } else {
        p.empty = e.get<bool>();
      }
    }
    // A pattern of any op with no condition would match every node: a campaign would draw
    // nothing more often than anything else, and every finding would look known.
    if (p.ops.empty() && p.attrs.empty() && p.dtypes.empty() && !p.rank && p.after.empty() &&
        !p.empty)
      fail("{}: a trigger of any op (no \"op\") needs dtypes, rank, attrs, after or empty", where);
  } catch (const nlohmann::json::exception& e) {
    fail("{}: not a trigger pattern: {}", where, e.what());
  }
  return p;
}

std::string NodePattern::str() const {
  std::vector<std::string> parts;
  for (const auto& [name, c] : attrs) {
    if (c.above || c.below) {
      parts.push_back(c.above ? fmt::format("{} > {}", name, *c.above)
                              : fmt::format("{} < {}", name, *c.below));
      continue;
    }
    std::vector<std::string> values;
    for (const auto& v : c.any_of)
      values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    parts.push_back(
        fmt::format("{} {} {}", name, values.size() == 1 ? "=" : "in", fmt::join(values, "|")));
  }
  if (!dtypes.empty()) {
    std::vector<std::string> names;
    for (DType t : dtypes) names.emplace_back(dtype_name(t));
    parts.push_back(fmt::format("of {}", fmt::join(names, "|")));
  }
  if (rank) parts.push_back(fmt::format("rank {}", *rank));
  if (!after.empty()) parts.push_back(fmt::format("after {}", fmt::join(after, "|")));
  std::string name = ops.empty() ? "any op" : fmt::format("{}", fmt::join(ops, "|"));
  if (twin) parts.push_back(fmt::format("beside another {} of the same input", name));
  if (empty)
    parts.push_back(empty_axes.empty() ? "of an empty tensor"
                                       : fmt::format("of a tensor with a size-0 dim at axis {}",
                                                     fmt::join(empty_axes, "|")));
  return parts.empty() ? name : fmt::format("{} {}", name, fmt::join(parts, ", "));
}

NodePattern pattern_of_node(const Graph& g, const Node& n) {
  NodePattern p;
  p.ops = {n.op};
  for (const auto& [name, value] : n.attrs) p.attrs[name].any_of = {plain_json(value)};
  if (!n.inputs.empty() && !n.inputs[0].empty()) p.dtypes = {g.type_of(n.inputs[0]).dtype};
  return p;
}

}  // namespace retort
