// Graph -> ONNX ModelProto. Registry nodes are written from their OnnxMapping: attributes that
// ONNX passes as inputs become fresh initializers in the form the mapping names.
#include <algorithm>
#include <set>
#include <type_traits>
#include <variant>

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include "core/graph/graph_dot.h"
#include "core/io/onnx_io.h"
#include "core/io/onnx_proto.h"
#include "core/ops/onnx_function.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

void set_type(const TensorType& t, onnx::TypeProto& proto) {
  auto* tt = proto.mutable_tensor_type();
  tt->set_elem_type(onnx_dtype_code(t.dtype));
  auto* shape = tt->mutable_shape();
  for (int64_t d : t.shape) shape->add_dim()->set_dim_value(d);
}

void add_value_info(const std::string& name, const TensorType& t,
                    google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& list) {
  auto* v = list.Add();
  v->set_name(name);
  set_type(t, *v->mutable_type());
}

void set_plain_attr(const std::string& name, const AttrValue& value, onnx::AttributeProto& a) {
  using A = onnx::AttributeProto;
  a.set_name(name);
  struct Writer {
    A& a;
    void operator()(int64_t i) const {
      a.set_type(A::INT);
      a.set_i(i);
    }
    void operator()(double d) const {
      a.set_type(A::FLOAT);
      a.set_f(static_cast<float>(d));
    }
    void operator()(const std::string& s) const {
      a.set_type(A::STRING);
      a.set_s(s);
    }
    void operator()(const std::vector<int64_t>& v) const {
      a.set_type(A::INTS);
      for (int64_t i : v) a.add_ints(i);
    }
    void operator()(const std::vector<double>& v) const {
      a.set_type(A::FLOATS);
      for (double d : v) a.add_floats(static_cast<float>(d));
    }
    void operator()(const std::vector<std::string>& v) const {
      a.set_type(A::STRINGS);
      for (const auto& s : v) a.add_strings(s);
    }
  };
  std::visit(Writer{a}, value);
}

// An attribute that ONNX takes as an input, as the tensor its mapping form calls for.
Tensor attr_input_tensor(const AttrValue& value, OnnxAttrInput::Form form, DType input0) {
  if (form == OnnxAttrInput::Form::ScalarOfInput0) {
    if (const auto* i = std::get_if<int64_t>(&value)) return Tensor::from_ints(input0, {}, {*i});
    if (const auto* d = std::get_if<double>(&value)) return Tensor::scalar(input0, *d);
    fail("attribute {} cannot be a scalar input", attr_value_str(value));
  }
  if (form == OnnxAttrInput::Form::I64Scalar) {
    if (const auto* i = std::get_if<int64_t>(&value))
      return Tensor::from_ints(DType::i64, {}, {*i});
    fail("attribute {} cannot be an integer scalar input", attr_value_str(value));
  }
  if (const auto* i = std::get_if<int64_t>(&value)) return Tensor::from_ints(DType::i64, {1}, {*i});
  if (const auto* v = std::get_if<std::vector<int64_t>>(&value))
    return Tensor::from_ints(DType::i64, {static_cast<int64_t>(v->size())}, *v);
  if (const auto* d = std::get_if<double>(&value))
    return Tensor::from_doubles(DType::f32, {1}, {*d});
  if (const auto* v = std::get_if<std::vector<double>>(&value))
    return Tensor::from_doubles(DType::f32, {static_cast<int64_t>(v->size())}, *v);
  fail("attribute {} cannot be a list input", attr_value_str(value));
}

class Exporter {
 public:
  explicit Exporter(Graph g) : g_(std::move(g)) {
    for (const auto& i : g_.inputs) used_.insert(i.name);
    for (const auto& c : g_.constants) used_.insert(c.name);
    for (const auto& n : g_.nodes) used_.insert(n.outputs.begin(), n.outputs.end());
  }

  onnx::ModelProto run() {
    onnx::ModelProto model;
    model.set_ir_version(kOnnxExportIrVersion);
    model.set_producer_name("retort");
    opsets_[""] = kOnnxExportOpset;
    auto* gp = model.mutable_graph();
    gp->set_name(g_.name.empty() ? "main" : g_.name);
    for (const auto& i : g_.inputs) add_value_info(i.name, i.type, *gp->mutable_input());
    for (const auto& c : g_.constants) tensor_to_proto(c.value, c.name, *gp->add_initializer());
    std::vector<Node> top = g_.calls.empty() ? g_.nodes : folded_nodes();
    for (const auto& n : top) {
      try {
        write_node(n, *gp);
      } catch (const Error& e) {
        throw e.at_node(node_title(n));
      }
    }
    std::set<std::string> outputs(g_.outputs.begin(), g_.outputs.end());
    for (const auto& o : g_.outputs) add_value_info(o, g_.type_of(o), *gp->mutable_output());
    for (const auto& n : top)
      for (const auto& o : n.outputs)
        if (!outputs.count(o)) add_value_info(o, g_.type_of(o), *gp->mutable_value_info());
    write_functions(model);
    write_op_functions(model);
    for (const auto& [domain, version] : opsets_) {
      auto* os = model.add_opset_import();
      os->set_domain(domain);
      os->set_version(version);
    }
    return model;
  }

