// Reading JSON documents field by field with errors that name the file and the JSON path of the
// bad field ("graph.nodes[3].attrs.axis: expected an integer"). Shared by every JSON format
// (graphs, rewrite traces, session files).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ops/attrs.h"

namespace retort {

// Parses JSON text; a syntax error is an Error at the file's line:col.
nlohmann::json parse_json_text(std::string_view text, const std::string& file);

// JSON has no NaN or infinity; those floats travel as the strings "nan", "inf", "-inf".
nlohmann::json float_to_json(double v);
// {"int": 3}, {"float": 0.5}, {"string": "x"}, {"ints": [..]}, {"floats": [..]}, {"strings": [..]}
nlohmann::json attr_to_json(const AttrValue& v);
// A value for an error message: scalars as written, containers by kind.
std::string json_brief(const nlohmann::json& j);

class JsonReader {
 public:
  // `prefix` is prepended to every path: "graph." for a graph inside a session file.
  explicit JsonReader(std::string file, std::string prefix = "")
      : file_(std::move(file)), prefix_(std::move(prefix)) {}

  // Throws Error "PATH: message" located in the file; the path "(top)" names the document.
  [[noreturn]] void bad(const std::string& path, const std::string& message) const;
  // An object whose every key is one of `known`.
  void check_fields(const nlohmann::json& obj, const std::string& path,
                    std::initializer_list<const char*> known) const;
  const nlohmann::json& field(const nlohmann::json& obj, const char* key,
                              const std::string& path) const;
  std::string string(const nlohmann::json& j, const std::string& path) const;
  int64_t integer(const nlohmann::json& j, const std::string& path) const;
  uint64_t unsigned_integer(const nlohmann::json& j, const std::string& path) const;
  bool boolean(const nlohmann::json& j, const std::string& path) const;
  double number(const nlohmann::json& j, const std::string& path) const;
  const nlohmann::json& array(const nlohmann::json& j, const std::string& path) const;
  std::vector<std::string> strings(const nlohmann::json& j, const std::string& path) const;
  AttrValue attr(const nlohmann::json& j, const std::string& path) const;

  const std::string& file() const { return file_; }
  const std::string& prefix() const { return prefix_; }

 private:
  std::string file_, prefix_;
};

}  // namespace retort
