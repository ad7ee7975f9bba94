// ONNX ModelProto -> Graph. Which ONNX ops map to registry ops, and which of their inputs are
// really attributes, is read from each op's OnnxMapping and AttrSpecs; nothing here names an op.
#include <algorithm>
#include <optional>
#include <set>

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include "core/base/child_call.h"
#include "core/io/graph_files.h"
#include "core/io/onnx_fold.h"
#include "core/io/onnx_io.h"
#include "core/io/onnx_proto.h"
#include "core/ops/onnx_function.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

bool is_default_domain(const std::string& domain) {
  return domain.empty() || domain == "ai.onnx";
}

[[noreturn]] void unsupported(const std::string& message, const std::string& node = "") {
  throw OnnxUnsupported(message, {}, node);
}

// The static tensor type of a declared value. Non-tensor values and element types Retort lacks
// are unsupported; a missing or symbolic shape gives nullopt and the reason in *problem.
// Non-tensor values (sequences, maps, optionals), element types Retort lacks and ranks above
// kMaxRank are unsupported.
void require_representable(const onnx::TypeProto& tp, const std::string& what) {
  if (!tp.has_tensor_type()) unsupported(fmt::format("{} is not a tensor", what));
  const auto& tt = tp.tensor_type();
  dtype_for_onnx(tt.elem_type(), what);
  if (tt.has_shape() && static_cast<size_t>(tt.shape().dim_size()) > kMaxRank)
    unsupported(fmt::format("{} has rank {}, above Retort's maximum {}", what,
                            tt.shape().dim_size(), kMaxRank));
}

std::optional<TensorType> static_type(const onnx::TypeProto& tp, const std::string& what,
                                      std::string* problem) {
  require_representable(tp, what);
  const auto& tt = tp.tensor_type();
  TensorType type{*dtype_from_onnx_code(tt.elem_type()), {}};
  if (!tt.has_shape()) {
    *problem = fmt::format("{} has no declared shape; Retort needs static shapes", what);
    return std::nullopt;
  }
  for (int i = 0; i < tt.shape().dim_size(); ++i) {
    const auto& d = tt.shape().dim(i);
    if (d.has_dim_value() && d.dim_value() >= 0) {
      type.shape.push_back(d.dim_value());
    } else {
      *problem =
          d.has_dim_param()
              ? fmt::format("dimension '{}' of {} is symbolic; Retort needs static shapes",
                            d.dim_param(), what)
              : fmt::format("dimension {} of {} is unknown; Retort needs static shapes", i, what);
      return std::nullopt;
    }
  }
  return type;
}

// Old models leave AttributeProto.type unset; the filled field tells the kind.
onnx::AttributeProto::AttributeType attr_type(const onnx::AttributeProto& a) {
  using A = onnx::AttributeProto;
  if (a.type() != A::UNDEFINED) return a.type();
  if (a.has_f()) return A::FLOAT;
  if (a.has_i()) return A::INT;
  if (a.has_s()) return A::STRING;
  if (a.has_t()) return A::TENSOR;
  if (a.has_g()) return A::GRAPH;
  if (a.floats_size()) return A::FLOATS;
  if (a.ints_size()) return A::INTS;
  if (a.strings_size()) return A::STRINGS;
  return A::UNDEFINED;
}