 private:
  void write_node(const Node& n, onnx::GraphProto& gp) {
    auto* np = gp.add_node();
    np->set_name(n.name);
    for (const auto& o : n.outputs) np->add_output(o);
    if (n.is_opaque()) return write_opaque(n, *np);
    const OpDef& op = registry_.get(n.op);
    if (op.onnx.op_type.empty()) fail("op '{}' has no ONNX form", op.name);
    np->set_op_type(op.onnx.op_type);
    if (onnx_function(op.name)) return write_function_call(n, op, *np);
    if (op.onnx.since_opset > kOnnxExportOpset)
      fail("op '{}' follows ONNX opset {}, above the exported opset {}", op.name,
           op.onnx.since_opset, kOnnxExportOpset);

    std::map<int, const OnnxAttrInput*> attr_at;
    int last_attr = -1;
    for (const auto& ai : op.onnx.attr_inputs) {
      attr_at[ai.index] = &ai;
      last_attr = std::max(last_attr, ai.index);
    }
    std::vector<std::string> inputs;
    size_t next = 0;
    for (int pos = 0; next < n.inputs.size() || pos <= last_attr; ++pos) {
      auto ai = attr_at.find(pos);
      if (ai == attr_at.end()) {
        inputs.push_back(next < n.inputs.size() ? n.inputs[next++] : "");
        continue;
      }
      const OnnxAttrInput& spec = *ai->second;
      auto value = n.attrs.find(spec.attr);
      if (value == n.attrs.end() && !spec.to_onnx) {
        inputs.push_back("");
        continue;
      }
      DType input0 =
          n.inputs.empty() || n.inputs[0].empty() ? DType::f32 : g_.type_of(n.inputs[0]).dtype;
      std::string name = fresh_name(fmt::format("{}_{}", n.name, spec.attr));
      tensor_to_proto(spec.to_onnx ? spec.to_onnx(n.attrs, input0)
                                   : attr_input_tensor(value->second, spec.form, input0),
                      name, *gp.add_initializer());
      inputs.push_back(name);
    }
    while (!inputs.empty() && inputs.back().empty()) inputs.pop_back();
    for (const auto& i : inputs) np->add_input(i);

    for (const auto& [name, value] : n.attrs) {
      const AttrSpec* spec = op.find_attr(name);
      if (!spec || !spec->onnx || is_attr_input(op, name)) continue;
      // ONNX cannot carry an empty list attribute (the checker wants its field filled); the
      // absent attribute means the same for every op here (transpose of a scalar: perm = []).
      if (empty_list(value)) continue;
      if (name == "pads" && sets_auto_pad(n.attrs)) continue;
      auto* a = np->add_attribute();
      if (spec->kind == AttrKind::DType) {
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(onnx_dtype_code(attr_dtype(n.attrs, name)));
      } else {
        set_plain_attr(name, attr_coerce(value, spec->kind), *a);
      }
    }
  }

  // A call of the op's function (core/ops/onnx_function.h) with every ONNX attribute stated: the
  // body's references to an attribute the call leaves out would leave its nodes incomplete.
  void write_function_call(const Node& n, const OpDef& op, onnx::NodeProto& np) {
    np.set_domain(std::string(kOnnxOpsDomain));
    for (const auto& i : n.inputs) np.add_input(i);
    for (const AttrSpec& spec : op.attrs) {
      if (!spec.onnx) continue;
      auto value = n.attrs.find(spec.name);
      if (value == n.attrs.end() && !spec.default_value) continue;
      set_plain_attr(
          spec.name,
          attr_coerce(value == n.attrs.end() ? *spec.default_value : value->second, spec.kind),
          *np.add_attribute());
    }
    opsets_[std::string(kOnnxOpsDomain)] = 1;
    called_ops_.insert(op.name);
  }

