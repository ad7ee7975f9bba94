#include "app/op_help.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/ops/registry.h"
#include "core/tensor/value_domain.h"

namespace retort {

namespace {

std::string arity_text(const OpDef& op) {
  if (op.max_inputs < 0) return fmt::format("{} or more", op.min_inputs);
  if (op.min_inputs == op.max_inputs) return fmt::format("{}", op.min_inputs);
  return fmt::format("{} to {}", op.min_inputs, op.max_inputs);
}

std::string attr_line(const AttrSpec& a) {
  std::string line = fmt::format("  {}: {}", a.name, attr_kind_name(a.kind));
  if (a.default_value)
    line += fmt::format(" = {}", attr_value_str(*a.default_value));
  else if (a.required)
    line += " (required)";
  else
    line += " (optional)";
  if (!a.onnx) line += " [not an ONNX attribute]";
  if (!a.doc.empty()) line += "  " + a.doc;
  return line;
}

std::string onnx_text(const OnnxMapping& m) {
  if (m.op_type.empty()) return "onnx: none (Retort only)";
  std::string text = fmt::format("onnx: {} (opset {})", m.op_type, m.since_opset);
  std::vector<std::string> moved;
  for (const auto& in : m.attr_inputs)
    moved.push_back(fmt::format("{} as input {}", in.attr, in.index));
  if (!moved.empty()) text += fmt::format("; {}", fmt::join(moved, ", "));
  return text;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

std::string op_help_text(const OpDef& op) {
  std::string out = fmt::format("op {}\n", op.name);
  if (!op.doc.empty()) out += fmt::format("  {}\n", op.doc);
  out += fmt::format("inputs ({}):\n", arity_text(op));
  for (size_t i = 0; i < op.input_names.size(); ++i) {
    ValueDomain d = op.domain_of_input(i);
    bool optional = static_cast<int>(i) >= op.min_inputs;
    out += fmt::format("  {}{}{}\n", op.input_names[i], optional ? " (optional)" : "",
                       d == ValueDomain::Any ? "" : fmt::format("  values: {}", domain_name(d)));
  }
  if (op.attrs.empty()) {
    out += "attributes: none\n";
  } else {
    out += "attributes:\n";
    for (const auto& a : op.attrs) out += attr_line(a) + "\n";
  }
  out += op.num_outputs < 0 ? "outputs: as many as the node names\n"
                            : fmt::format("outputs: {}\n", op.num_outputs);
  out += onnx_text(op.onnx) + "\n";
  if (!op.tags.empty()) out += fmt::format("tags: {}\n", fmt::join(op.tags, ", "));
  return out;
}

std::string op_list_text() {
  std::vector<const OpDef*> ops = OpRegistry::instance().all();
  if (ops.empty()) return "no ops are registered\n";
  size_t width = 0;
  for (const OpDef* op : ops) width = std::max(width, op->name.size());
  std::string out = fmt::format("{} ops:\n", ops.size());
  for (const OpDef* op : ops)
    out += fmt::format("  {:<{}}  {}\n", op->name, width, first_line(op->doc));
  return out;
}

}  // namespace retort
