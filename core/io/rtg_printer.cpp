// The .rtg printer: writes a graph so that parse_rtg reads it back to the same graph.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/io/rtg.h"
#include "core/io/rtg_init.h"
#include "core/io/rtg_lexer.h"
#include "core/ops/registry.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

std::string element_text(const Tensor& t, int64_t i) {
  if (is_float(t.dtype())) return float_literal_for(t.get(i), t.dtype());
  if (t.dtype() == DType::boolean) return t.get_int(i) ? "true" : "false";
  return fmt::format("{}", t.get_int(i));
}

// Row-major values as lists nested like the shape: [[1, 2], [3, 4]].
std::string nested_values(const Tensor& t, size_t level, int64_t& next) {
  std::vector<std::string> parts;
  for (int64_t i = 0; i < t.shape()[level]; ++i)
    parts.push_back(level + 1 == t.shape().size() ? element_text(t, next++)
                                                  : nested_values(t, level + 1, next));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

std::string constant_values(const Constant& c, int64_t max_elements) {
  const Tensor& t = c.value;
  if (!c.init_text.empty()) {
    auto rebuilt = tensor_from_init_text(c.init_text, t.type());
    if (rebuilt && *rebuilt == t) return c.init_text;
  }
  if (t.rank() == 0) return element_text(t, 0);
  bool elide = max_elements >= 0 && t.numel() > max_elements;
  if (!elide && t.rank() >= 2) {
    int64_t next = 0;
    return nested_values(t, 0, next);
  }
  int64_t shown = elide ? max_elements : t.numel();
  std::vector<std::string> parts;
  parts.reserve(static_cast<size_t>(shown) + 1);
  for (int64_t i = 0; i < shown; ++i) parts.push_back(element_text(t, i));
  if (elide) parts.push_back(fmt::format("... {} values", t.numel()));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

std::string attr_text(const AttrValue& v, const AttrSpec* spec) {
  if (spec && spec->kind == AttrKind::DType && std::holds_alternative<std::string>(v))
    return std::get<std::string>(v);
  return attr_value_str(v);
}

std::string names_text(const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  for (const auto& n : names) parts.push_back(rtg_name(n));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string node_text(const Node& n) {
  const OpDef* op = n.is_opaque() ? nullptr : OpRegistry::instance().find(n.op);
  std::vector<std::string> args;
  for (const auto& in : n.inputs) args.push_back(in.empty() ? "_" : rtg_name(in));
  for (const auto& [key, value] : n.attrs) {
    const AttrSpec* spec = op ? op->find_attr(key) : nullptr;
    if (spec && spec->default_value && *spec->default_value == value) continue;
    args.push_back(fmt::format("{}={}", key, attr_text(value, spec)));
  }
  std::string head = n.op;
  if (n.is_opaque()) {
    std::string id = n.opaque->domain.empty() ? n.op : n.opaque->domain + "::" + n.op;
    if (n.opaque->version != 0) id += fmt::format("@{}", n.opaque->version);
    head = fmt::format("opaque {}", quote_string(id));
  }
  std::string text = fmt::format("{} = {}({})", names_text(n.outputs), head, fmt::join(args, ", "));
  if (n.is_opaque()) {
    std::vector<std::string> types;
    for (const auto& t : n.opaque->output_types) types.push_back(t.str());
    text += fmt::format(" : {}", fmt::join(types, ", "));
  }
  return text;
}

std::string types_comment(const Graph& g, const Node& n) {
  std::vector<std::string> types;
  for (const auto& o : n.outputs) {
    auto it = g.types.find(o);
    if (it == g.types.end()) return "";
    types.push_back(it->second.str());
  }
  return fmt::format("  # {}", fmt::join(types, ", "));
}

// A call lists its nodes by their first outputs, as .rtg names nodes.
std::string call_text(const Graph& g, const Call& c) {
  std::vector<std::string> firsts;
  for (const auto& name : c.nodes) {
    const Node* n = g.find_node(name);
    firsts.push_back(n && !n->outputs.empty() ? n->outputs[0] : name);
  }
  return fmt::format("call {} : {}\n", rtg_name(c.function), names_text(firsts));
}

}  // namespace

bool rtg_can_print(const Graph& g) {
  auto ok = [](const std::string& name) { return name.empty() || rtg_writable_name(name); };
  if (!ok(g.name)) return false;
  for (const auto& in : g.inputs)
    if (!ok(in.name)) return false;
  for (const auto& c : g.constants)
    if (!ok(c.name)) return false;
  for (const auto& f : g.functions)
    if (!ok(f.name)) return false;
  for (const auto& n : g.nodes) {
    for (const auto& v : n.inputs)
      if (!ok(v)) return false;
    for (const auto& v : n.outputs)
      if (!ok(v)) return false;
  }
  return true;
}

std::string print_rtg(const Graph& g, const RtgPrintOptions& options) {
  std::string out;
  if (!g.name.empty() && g.name != Graph{}.name) out += fmt::format("graph {}\n", rtg_name(g.name));
  for (const auto& in : g.inputs)
    out += fmt::format("input {} : {}\n", rtg_name(in.name), in.type.str());
  for (const auto& c : g.constants)
    out += fmt::format("const {} : {} = {}\n", rtg_name(c.name), c.value.type().str(),
                       constant_values(c, options.max_literal_elements));
  for (const auto& n : g.nodes) {
    out += node_text(n);
    // An opaque node already declares its types.
    if (options.show_types && !n.is_opaque()) out += types_comment(g, n);
    out += "\n";
  }
  for (const auto& f : g.functions) {
    out += "function " + rtg_name(f.name);
    if (f.form != FunctionForm::Body)
      out += fmt::format(" {} {}", function_form_name(f.form), rtg_name(f.target));
    out += "\n";
  }
  for (const auto& c : g.calls) out += call_text(g, c);
  if (!g.outputs.empty()) out += fmt::format("output {}\n", names_text(g.outputs));
  return out;
}

}  // namespace retort