  // One FunctionProto per op whose function a node called.
  void write_op_functions(onnx::ModelProto& model) {
    for (const std::string& name : called_ops_) {
      const OpDef& op = registry_.get(name);
      const OnnxFunction& function = *onnx_function(name);
      auto* fp = model.add_functions();
      fp->set_name(op.onnx.op_type);
      fp->set_domain(std::string(kOnnxOpsDomain));
      auto* os = fp->add_opset_import();
      os->set_domain("");
      os->set_version(kOnnxExportOpset);
      for (const auto& i : op.input_names) fp->add_input(i);
      for (const auto& o : function.outputs) fp->add_output(o);
      for (const AttrSpec& spec : op.attrs)
        if (spec.onnx) fp->add_attribute(spec.name);
      for (const OnnxBodyNode& b : function.nodes) {
        auto* np = fp->add_node();
        np->set_op_type(b.op_type);
        for (const auto& i : b.inputs) np->add_input(i);
        for (const auto& o : b.outputs) np->add_output(o);
        for (const auto& [attr, value] : b.attrs) set_plain_attr(attr, value, *np->add_attribute());
        for (const auto& [attr, from] : b.refs) {
          auto* a = np->add_attribute();
          a->set_name(attr);
          a->set_ref_attr_name(from);
          a->set_type(op.find_attr(from)->kind == AttrKind::Float ? onnx::AttributeProto::FLOAT
                                                                  : onnx::AttributeProto::INT);
        }
      }
    }
  }

  static bool empty_list(const AttrValue& v) {
    return std::visit(
        [](const auto& x) {
          if constexpr (requires { x.empty(); } &&
                        !std::is_same_v<std::decay_t<decltype(x)>, std::string>)
            return x.empty();
          else
            return false;
        },
        v);
  }

  // ONNX forbids pads beside an auto_pad other than NOTSET; the reference reads all-zero pads
  // there as none (and rejects others), so they are left out.
  static bool sets_auto_pad(const Attrs& attrs) {
    auto it = attrs.find("auto_pad");
    const auto* mode = it == attrs.end() ? nullptr : std::get_if<std::string>(&it->second);
    return mode && *mode != "NOTSET";
  }

  static bool is_attr_input(const OpDef& op, const std::string& attr) {
    for (const auto& ai : op.onnx.attr_inputs)
      if (ai.attr == attr) return true;
    return false;
  }

  void write_opaque(const Node& n, onnx::NodeProto& np) {
    const OpaqueInfo& info = *n.opaque;
    np.set_op_type(n.op);
    np.set_domain(info.domain);
    for (const auto& i : n.inputs) np.add_input(i);
    for (const auto& [name, value] : n.attrs) set_plain_attr(name, value, *np.add_attribute());
    if (info.domain.empty()) {
      // The model speaks one opset per domain; an op whose definition changed since the opset it
      // came from would silently change meaning.
      const auto* then =
          info.version ? onnx::OpSchemaRegistry::Schema(n.op, info.version, "") : nullptr;
      const auto* now = onnx::OpSchemaRegistry::Schema(n.op, kOnnxExportOpset, "");
      if (then && now && then->SinceVersion() != now->SinceVersion())
        fail("op '{}' comes from opset {} and changed by opset {}; it cannot be exported", n.op,
             info.version, kOnnxExportOpset);
      return;
    }
    int version = info.version > 0 ? info.version : 1;
    auto [it, added] = opsets_.emplace(info.domain, version);
    if (!added && it->second != version)
      fail("domain '{}' is used at opset versions {} and {}", info.domain, it->second, version);
  }

  // The top-level nodes with each call in place of the nodes it covers: a node of the function
  // domain whose op_type is the called function (topologically ordered again).
  std::vector<Node> folded_nodes() {
    Graph folded = g_;
    inline_functions(folded);
    std::set<std::string> covered;
    std::vector<Node> calls;
    for (const Call& c : g_.calls) {
      covered.insert(c.nodes.begin(), c.nodes.end());
      CallInterface io = call_interface(g_, c);
      OpaqueInfo info{std::string(kOnnxFunctionDomain), 1, {}};
      for (const auto& r : io.results) info.output_types.push_back(g_.type_of(r));
      calls.push_back(Node{
          fresh_name("call_" + c.function), c.function, io.args, io.results, {}, std::move(info)});
    }
    std::erase_if(folded.nodes, [&](const Node& n) { return covered.count(n.name) > 0; });
    folded.nodes.insert(folded.nodes.end(), calls.begin(), calls.end());
    infer_graph(folded);  // orders the calls among the other nodes
    return folded.nodes;
  }

