#include "core/io/json_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/graph/graph_dot.h"
#include "core/io/base64.h"
#include "core/io/json_reader.h"
#include "core/io/shape_limits.h"
#include "core/ops/registry.h"

namespace retort {

using nlohmann::json;

namespace {

constexpr const char* kFormatName = "retort-graph";

json type_to_json(const TensorType& t) {
  return {{"dtype", std::string(dtype_name(t.dtype))}, {"shape", t.shape}};
}

std::string json_type_name(const json& j) {
  return j.type_name();
}

// Reads one JSON document into a Graph, naming the path of every bad field.
class Reader : public JsonReader {
 public:
  using JsonReader::JsonReader;

  DType dtype(const json& j, const std::string& path) const {
    std::string name = string(j, path);
    auto t = parse_dtype(name);
    if (!t) {
      std::vector<std::string_view> known;
      for (DType d : kAllDTypes) known.push_back(dtype_name(d));
      bad(path, fmt::format("unknown dtype '{}' (known: {})", name, fmt::join(known, ", ")));
    }
    return *t;
  }

  Shape shape(const json& j, const std::string& path, int64_t max_elements) const {
    Shape s;
    size_t i = 0;
    for (const auto& d : array(j, path)) s.push_back(integer(d, fmt::format("{}[{}]", path, i++)));
    try {
      check_declared_shape(s, max_elements);
    } catch (const Error& e) {
      bad(path, e.message());
    }
    return s;
  }

  TensorType tensor_type(const json& j, const std::string& path,
                         int64_t max_elements = kMaxFileTensorElements) const {
    return {dtype(field(j, "dtype", path), path + ".dtype"),
            shape(field(j, "shape", path), path + ".shape", max_elements)};
  }

  Graph graph(const json& j) const {
    check_fields(j, "(top)",
                 {"format", "version", "name", "inputs", "constants", "nodes", "outputs"});
    std::string format = string(field(j, "format", "(top)"), "format");
    if (format != kFormatName)
      bad("format", fmt::format("expected \"{}\", found \"{}\"", kFormatName, format));
    const json& version = field(j, "version", "(top)");
    if (!version.is_number_integer() || version.get<int64_t>() != kJsonGraphVersion)
      bad("version", fmt::format("this Retort reads retort-graph version {} only, found {}",
                                 kJsonGraphVersion, json_brief(version)));
    Graph g;
    if (j.contains("name")) g.name = string(j["name"], "name");
    if (j.contains("inputs")) {
      size_t i = 0;
      for (const auto& in : array(j["inputs"], "inputs")) {
        std::string path = fmt::format("inputs[{}]", i++);
        check_fields(in, path, {"name", "dtype", "shape"});
        g.inputs.push_back(
            {string(field(in, "name", path), path + ".name"), tensor_type(in, path)});
      }
    }
    if (j.contains("constants")) {
      size_t i = 0;
      for (const auto& c : array(j["constants"], "constants"))
        g.constants.push_back(constant(c, fmt::format("constants[{}]", i++)));
    }
    if (j.contains("nodes")) {
      size_t i = 0;
      for (const auto& n : array(j["nodes"], "nodes"))
        g.nodes.push_back(node(n, fmt::format("nodes[{}]", i++)));
    }
    g.outputs = strings(field(j, "outputs", "(top)"), "outputs");
    return g;
  }

 private:
  Constant constant(const json& c, const std::string& path) const {
    check_fields(c, path, {"name", "dtype", "shape", "data", "init"});
    Constant out;
    out.name = string(field(c, "name", path), path + ".name");
    TensorType type = tensor_type(c, path, kMaxConstantElements);
    std::vector<uint8_t> bytes;
    try {
      bytes = base64_decode(string(field(c, "data", path), path + ".data"));
    } catch (const Error& e) {
      bad(path + ".data", e.message());
    }
    out.value = Tensor(type);
    if (bytes.size() != out.value.nbytes())
      bad(path + ".data", fmt::format("expected {} bytes for {}, found {}", out.value.nbytes(),
                                      type.str(), bytes.size()));
    std::copy(bytes.begin(), bytes.end(), out.value.bytes());
    if (c.contains("init")) out.init_text = string(c["init"], path + ".init");
    return out;
  }

