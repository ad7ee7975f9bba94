#include "core/rules/trace_json.h"

#include <limits>

#include <fmt/format.h>

#include "core/io/json_reader.h"

namespace retort {

using nlohmann::json;

namespace {

json ids_to_json(const std::vector<EClassId>& ids) {
  json out = json::array();
  for (EClassId id : ids) out.push_back(id.value);
  return out;
}

// Rule parameters are attribute values, or booleans.
json value_to_json(const Value& v) {
  if (const bool* b = std::get_if<bool>(&v)) return {{"bool", *b}};
  return attr_to_json(value_to_attr(v));
}

json step_to_json(const TraceStep& s) {
  json j = {{"step", s.step},
            {"iteration", s.iteration},
            {"rule", s.rule},
            {"eclass", s.eclass.value},
            {"rhs", s.rhs.value},
            {"clean_before", s.clean_before},
            {"nodes_after", s.nodes_after},
            {"classes_after", s.classes_after}};
  if (s.node) {
    TraceNode n = trace_node(*s.node);
    json attrs = json::object();
    for (const auto& [name, value] : n.attrs) attrs[name] = attr_to_json(value);
    j["node"] = {{"op", n.op},
                 {"attrs", attrs},
                 {"out", n.out},
                 {"n_out", n.n_out},
                 {"children", ids_to_json(n.children)}};
  }
  json subst_attrs = json::array();
  for (const auto& a : s.subst.attrs) subst_attrs.push_back(attr_to_json(a));
  j["subst"] = {{"classes", ids_to_json(s.subst.classes)}, {"attrs", subst_attrs}};
  json params = json::array();
  for (const auto& p : s.params) params.push_back(value_to_json(p));
  j["params"] = params;
  j["exposed"] = ids_to_json(s.exposed);
  return j;
}

class TraceReader : public JsonReader {
 public:
  using JsonReader::JsonReader;

  RewriteTrace trace(const json& j) const {
    check_fields(j, "(top)", {"iteration", "steps"});
    RewriteTrace t;
    t.iteration = u32(field(j, "iteration", "(top)"), "iteration");
    size_t i = 0;
    for (const auto& s : array(field(j, "steps", "(top)"), "steps")) {
      std::string path = fmt::format("steps[{}]", i);
      t.steps.push_back(step(s, path));
      if (t.steps.back().step != i) bad(path + ".step", fmt::format("expected {}", i));
      ++i;
    }
    return t;
  }

 private:
  uint32_t u32(const json& j, const std::string& path) const {
    uint64_t v = unsigned_integer(j, path);
    if (v >= std::numeric_limits<uint32_t>::max()) bad(path, fmt::format("{} is too large", v));
    return static_cast<uint32_t>(v);
  }

  EClassId id(const json& j, const std::string& path) const { return EClassId(u32(j, path)); }

  std::vector<EClassId> ids(const json& j, const std::string& path) const {
    std::vector<EClassId> out;
    size_t i = 0;
    for (const auto& item : array(j, path))
      out.push_back(id(item, fmt::format("{}[{}]", path, i++)));
    return out;
  }

  Value value(const json& j, const std::string& path) const {
    if (j.is_object() && j.size() == 1 && j.contains("bool"))
      return boolean(j["bool"], path + ".bool");
    return value_from_attr(attr(j, path));
  }

  ENode node(const json& j, const std::string& path) const {
    check_fields(j, path, {"op", "attrs", "out", "n_out", "children"});
    TraceNode n;
    n.op = string(field(j, "op", path), path + ".op");
    const json& attrs = field(j, "attrs", path);
    if (!attrs.is_object()) bad(path + ".attrs", "expected an object");
    for (const auto& [name, value] : attrs.items())
      n.attrs[name] = attr(value, fmt::format("{}.attrs.{}", path, name));
    uint32_t out = u32(field(j, "out", path), path + ".out");
    uint32_t n_out = u32(field(j, "n_out", path), path + ".n_out");
    if (n_out == 0 || n_out > UINT16_MAX || out >= n_out)
      bad(path, fmt::format("output {} of {} is not a valid output", out, n_out));
    n.out = static_cast<uint16_t>(out);
    n.n_out = static_cast<uint16_t>(n_out);
    n.children = ids(field(j, "children", path), path + ".children");
    try {
      return trace_enode(n);
    } catch (const Error& e) {
      bad(path + ".op", e.message());
    }
  }

  TraceStep step(const json& j, const std::string& path) const {
    check_fields(j, path,
                 {"step", "iteration", "rule", "eclass", "rhs", "clean_before", "nodes_after",
                  "classes_after", "node", "subst", "params", "exposed"});
    auto at = [&](const char* key) -> const json& { return field(j, key, path); };
    auto sub = [&](const char* key) { return fmt::format("{}.{}", path, key); };
    TraceStep s;
    s.step = u32(at("step"), sub("step"));
    s.iteration = u32(at("iteration"), sub("iteration"));
    s.rule = string(at("rule"), sub("rule"));
    s.eclass = id(at("eclass"), sub("eclass"));
    s.rhs = id(at("rhs"), sub("rhs"));
    s.clean_before = boolean(at("clean_before"), sub("clean_before"));
    s.nodes_after = unsigned_integer(at("nodes_after"), sub("nodes_after"));
    s.classes_after = unsigned_integer(at("classes_after"), sub("classes_after"));
    if (j.contains("node")) s.node = node(j["node"], sub("node"));
    const json& subst = at("subst");
    check_fields(subst, sub("subst"), {"classes", "attrs"});
    s.subst.classes = ids(field(subst, "classes", sub("subst")), sub("subst.classes"));
    size_t i = 0;
    for (const auto& a : array(field(subst, "attrs", sub("subst")), sub("subst.attrs")))
      s.subst.attrs.push_back(attr(a, fmt::format("{}.subst.attrs[{}]", path, i++)));
    i = 0;
    for (const auto& p : array(at("params"), sub("params")))
      s.params.push_back(value(p, fmt::format("{}.params[{}]", path, i++)));
    s.exposed = ids(at("exposed"), sub("exposed"));
    return s;
  }
};

}  // namespace

json trace_to_json(const RewriteTrace& trace) {
  json steps = json::array();
  for (const auto& s : trace.steps) steps.push_back(step_to_json(s));
  return {{"iteration", trace.iteration}, {"steps", steps}};
}

RewriteTrace trace_from_json(const json& j, const std::string& file,
                             const std::string& path_prefix) {
  return TraceReader(file, path_prefix).trace(j);
}

}  // namespace retort
