#include "core/io/json_reader.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

using nlohmann::json;

namespace {

std::string type_name(const json& j) {
  return j.type_name();
}

// The DOM parser, also remembering where an error was found: nlohmann's out_of_range errors (a
// number like 1e400 that overflows a double) carry no position of their own.
class LocatingDomParser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  using json_sax_dom_parser::json_sax_dom_parser;
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    error_start = position >= token.size() ? position - token.size() : 0;
    return json_sax_dom_parser::parse_error(position, token, ex);
  }
  size_t error_start = 0;  // the byte where the offending token starts
};

SourceLoc location_of(std::string_view text, size_t byte, const std::string& file) {
  SourceLoc loc{file, 1, 1};
  size_t end = std::min(byte, text.size());
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.col = 1;
    } else {
      ++loc.col;
    }
  }
  return loc;
}

}  // namespace

std::optional<size_t> json_too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

json parse_json_or_discarded(std::string_view text) {
  if (json_too_deep_at(text)) return json(json::value_t::discarded);
  return json::parse(text, nullptr, false);
}

json parse_json_text(std::string_view text, const std::string& file) {
  if (std::optional<size_t> at = json_too_deep_at(text))
    throw Error(fmt::format("invalid JSON: nested deeper than {} levels", kMaxJsonDepth),
                location_of(text, *at, file));
  json result;
  LocatingDomParser parser(result);
  try {
    json::sax_parse(text, &parser);
    return result;
  } catch (const json::exception& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: " or
    // "[json.exception.out_of_range.406] ".
    const auto* syntax = dynamic_cast<const json::parse_error*>(&e);
    size_t cut = what.find(syntax ? ": " : "] ");
    size_t at = syntax ? (syntax->byte > 0 ? syntax->byte - 1 : 0) : parser.error_start;
    throw Error("invalid JSON: " + (cut == std::string::npos ? what : what.substr(cut + 2)),
                location_of(text, at, file));
  }
}

json float_to_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
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

std::string json_brief(const json& j) {
  if (j.is_structured()) return fmt::format("an {}", j.type_name());
  std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

void JsonReader::bad(const std::string& path, const std::string& message) const {
  std::string where = prefix_.empty()   ? path
                      : path == "(top)" ? prefix_.substr(0, prefix_.size() - 1)
                                        : prefix_ + path;
  throw Error(fmt::format("{}: {}", where, message), SourceLoc{file_});
}

void JsonReader::check_fields(const json& obj, const std::string& path,
                              std::initializer_list<const char*> known) const {
  if (!obj.is_object()) bad(path, fmt::format("expected an object, found {}", type_name(obj)));
  for (const auto& [key, _] : obj.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) bad(path, fmt::format("unknown field '{}' (known: {})", key, fmt::join(known, ", ")));
  }
}

const json& JsonReader::field(const json& obj, const char* key, const std::string& path) const {
  auto it = obj.find(key);
  if (it == obj.end()) bad(path, fmt::format("missing field '{}'", key));
  return *it;
}

std::string JsonReader::string(const json& j, const std::string& path) const {
  if (!j.is_string()) bad(path, fmt::format("expected a string, found {}", type_name(j)));
  return j.get<std::string>();
}

int64_t JsonReader::integer(const json& j, const std::string& path) const {
  if (j.is_number_integer() && !(j.is_number_unsigned() &&
                                 j.get<uint64_t>() > uint64_t{std::numeric_limits<int64_t>::max()}))
    return j.get<int64_t>();
  bad(path, fmt::format("expected a 64-bit integer, found {}", json_brief(j)));
}

double JsonReader::number(const json& j, const std::string& path) const {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  bad(path,
      fmt::format("expected a number (or \"nan\", \"inf\", \"-inf\"), found {}", json_brief(j)));
}

const json& JsonReader::array(const json& j, const std::string& path) const {
  if (!j.is_array()) bad(path, fmt::format("expected an array, found {}", type_name(j)));
  return j;
}

std::vector<std::string> JsonReader::strings(const json& j, const std::string& path) const {
  std::vector<std::string> out;
  size_t i = 0;
  for (const auto& item : array(j, path))
    out.push_back(string(item, fmt::format("{}[{}]", path, i++)));
  return out;
}

AttrValue JsonReader::attr(const json& j, const std::string& path) const {
  if (!j.is_object() || j.size() != 1)
    bad(path,
        fmt::format("expected one of {{\"int\": ..}}, {{\"float\": ..}}, {{\"string\": ..}}, "
                    "{{\"ints\": [..]}}, {{\"floats\": [..]}}, {{\"strings\": [..]}}, found {}",
                    json_brief(j)));
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
uint64_t JsonReader::unsigned_integer(const json& j, const std::string& path) const {
  // Parsed text gives unsigned numbers; documents built in memory may hold signed ones.
  if (j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0))
    return j.get<uint64_t>();
  bad(path, fmt::format("expected an unsigned integer, found {}", json_brief(j)));
}

bool JsonReader::boolean(const json& j, const std::string& path) const {
  if (!j.is_boolean()) bad(path, fmt::format("expected true or false, found {}", json_brief(j)));
  return j.get<bool>();
}

}  // namespace retort