  // One FunctionProto per function a call reaches: a body holds the nodes of its first call
  // (attribute inputs as Constant nodes, since a function sees no initializers); a wrapper holds
  // one call of its target, its form in doc_string ("retort:closure") for workers that write
  // programs (docs/backend-protocol.md).
  void write_functions(onnx::ModelProto& model) {
    std::map<std::string, const Call*> first_call;  // body -> its first call
    for (const Call& c : g_.calls) first_call.emplace(body_function(g_, c.function).name, &c);
    for (const Function& f : g_.functions) {
      auto site = first_call.find(body_function(g_, f.name).name);
      if (site == first_call.end()) continue;
      CallInterface io = call_interface(g_, *site->second);
      auto* fp = model.add_functions();
      fp->set_name(f.name);
      fp->set_domain(std::string(kOnnxFunctionDomain));
      auto* os = fp->add_opset_import();
      os->set_domain("");
      os->set_version(kOnnxExportOpset);
      if (f.form == FunctionForm::Body) {
        write_body(*site->second, io, *fp);
        continue;
      }
      fp->set_doc_string(fmt::format("retort:{}", function_form_name(f.form)));
      auto* fos = fp->add_opset_import();
      fos->set_domain(std::string(kOnnxFunctionDomain));
      fos->set_version(1);
      auto* np = fp->add_node();
      np->set_op_type(f.target);
      np->set_domain(std::string(kOnnxFunctionDomain));
      for (size_t k = 0; k < io.args.size(); ++k) {
        fp->add_input(fmt::format("p{}", k));
        np->add_input(fmt::format("p{}", k));
      }
      for (size_t k = 0; k < io.results.size(); ++k) {
        fp->add_output(fmt::format("r{}", k));
        np->add_output(fmt::format("r{}", k));
      }
    }
  }

  void write_body(const Call& call, const CallInterface& io, onnx::FunctionProto& fp) {
    for (const auto& a : io.args) fp.add_input(a);
    for (const auto& r : io.results) fp.add_output(r);
    std::set<std::string> members(call.nodes.begin(), call.nodes.end());
    onnx::GraphProto scratch;
    for (const Node& n : g_.nodes) {
      if (!members.count(n.name)) continue;
      try {
        write_node(n, scratch);
      } catch (const Error& e) {
        throw e.at_node(node_title(n));
      }
    }
    for (const auto& init : scratch.initializer()) {
      auto* c = fp.add_node();
      c->set_op_type("Constant");
      c->add_output(init.name());
      auto* a = c->add_attribute();
      a->set_name("value");
      a->set_type(onnx::AttributeProto::TENSOR);
      *a->mutable_t() = init;
    }
    bool calls_op_function = false;
    for (const auto& n : scratch.node()) {
      *fp.add_node() = n;
      calls_op_function = calls_op_function || n.domain() == kOnnxOpsDomain;
    }
    if (calls_op_function) {  // a body with a group_norm imports the domain of its function
      auto* os = fp.add_opset_import();
      os->set_domain(std::string(kOnnxOpsDomain));
      os->set_version(1);
    }
  }

  std::string fresh_name(const std::string& stem) {
    std::string name = stem;
    for (int k = 1; used_.count(name); ++k) name = fmt::format("{}_{}", stem, k);
    used_.insert(name);
    return name;
  }

  const OpRegistry& registry_ = OpRegistry::instance();
  Graph g_;
  std::set<std::string> used_;
  std::map<std::string, int> opsets_;
  std::set<std::string> called_ops_;  // ops whose function a node calls
};

}  // namespace

std::string export_onnx(const Graph& graph) {
  Graph g = graph;
  infer_graph(g);  // validates, orders nodes topologically and types every value
  bool all_registry =
      std::none_of(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return n.is_opaque(); });
  onnx::ModelProto model = Exporter(std::move(g)).run();
  try {
    onnx::checker::check_model(model);
    // The checker's full check (onnx.checker.check_model(m, full_check=True)): ONNX's shape
    // inference, strict and with type checks, must agree with every declared type. Opaque nodes
    // came from a file: libonnx's inference trusts a model and may read out of bounds there
    // (onnx_import.cpp runs it in a child process), so only the plain check applies to them.
    if (all_registry) {
      onnx::ModelProto copy = model;
      onnx::ShapeInferenceOptions strict{/*check_type=*/true, /*error_mode=*/1,
                                         /*enable_data_propagation=*/false};
      onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), strict);
    }
  } catch (const std::exception& e) {
    fail("the exported model fails the ONNX checker: {}", e.what());
  }
  return model.SerializeAsString();
}

std::string export_onnx_unchecked(const Graph& g) {
  return Exporter(g).run().SerializeAsString();
}

}  // namespace retort