std::string attr_type_label(onnx::AttributeProto::AttributeType t) {
  std::string name = onnx::AttributeProto::AttributeType_Name(t);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

// An ONNX attribute as a plain value, when it is a number, string or list of them.
std::optional<AttrValue> plain_attr(const onnx::AttributeProto& a) {
  using A = onnx::AttributeProto;
  switch (attr_type(a)) {
    case A::INT:
      return AttrValue(int64_t{a.i()});
    case A::FLOAT:
      return AttrValue(static_cast<double>(a.f()));
    case A::STRING:
      return AttrValue(a.s());
    case A::INTS:
      return AttrValue(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case A::FLOATS:
      return AttrValue(std::vector<double>(a.floats().begin(), a.floats().end()));
    case A::STRINGS:
      return AttrValue(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    default:
      return std::nullopt;
  }
}

// The ONNX attribute as the kind the registry declares, or nullopt when it does not fit.
std::optional<AttrValue> attr_as_kind(const onnx::AttributeProto& a, AttrKind kind) {
  using A = onnx::AttributeProto;
  const auto t = attr_type(a);
  switch (kind) {
    case AttrKind::Int:
      if (t == A::INT) return plain_attr(a);
      break;
    case AttrKind::Float:
      if (t == A::FLOAT || t == A::INT) return attr_coerce(*plain_attr(a), kind);
      break;
    case AttrKind::String:
      if (t == A::STRING) return plain_attr(a);
      break;
    case AttrKind::Ints:
      if (t == A::INTS) return plain_attr(a);
      break;
    case AttrKind::Floats:
      if (t == A::FLOATS || t == A::INTS) return attr_coerce(*plain_attr(a), kind);
      break;
    case AttrKind::Strings:
      if (t == A::STRINGS) return plain_attr(a);
      break;
    case AttrKind::DType:
      if (t == A::INT) {
        DType d = dtype_for_onnx(static_cast<int>(a.i()), fmt::format("attribute '{}'", a.name()));
        return AttrValue(std::string(dtype_name(d)));
      }
      break;
  }
  return std::nullopt;
}

// A constant input tensor as the value of an attribute of the given kind.
AttrValue tensor_as_attr(const Tensor& t, AttrKind kind, const std::string& what) {
  auto require_scalar = [&] {
    if (t.numel() != 1) fail("{} must hold one value, got {}", what, t.type().str());
  };
  auto require_list = [&] {
    if (t.rank() > 1) fail("{} must be a 1-D list, got {}", what, t.type().str());
  };
  switch (kind) {
    case AttrKind::Int:
      require_scalar();
      return t.get_int(0);
    case AttrKind::Float:
      require_scalar();
      return t.get(0);
    case AttrKind::Ints: {
      require_list();
      if (!is_integer(t.dtype())) fail("{} must hold integers, got {}", what, t.type().str());
      std::vector<int64_t> v;
      for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.get_int(i));
      return v;
    }
    case AttrKind::Floats: {
      require_list();
      std::vector<double> v;
      for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.get(i));
      return v;
    }
    default:
      fail("{} cannot become a {} attribute", what, attr_kind_name(kind));
  }
}

class Importer {
 public:
  Importer(const onnx::ModelProto& model, const OnnxImportOptions& options)
      : model_(model),
        graph_(model.graph()),
        options_(options),
        folder_(
            out_.graph, [this](const std::string& v) { return constant_value(v); },
            [this](const Node& n, const std::string& o) { return opaque_output_type(o, n); }) {}

  OnnxImport run() {
    read_opsets();
    read_declared_types();
    read_initializers();
    read_inputs();
    name_nodes();
    for (int k = 0; k < graph_.node_size(); ++k) {
      try {
        read_node(graph_.node(k), node_names_[k]);
      } catch (const Error&) {
        rethrow_located("", node_names_[k]);
      }
    }
    for (const auto& o : graph_.output()) {
      if (o.name().empty()) fail("a graph output has an empty name");
      out_.graph.outputs.push_back(o.name());
    }
    drop_folding_nodes();
    drop_folded_values();
    complete_outputs();
    type_opaque_outputs();
    infer_graph(out_.graph);
    give_absent_inputs_their_onnx_meaning();
    check_declared_outputs();
    return std::move(out_);
  }

 private:
  void read_opsets() {
    for (const auto& os : model_.opset_import())
      opsets_[is_default_domain(os.domain()) ? "" : os.domain()] = static_cast<int>(os.version());
    // Models before IR version 3 carry no opset_import and mean opset 1.
    opsets_.emplace("", 1);
  }

  void read_declared_types() {
    for (const auto& v : graph_.input()) declared_[v.name()] = &v.type();
    for (const auto& v : graph_.value_info()) declared_[v.name()] = &v.type();
    for (const auto& v : graph_.output()) declared_[v.name()] = &v.type();
  }

  void read_initializers() {
    if (graph_.sparse_initializer_size() > 0) unsupported("the model has sparse initializers");
    for (const auto& init : graph_.initializer()) {
      if (init.name().empty()) fail("an initializer has an empty name");
      add_constant(init.name(),
                   tensor_from_proto(init, fmt::format("initializer '{}'", init.name())));
    }
  }

  void add_constant(const std::string& name, Tensor value) {
    if (!constants_.emplace(name, out_.graph.constants.size()).second)
      fail("value '{}' is defined twice", name);
    out_.graph.constants.push_back({name, std::move(value), ""});
  }

  void read_inputs() {
    for (const auto& in : graph_.input()) {
      if (constants_.count(in.name())) continue;  // an initializer's default value: a constant
      if (in.name().empty()) fail("a graph input has an empty name");
      std::string problem;
      auto type = static_type(in.type(), fmt::format("input '{}'", in.name()), &problem);
      if (!type) unsupported(problem);
      out_.graph.inputs.push_back({in.name(), *type});
    }
  }

  // The ONNX node names, made unique; unnamed nodes get "<op>_<k>".
  void name_nodes() {
    std::set<std::string> used;
    for (const auto& n : graph_.node())
      if (!n.name().empty()) used.insert(n.name());
    std::set<std::string> claimed;
    std::map<std::string, int> next;
    for (const auto& n : graph_.node()) {
      std::string name = n.name();
      if (name.empty() || claimed.count(name)) {
        const OpDef* op = registry_op(n);
        std::string stem = op ? op->name : n.op_type();
        do name = fmt::format("{}_{}", stem, next[stem]++);
        while (used.count(name));
        used.insert(name);
      }
      claimed.insert(name);
      node_names_.push_back(name);
    }
  }

  void read_node(const onnx::NodeProto& p, const std::string& name) {
    if (is_default_domain(p.domain()) && p.op_type() == "Constant") return read_constant_node(p);
    Node node;
    node.name = name;
    node.op = p.op_type();
    node.inputs.assign(p.input().begin(), p.input().end());
    node.outputs.assign(p.output().begin(), p.output().end());
    while (!node.outputs.empty() && node.outputs.back().empty()) node.outputs.pop_back();
    while (!node.inputs.empty() && node.inputs.back().empty()) node.inputs.pop_back();

    const OpDef* op = registry_op(p);
    if (op) check_attribute_types(p);
    std::string why = op ? registry_form_problem(*op, p, node) : "Retort has no such op";
    if (why.empty()) {
      to_registry_node(*op, p, node);
    } else {
      out_.opaque_reasons[name] = why;
      to_opaque_node(p, node);
    }
    out_.graph.nodes.push_back(std::move(node));
  }

  // The registry op of an ONNX node: by op_type in ONNX's domain, or a call of the function
  // export writes for an op above its opset (core/ops/onnx_function.h), which means that op.
  const OpDef* registry_op(const onnx::NodeProto& p) const {
    if (is_default_domain(p.domain())) return registry_.find_onnx(p.op_type());
    const OpDef* op = p.domain() == kOnnxOpsDomain ? registry_.find_onnx(p.op_type()) : nullptr;
    return op && onnx_function(op->name) ? op : nullptr;
  }

  // An input ONNX leaves out can mean more than "not applied" (Clip's bounds are the dtype's
  // limits, so +inf clips to the largest float): once types are known, such attributes are set.
  void give_absent_inputs_their_onnx_meaning() {
    for (Node& n : out_.graph.nodes) {
      if (n.is_opaque() || n.inputs.empty() || n.inputs[0].empty()) continue;
      for (const auto& ai : registry_.get(n.op).onnx.attr_inputs)
        if (ai.onnx_absent && !n.attrs.count(ai.attr))
          if (auto v = ai.onnx_absent(out_.graph.type_of(n.inputs[0]).dtype)) n.attrs[ai.attr] = *v;
    }
  }

  void read_constant_node(const onnx::NodeProto& p) {
    if (p.output_size() != 1 || p.output(0).empty()) fail("a Constant node needs one output");
    if (p.attribute_size() != 1) fail("a Constant node needs exactly one value attribute");
    const auto& a = p.attribute(0);
    const std::string what = fmt::format("the value of constant '{}'", p.output(0));
    Tensor value;
    if (a.name() == "value") {
      value = tensor_from_proto(a.t(), what);
    } else if (a.name() == "value_float") {
      value = Tensor::scalar(DType::f32, a.f());
    } else if (a.name() == "value_int") {
      value = Tensor::from_ints(DType::i64, {}, {a.i()});
    } else if (a.name() == "value_floats") {
      value = Tensor::from_doubles(DType::f32, {a.floats_size()},
                                   std::vector<double>(a.floats().begin(), a.floats().end()));
    } else if (a.name() == "value_ints") {
      value = Tensor::from_ints(DType::i64, {a.ints_size()},
                                std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    } else {
      unsupported(fmt::format("Constant attribute '{}' is not supported", a.name()));
    }
    add_constant(p.output(0), std::move(value));
  }

  // An attribute of another type than the op's ONNX schema declares makes the model broken (the
  // ONNX checker rejects it): an error naming the node now, not an opaque node that fails later
  // for a reason that hides this one.
  void check_attribute_types(const onnx::NodeProto& p) const {
    const auto* schema = onnx::OpSchemaRegistry::Schema(p.op_type(), opsets_.at(""), "");
    if (!schema) return;
    for (const auto& a : p.attribute()) {
      auto declared = schema->attributes().find(a.name());
      if (declared == schema->attributes().end()) continue;
      if (attr_type(a) != onnx::AttributeProto::UNDEFINED && attr_type(a) != declared->second.type)
        fail("attribute '{}' is {}; ONNX's {} takes {}", a.name(), attr_type_label(attr_type(a)),
             p.op_type(), attr_type_label(declared->second.type));
    }
  }

  // Why p cannot become a node of op (empty when it can): an older definition of the op, or an
  // attribute, input or output the registry op does not model.
  std::string registry_form_problem(const OpDef& op, const onnx::NodeProto& p,
                                    const Node& node) const {
    const int version = opsets_.at("");
    const auto* model_def = onnx::OpSchemaRegistry::Schema(p.op_type(), version, "");
    const auto* mapped_def = onnx::OpSchemaRegistry::Schema(p.op_type(), op.onnx.since_opset, "");
    if (model_def && mapped_def && model_def->SinceVersion() < mapped_def->SinceVersion())
      return fmt::format("opset {} uses version {} of '{}'; Retort follows version {}", version,
                         model_def->SinceVersion(), p.op_type(), mapped_def->SinceVersion());
    // An op newer than libonnx's schemas (GroupNormalization-21, whose version 18 took scale and
    // b per group): a model of an older opset means another definition, or none.
    if (is_default_domain(p.domain()) && !mapped_def && version < op.onnx.since_opset)
      return fmt::format("opset {} predates version {} of '{}', which Retort follows", version,
                         op.onnx.since_opset, p.op_type());
    for (const auto& a : p.attribute()) {
      const AttrSpec* spec = op.find_attr(a.name());
      if (!spec || !spec->onnx) return fmt::format("attribute '{}' is not supported", a.name());
      if (!attr_as_kind(a, spec->kind))
        return fmt::format("attribute '{}' is {}, Retort expects {}", a.name(),
                           attr_type_label(attr_type(a)), attr_kind_name(spec->kind));
    }
    // The inputs up to the last one given, attribute inputs aside: an absent ("") input before an
    // attribute input (Resize's roi and scales before its sizes) is no input of the registry op.
    size_t n_inputs = 0, position = 0;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      bool attr_input =
          std::any_of(op.onnx.attr_inputs.begin(), op.onnx.attr_inputs.end(),
                      [&](const OnnxAttrInput& ai) { return ai.index == static_cast<int>(i); });
      if (attr_input) continue;
      ++position;
      if (!node.inputs[i].empty()) n_inputs = position;
    }
    if (op.max_inputs >= 0 && n_inputs > static_cast<size_t>(op.max_inputs))
      return fmt::format("{} inputs given; Retort's '{}' takes at most {}", n_inputs, op.name,
                         op.max_inputs);
    if (op.num_outputs >= 0 && node.outputs.size() > static_cast<size_t>(op.num_outputs))
      return fmt::format("{} outputs used; Retort's '{}' has {}", node.outputs.size(), op.name,
                         op.num_outputs);
    return "";
  }

  void to_registry_node(const OpDef& op, const onnx::NodeProto& p, Node& node) {
    node.op = op.name;
    for (const auto& a : p.attribute())
      node.attrs[a.name()] = *attr_as_kind(a, op.find_attr(a.name())->kind);

    std::set<size_t> folded;
    for (const auto& ai : op.onnx.attr_inputs) {
      if (ai.index < 0 || static_cast<size_t>(ai.index) >= node.inputs.size()) continue;
      const std::string& value = node.inputs[ai.index];
      folded.insert(ai.index);
      if (value.empty()) continue;
      const Tensor* t = constant_value(value);
      if (!t) t = fold(value);
      if (!t)
        unsupported(fmt::format(
            "input '{}' of node '{}' must be computable at import from constants and static "
            "shapes",
            ai.attr, node.name));
      if (node.attrs.count(ai.attr))
        fail("'{}' is given both as an attribute and as an input", ai.attr);
      const AttrSpec* spec = op.find_attr(ai.attr);
      node.attrs[ai.attr] = tensor_as_attr(*t, spec ? spec->kind : AttrKind::Ints,
                                           fmt::format("input '{}'", ai.attr));
      feeds_folding_.insert(value);
    }
    std::vector<std::string> inputs;
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (!folded.count(i)) inputs.push_back(node.inputs[i]);
    while (!inputs.empty() && inputs.back().empty()) inputs.pop_back();
    node.inputs = std::move(inputs);
    if (op.num_outputs > 0) node.outputs.resize(op.num_outputs);
  }

  // The value the folder computes for name, kept for later uses; nullptr when it cannot.
  const Tensor* fold(const std::string& name) {
    auto value = folder_.fold(name);
    if (!value) return nullptr;
    return &folded_.emplace(name, std::move(*value)).first->second;
  }

  // The value of a constant (initializer, Constant node, bound graph input, or an already folded
  // value), or nullptr.
  const Tensor* constant_value(const std::string& name) const {
    auto c = constants_.find(name);
    if (c != constants_.end()) return &out_.graph.constants[c->second].value;
    auto f = folded_.find(name);
    if (f != folded_.end()) return &f->second;
    if (out_.graph.find_input(name)) {
      auto v = options_.input_values.find(name);
      if (v != options_.input_values.end()) return &v->second;
    }
    return nullptr;
  }

  void to_opaque_node(const onnx::NodeProto& p, Node& node) {
    OpaqueInfo info;
    info.domain = is_default_domain(p.domain()) ? "" : p.domain();
    auto version = opsets_.find(info.domain);
    info.version = version == opsets_.end() ? 0 : version->second;
    for (const auto& a : p.attribute()) {
      auto value = plain_attr(a);
      if (!value)
        unsupported(
            fmt::format("attribute '{}' of op '{}' is {}; Retort keeps only numbers and strings",
                        a.name(), p.op_type(), attr_type_label(attr_type(a))));
      node.attrs[a.name()] = *value;
    }
    for (const auto& o : node.outputs)
      if (o.empty()) unsupported(fmt::format("op '{}' omits an output in the middle", p.op_type()));
    node.opaque = std::move(info);
  }

  // Nodes that only computed folded values disappear. Nodes are in ONNX (topological) order, so
  // walking backwards sees every reader of a value before its producer.
  void drop_folding_nodes() {
    std::map<std::string, int> reads;
    for (const auto& o : out_.graph.outputs) ++reads[o];
    for (const auto& n : out_.graph.nodes)
      for (const auto& in : n.inputs) ++reads[in];
    auto& nodes = out_.graph.nodes;
    std::vector<bool> dropped(nodes.size(), false);
    for (size_t k = nodes.size(); k-- > 0;) {
      const Node& n = nodes[k];
      bool feeds = false, read = false;
      for (const auto& o : n.outputs) {
        feeds = feeds || feeds_folding_.count(o);
        read = read || reads[o] > 0;
      }
      if (!feeds || read) continue;
      dropped[k] = true;
      for (const auto& in : n.inputs) {
        --reads[in];
        feeds_folding_.insert(in);
      }
    }
    size_t k = 0;
    nodes.erase(
        std::remove_if(nodes.begin(), nodes.end(), [&](const Node&) { return dropped[k++]; }),
        nodes.end());
  }

  // Constants and bound inputs that existed only to be folded into attributes disappear.
  void drop_folded_values() {
    std::set<std::string> read(out_.graph.outputs.begin(), out_.graph.outputs.end());
    for (const auto& n : out_.graph.nodes) read.insert(n.inputs.begin(), n.inputs.end());
    auto only_folded = [&](const std::string& name) {
      return feeds_folding_.count(name) && !read.count(name);
    };
    auto& cs = out_.graph.constants;
    cs.erase(std::remove_if(cs.begin(), cs.end(),
                            [&](const Constant& c) { return only_folded(c.name); }),
             cs.end());
    auto& ins = out_.graph.inputs;
    ins.erase(std::remove_if(ins.begin(), ins.end(),
                             [&](const ValueInfo& v) {
                               return only_folded(v.name) && options_.input_values.count(v.name);
                             }),
              ins.end());
  }

  // Registry ops with more outputs than the model names (an unused optional output) get fresh
  // names for the rest.
  void complete_outputs() {
    for (auto& n : out_.graph.nodes)
      for (size_t i = 0; i < n.outputs.size(); ++i)
        if (n.outputs[i].empty())
          n.outputs[i] = fresh_value_name(out_.graph, fmt::format("{}_out{}", n.name, i));
  }

  void type_opaque_outputs() {
    for (auto& n : out_.graph.nodes) {
      if (!n.is_opaque()) continue;
      try {
        for (const auto& o : n.outputs) n.opaque->output_types.push_back(opaque_output_type(o, n));
      } catch (const Error&) {
        rethrow_located("", n.name);
      }
    }
  }

  TensorType opaque_output_type(const std::string& value, const Node& n) {
    const std::string what = fmt::format("output '{}'", value);
    std::string problem = fmt::format("the model does not declare the type of {}", what);
    auto d = declared_.find(value);
    if (d != declared_.end())
      if (auto t = static_type(*d->second, what, &problem)) return *t;
    const auto& inferred = inferred_types();
    auto i = inferred.find(value);
    if (i != inferred.end()) {
      std::string inferred_problem;
      if (auto t = static_type(i->second, what, &inferred_problem)) return *t;
    }
    unsupported(fmt::format("Retort cannot type op '{}' ({}, and {})", n.op, problem,
                            inference_problem_.empty()
                                ? "ONNX shape inference does not know it either"
                                : inference_problem_));
  }

  // ONNX's own shape inference over the model, run once and only when an opaque op needs it. It
  // runs in a child process: libonnx's inference trusts the model (1.12's Conv inference reads
  // out of bounds on a rank-3 input with a rank-4 weight), and a file must not crash Retort.
  const std::map<std::string, onnx::TypeProto>& inferred_types() {
    if (inferred_) return *inferred_;
    inferred_.emplace();
    onnx::GraphProto typed;
    try {
      std::string bytes = call_in_child("ONNX shape inference", [this] {
        onnx::ModelProto copy = model_;
        try {
          onnx::shape_inference::InferShapes(copy);
        } catch (const std::exception&) {
          // Partial results stay in copy; what is typed is still usable.
        }
        onnx::GraphProto types;
        *types.mutable_value_info() = copy.graph().value_info();
        *types.mutable_output() = copy.graph().output();
        return types.SerializeAsString();
      });
      if (!typed.ParseFromString(bytes)) fail("ONNX shape inference answered garbage");
    } catch (const Error& e) {
      inference_problem_ = e.message();
      return *inferred_;
    }
    for (const auto& v : typed.value_info()) (*inferred_)[v.name()] = v.type();
    for (const auto& v : typed.output()) (*inferred_)[v.name()] = v.type();
    return *inferred_;
  }

  // A registry op whose inference disagrees with the model's declared output type is a bug in
  // the op or in the model; say so here rather than as a wrong value later.
  void check_declared_outputs() const {
    for (const auto& o : graph_.output()) {
      std::string problem;
      std::optional<TensorType> declared;
      try {
        declared = static_type(o.type(), fmt::format("output '{}'", o.name()), &problem);
      } catch (const OnnxUnsupported&) {
        continue;
      }
      if (!declared) continue;
      const Node* producer = out_.graph.producer(o.name());
      if (!producer || producer->is_opaque()) continue;
      const TensorType& inferred = out_.graph.type_of(o.name());
      if (inferred != *declared)
        throw Error(fmt::format("output '{}' is declared {} but Retort infers {}", o.name(),
                                declared->str(), inferred.str()),
                    {}, producer->name);
    }
  }

  const OpRegistry& registry_ = OpRegistry::instance();
  const onnx::ModelProto& model_;
  const onnx::GraphProto& graph_;
  const OnnxImportOptions& options_;
  std::map<std::string, int> opsets_;  // domain ("" for ONNX's own) -> version
  std::map<std::string, const onnx::TypeProto*> declared_;
  std::map<std::string, size_t> constants_;  // name -> index in out_.graph.constants
  std::vector<std::string> node_names_;      // per ONNX node
  std::set<std::string> feeds_folding_;      // values read only to compute folded attributes
  std::map<std::string, Tensor> folded_;     // values computed at import
  std::optional<std::map<std::string, onnx::TypeProto>> inferred_;
  std::string inference_problem_;  // why ONNX shape inference gave nothing, when it failed
  OnnxImport out_;
  ImportFolder folder_;
};

}  // namespace

