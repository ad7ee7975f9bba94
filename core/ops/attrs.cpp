#include "core/ops/attrs.h"
#include "core/ops/onnx_float_attr.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/tensor/number_text.h"

namespace retort {

std::string_view attr_kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::Int:
      return "int";
    case AttrKind::Float:
      return "float";
    case AttrKind::String:
      return "string";
    case AttrKind::Ints:
      return "ints";
    case AttrKind::Floats:
      return "floats";
    case AttrKind::Strings:
      return "strings";
    case AttrKind::DType:
      return "dtype";
  }
  return "?";
}

bool attr_fits(const AttrValue& v, AttrKind k) {
  switch (k) {
    case AttrKind::Int:
      return std::holds_alternative<int64_t>(v);
    case AttrKind::Float:
      return std::holds_alternative<double>(v) || std::holds_alternative<int64_t>(v);
    case AttrKind::String:
      return std::holds_alternative<std::string>(v);
    case AttrKind::Ints:
      return std::holds_alternative<std::vector<int64_t>>(v);
    case AttrKind::Floats:
      return std::holds_alternative<std::vector<double>>(v) ||
             std::holds_alternative<std::vector<int64_t>>(v);
    case AttrKind::Strings:
      return std::holds_alternative<std::vector<std::string>>(v);
    case AttrKind::DType:
      return std::holds_alternative<std::string>(v) && parse_dtype(std::get<std::string>(v));
  }
  return false;
}

AttrValue attr_coerce(const AttrValue& v, AttrKind k) {
  if (k == AttrKind::Float && std::holds_alternative<int64_t>(v))
    return static_cast<double>(std::get<int64_t>(v));
  if (k == AttrKind::Floats && std::holds_alternative<std::vector<int64_t>>(v)) {
    const auto& ints = std::get<std::vector<int64_t>>(v);
    return std::vector<double>(ints.begin(), ints.end());
  }
  return v;
}

std::string attr_value_str(const AttrValue& v) {
  struct Printer {
    std::string operator()(int64_t i) const { return fmt::format("{}", i); }
    std::string operator()(double d) const { return float_literal(d); }
    std::string operator()(const std::string& s) const { return quote_string(s); }
    std::string operator()(const std::vector<int64_t>& v) const {
      return fmt::format("[{}]", fmt::join(v, ","));
    }
    std::string operator()(const std::vector<double>& v) const {
      std::vector<std::string> parts;
      for (double d : v) parts.push_back(float_literal(d));
      return fmt::format("[{}]", fmt::join(parts, ","));
    }
    std::string operator()(const std::vector<std::string>& v) const {
      std::vector<std::string> parts;
      for (const auto& s : v) parts.push_back(quote_string(s));
      return fmt::format("[{}]", fmt::join(parts, ","));
    }
  };
  return std::visit(Printer{}, v);
}

namespace {
template <typename T>
const T& get_as(const Attrs& a, const std::string& name, std::string_view kind) {
  auto it = a.find(name);
  if (it == a.end()) fail("attribute '{}' is missing", name);
  if (!std::holds_alternative<T>(it->second))
    fail("attribute '{}' must be {}, got {}", name, kind, attr_value_str(it->second));
  return std::get<T>(it->second);
}
}  // namespace

int64_t attr_int(const Attrs& a, const std::string& name) {
  return get_as<int64_t>(a, name, "an int");
}

double attr_float(const Attrs& a, const std::string& name) {
  auto it = a.find(name);
  if (it != a.end() && std::holds_alternative<int64_t>(it->second))
    return static_cast<double>(std::get<int64_t>(it->second));
  return get_as<double>(a, name, "a float");
}

double onnx_float_attr(const Attrs& a, const std::string& name) {
  return static_cast<double>(static_cast<float>(attr_float(a, name)));
}

const std::string& attr_string(const Attrs& a, const std::string& name) {
  return get_as<std::string>(a, name, "a string");
}

const std::vector<int64_t>& attr_ints(const Attrs& a, const std::string& name) {
  return get_as<std::vector<int64_t>>(a, name, "a list of ints");
}

DType attr_dtype(const Attrs& a, const std::string& name) {
  const std::string& s = get_as<std::string>(a, name, "a dtype");
  auto t = parse_dtype(s);
  if (!t) fail("attribute '{}': unknown dtype '{}'", name, s);
  return *t;
}

bool has_attr(const Attrs& a, const std::string& name) {
  return a.count(name) > 0;
}

}  // namespace retort