  Node node(const json& n, const std::string& path) const {
    check_fields(n, path, {"name", "op", "inputs", "outputs", "attrs", "opaque"});
    Node out;
    out.name = string(field(n, "name", path), path + ".name");
    out.op = string(field(n, "op", path), path + ".op");
    out.inputs = strings(field(n, "inputs", path), path + ".inputs");
    out.outputs = strings(field(n, "outputs", path), path + ".outputs");
    if (n.contains("opaque")) {
      std::string opath = path + ".opaque";
      const json& o = n["opaque"];
      check_fields(o, opath, {"domain", "version", "output_types"});
      OpaqueInfo info;
      info.domain = string(field(o, "domain", opath), opath + ".domain");
      if (o.contains("version")) {
        int64_t v = integer(o["version"], opath + ".version");
        if (v < 0 || v > std::numeric_limits<int>::max())
          bad(opath + ".version", fmt::format("expected an opset version >= 0, found {}", v));
        info.version = static_cast<int>(v);
      }
      size_t i = 0;
      for (const auto& t : array(field(o, "output_types", opath), opath + ".output_types"))
        info.output_types.push_back(tensor_type(t, fmt::format("{}.output_types[{}]", opath, i++)));
      out.opaque = std::move(info);
    }
    const OpDef* op = nullptr;
    if (!out.opaque) {
      try {
        op = &OpRegistry::instance().get(out.op);
      } catch (const Error& e) {
        bad(path + ".op", e.message());
      }
    }
    if (n.contains("attrs")) {
      const json& attrs = n["attrs"];
      if (!attrs.is_object())
        bad(path + ".attrs", fmt::format("expected an object, found {}", json_type_name(attrs)));
      for (const auto& [key, value] : attrs.items()) {
        std::string apath = fmt::format("{}.attrs.{}", path, key);
        AttrValue v = attr(value, apath);
        if (op) check_attr(*op, key, v, value, apath);
        out.attrs[key] = std::move(v);
      }
    }
    return out;
  }

  void check_attr(const OpDef& op, const std::string& key, const AttrValue& v, const json& raw,
                  const std::string& path) const {
    const AttrSpec* spec = op.find_attr(key);
    if (!spec) {
      std::vector<std::string> known;
      for (const auto& a : op.attrs) known.push_back(a.name);
      if (known.empty()) bad(path, fmt::format("op '{}' takes no attribute", op.name));
      bad(path, fmt::format("op '{}' has no attribute '{}' (it has: {})", op.name, key,
                            fmt::join(known, ", ")));
    }
    if (!attr_fits(v, spec->kind))
      bad(path, fmt::format("expected {} for attribute '{}' of op '{}', found {} {}",
                            attr_kind_name(spec->kind), key, op.name, raw.begin().key(),
                            json_brief(raw.begin().value())));
  }
};

}  // namespace

json graph_to_json(const Graph& g) {
  json j;
  j["format"] = kFormatName;
  j["version"] = kJsonGraphVersion;
  j["name"] = g.name;
  j["inputs"] = json::array();
  for (const auto& in : g.inputs) {
    json e = type_to_json(in.type);
    e["name"] = in.name;
    j["inputs"].push_back(e);
  }
  j["constants"] = json::array();
  for (const auto& c : g.constants) {
    json e = type_to_json(c.value.type());
    e["name"] = c.name;
    e["data"] = base64_encode(c.value.bytes(), c.value.nbytes());
    if (!c.init_text.empty()) e["init"] = c.init_text;
    j["constants"].push_back(e);
  }
  j["nodes"] = json::array();
  for (const auto& n : g.nodes) {
    json e = {{"name", n.name}, {"op", n.op}, {"inputs", n.inputs}, {"outputs", n.outputs}};
    json attrs = json::object();
    for (const auto& [key, value] : n.attrs) attrs[key] = attr_to_json(value);
    e["attrs"] = attrs;
    if (n.opaque) {
      json types = json::array();
      for (const auto& t : n.opaque->output_types) types.push_back(type_to_json(t));
      e["opaque"] = {{"domain", n.opaque->domain}, {"output_types", types}};
      if (n.opaque->version != 0) e["opaque"]["version"] = n.opaque->version;
    }
    j["nodes"].push_back(e);
  }
  j["outputs"] = g.outputs;
  return j;
}

Graph graph_from_json(const json& j, const std::string& file, const std::string& path_prefix) {
  Graph g = Reader(file, path_prefix).graph(j);
  std::vector<std::string> order;
  for (const auto& n : g.nodes) order.push_back(node_title(n));  // as errors name nodes
  try {
    infer_graph(g);
  } catch (const Error& e) {
    auto it = std::find(order.begin(), order.end(), e.node());
    if (e.node().empty() || it == order.end()) throw Error(e.message(), SourceLoc{file}, e.node());
    throw Error(fmt::format("{}nodes[{}]: {}", path_prefix, it - order.begin(), e.message()),
                SourceLoc{file}, e.node());
  }
  return g;
}

Graph parse_json_graph(std::string_view text, const std::string& file) {
  return graph_from_json(parse_json_text(text, file), file);
}

}  // namespace retort
