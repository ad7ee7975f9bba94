#include "core/io/json_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/io/base64.h"
#include "core/io/shape_limits.h"
#include "core/ops/registry.h"

namespace retort {

using nlohmann::json;

namespace {

constexpr const char* kFormatName = "retort-graph";

// JSON has no NaN or infinity; those floats travel as the strings "nan", "inf", "-inf".
json float_to_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json type_to_json(const TensorType& t) {
  return {{"dtype", std::string(dtype_name(t.dtype))}, {"shape", t.shape}};
}

json attr_to_json(const AttrValue& v) {
  struct Visitor {
    json operator()(int64_t i) const { return {{"int", i}}; }
    json operator()(double d) const { return {{"float", float_to_json(d)}}; }
    json operator()(const std::string& s) const { return {{"string", s}}; }
    json operator()(const std::vector<int64_t>& v) const { return {{"ints", v}}; }
    json operator()(const std::vector<double>& v) const {
      json list = json::array();
      for (double d : v) list.push_back(float_to_json(d));
      return {{"floats", list}};
    }
    json operator()(const std::vector<std::string>& v) const { return {{"strings", v}}; }
  };
  return std::visit(Visitor{}, v);
}

std::string json_type_name(const json& j) {
  return j.type_name();
}

// A value for an error message: scalars as written, containers by kind (their text may be huge
// or deeply nested).
std::string brief(const json& j) {
  if (j.is_structured()) return fmt::format("an {}", j.type_name());
  std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

// Reads one JSON document into a Graph, naming the path of every bad field.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void bad(const std::string& path, const std::string& message) const {
    throw Error(fmt::format("{}: {}", path, message), SourceLoc{file_});
  }

  void check_fields(const json& obj, const std::string& path,
                    std::initializer_list<const char*> known) const {
    if (!obj.is_object())
      bad(path, fmt::format("expected an object, found {}", json_type_name(obj)));
    for (const auto& [key, _] : obj.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok)
        bad(path, fmt::format("unknown field '{}' (known: {})", key, fmt::join(known, ", ")));
    }
  }

  const json& field(const json& obj, const char* key, const std::string& path) const {
    auto it = obj.find(key);
    if (it == obj.end()) bad(path, fmt::format("missing field '{}'", key));
    return *it;
  }

  std::string string(const json& j, const std::string& path) const {
    if (!j.is_string()) bad(path, fmt::format("expected a string, found {}", json_type_name(j)));
    return j.get<std::string>();
  }

  int64_t integer(const json& j, const std::string& path) const {
    if (j.is_number_integer() &&
        !(j.is_number_unsigned() &&
          j.get<uint64_t>() > uint64_t{std::numeric_limits<int64_t>::max()}))
      return j.get<int64_t>();
    bad(path, fmt::format("expected a 64-bit integer, found {}", brief(j)));
  }

  double number(const json& j, const std::string& path) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      const auto& s = j.get_ref<const std::string&>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    bad(path, fmt::format("expected a number (or \"nan\", \"inf\", \"-inf\"), found {}", brief(j)));
  }

  const json& array(const json& j, const std::string& path) const {
    if (!j.is_array()) bad(path, fmt::format("expected an array, found {}", json_type_name(j)));
    return j;
  }

  std::vector<std::string> strings(const json& j, const std::string& path) const {
    std::vector<std::string> out;
    size_t i = 0;
    for (const auto& item : array(j, path))
      out.push_back(string(item, fmt::format("{}[{}]", path, i++)));
    return out;
  }

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
                                 kJsonGraphVersion, brief(version)));
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

  AttrValue attr(const json& j, const std::string& path) const {
    if (!j.is_object() || j.size() != 1)
      bad(path,
          fmt::format("expected one of {{\"int\": ..}}, {{\"float\": ..}}, {{\"string\": ..}}, "
                      "{{\"ints\": [..]}}, {{\"floats\": [..]}}, {{\"strings\": [..]}}, found {}",
                      brief(j)));
    auto only = j.begin();
    const std::string& kind = only.key();
    const json& v = only.value();
    std::string vpath = path + "." + kind;
    if (kind == "int") return integer(v, vpath);
    if (kind == "float") return number(v, vpath);
    if (kind == "string") return string(v, vpath);
    if (kind == "strings") return strings(v, vpath);
    if (kind == "ints") {
      std::vector<int64_t> out;
      size_t i = 0;
      for (const auto& item : array(v, vpath))
        out.push_back(integer(item, fmt::format("{}[{}]", vpath, i++)));
      return out;
    }
    if (kind == "floats") {
      std::vector<double> out;
      size_t i = 0;
      for (const auto& item : array(v, vpath))
        out.push_back(number(item, fmt::format("{}[{}]", vpath, i++)));
      return out;
    }
    bad(path, fmt::format("unknown attribute kind '{}' (known: int, float, string, ints, floats, "
                          "strings)",
                          kind));
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
                            brief(raw.begin().value())));
  }

  std::string file_;
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

Graph graph_from_json(const json& j, const std::string& file) {
  Graph g = Reader(file).graph(j);
  std::vector<std::string> order;
  for (const auto& n : g.nodes) order.push_back(n.name);
  try {
    infer_graph(g);
  } catch (const Error& e) {
    auto it = std::find(order.begin(), order.end(), e.node());
    if (e.node().empty() || it == order.end()) throw Error(e.message(), SourceLoc{file}, e.node());
    throw Error(fmt::format("nodes[{}]: {}", it - order.begin(), e.message()), SourceLoc{file},
                e.node());
  }
  return g;
}

Graph parse_json_graph(std::string_view text, const std::string& file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // Turn the byte offset into line:col so the message points like the other formats do.
    SourceLoc loc{file, 1, 1};
    size_t end = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    for (size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++loc.line;
        loc.col = 1;
      } else {
        ++loc.col;
      }
    }
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    size_t colon = what.find(": ");
    throw Error("invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)),
                loc);
  }
  return graph_from_json(j, file);
}

}  // namespace retort
