// Reading JSON documents field by field with errors that name the file and the JSON path of the
// bad field ("graph.nodes[3].attrs.axis: expected an integer"). Shared by every JSON format
// (graphs, rewrite traces, session files).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ops/attrs.h"

namespace retort {

// How deep arrays and objects may nest in any JSON Retort reads: files, texts stored in a
// database, worker frames. Parsing builds one value per bracket, so depth is what a file buys
// memory with (16 MB of `[` took 974 MB); Retort's own documents nest a dozen levels at most.
inline constexpr int kMaxJsonDepth = 64;

// The byte at which `text` first nests deeper than kMaxJsonDepth, if it does: one scan over its
// bytes, skipping strings, before anything is parsed.
std::optional<size_t> json_too_deep_at(std::string_view text);

// Parses JSON text; a syntax error, or nesting deeper than kMaxJsonDepth, is an Error at the
// file's line:col. `file` names where the text came from (a path, "findings.db: finding #3").
nlohmann::json parse_json_text(std::string_view text, const std::string& file);

// The same for a stored text whose reader has its own words for "unreadable": a text that is
// not JSON, or nests too deep, is a discarded value (json::is_discarded), never an exception.
nlohmann::json parse_json_or_discarded(std::string_view text);

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