OnnxImport import_onnx_model(const std::string& bytes, const std::string& file,
                             const OnnxImportOptions& options) {
  try {
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes)) fail("not an ONNX model (truncated or not protobuf)");
    if (!model.has_graph()) fail("the ONNX model has no graph");
    return Importer(model, options).run();
  } catch (const Error&) {
    rethrow_located(file);
  }
}

std::vector<std::string> onnx_graph_input_names(const std::string& bytes, const std::string& file) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes) || !model.has_graph())
    throw Error("not an ONNX model (truncated or not protobuf)", SourceLoc{file});
  std::set<std::string> initializers;
  for (const auto& init : model.graph().initializer()) initializers.insert(init.name());
  std::vector<std::string> names;
  try {
    for (const auto& in : model.graph().input()) {
      if (initializers.count(in.name())) continue;
      require_representable(in.type(), fmt::format("input '{}'", in.name()));
      names.push_back(in.name());
    }
    for (const auto& out : model.graph().output())
      require_representable(out.type(), fmt::format("output '{}'", out.name()));
  } catch (const Error&) {
    rethrow_located(file);
  }
  return names;
}

Graph import_onnx(const std::string& bytes, const std::string& file) {
  return import_onnx_model(bytes, file).graph;
}

Graph import_onnx_file(const std::string& path) {
  return import_onnx(read_file(path), path);
}

}  // namespace retort
