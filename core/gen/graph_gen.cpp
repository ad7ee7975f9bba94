#include "core/gen/graph_gen.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/gen/attr_choice.h"
#include "core/ops/einsum.h"
#include "core/io/onnx_io.h"
#include "core/ops/registry.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

// Node attempts allowed per wanted node before the options are declared unsatisfiable.
constexpr int kAttemptsPerNode = 400;

// The vector class's last dimensions: at and just past the widths of 128- to 512-bit vectors of
// 8- to 64-bit lanes.
constexpr int64_t kVectorLengths[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
// The large class's long dimension: powers of two where libraries switch (16385 is jax#39103's)
// and their neighbours, or any length between.
constexpr int64_t kLargeLengths[] = {16384, 16385, 32767, 32768, 32769, 65535, 65536};
// Products an einsum of a shape-class graph may sum: its loop runs over every label, so two
// operands within the element budget with disjoint labels would take 2^34 steps.
constexpr int64_t kMaxEinsumSteps = int64_t{1} << 24;

struct Value {
  std::string name;
  TensorType type;
  // The domain a leaf's values were drawn for; node results are Any (nothing is known).
  ValueDomain domain = ValueDomain::Any;
  bool is_leaf = false;
  int uses = 0;
};

// A leaf created while trying a node; it joins the graph only if the node is kept.
struct PendingLeaf {
  Value value;
  std::optional<Tensor> constant;
};

class Generator {
 public:
  Generator(const GenOptions& options, uint64_t seed)
      : opt_(options), rng_(seed), class_(graph_shape_class(options, seed)) {
    validate();
    const OpRegistry& reg = OpRegistry::instance();
    if (opt_.ops.empty())
      ops_ = reg.all();
    else
      for (const auto& name : opt_.ops) ops_.push_back(&reg.get(name));
    std::erase_if(ops_, [&](const OpDef* op) {
      auto it = opt_.op_dtypes.find(op->name);
      return it != opt_.op_dtypes.end() && it->second.empty();
    });
    if (ops_.empty()) fail("the generator has no op to draw (none is supported with these dtypes)");
  }

  Graph run() {
    int want = static_cast<int>(rng_.uniform_int(opt_.min_nodes, opt_.max_nodes));
    long attempts = 0, budget = static_cast<long>(kAttemptsPerNode) * std::max(want, 1);
    while (static_cast<int>(g_.nodes.size()) < want) {
      if (++attempts > budget)
        fail(
            "the generator could type only {} of {} nodes with these options (ops and dtypes "
            "too narrow?)",
            g_.nodes.size(), want);
      try_node();
    }
    for (const Value& v : values_)
      if (v.uses == 0 && !v.is_leaf) g_.outputs.push_back(v.name);
    infer_graph(g_);
    return std::move(g_);
  }

 private:
  void validate() const {
    if (opt_.min_nodes < 0 || opt_.max_nodes < opt_.min_nodes)
      fail("generator node bounds [{}, {}] are empty", opt_.min_nodes, opt_.max_nodes);
    if (opt_.dtypes.empty()) fail("the generator needs at least one dtype");
    if (opt_.max_rank < 0 || opt_.max_rank > static_cast<int>(kMaxRank))
      fail("generator max_rank {} is outside [0, {}]", opt_.max_rank, kMaxRank);
    if (opt_.max_dim < 1) fail("generator max_dim {} must be at least 1", opt_.max_dim);
    if (opt_.const_prob < 0 || opt_.const_prob > 1)
      fail("generator const_prob {} is outside [0, 1]", opt_.const_prob);
    if (!(opt_.shape_classes >= 0 && opt_.shape_classes <= 1))
      fail("generator shape_classes {} is outside [0, 1]", opt_.shape_classes);
  }

  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(rng_.uniform_int(0, static_cast<int64_t>(v.size()) - 1))];
  }

  bool dtype_allowed(DType t) const {
    return std::find(opt_.dtypes.begin(), opt_.dtypes.end(), t) != opt_.dtypes.end();
  }

  bool first_operand_allowed(const OpDef& op, const std::vector<TensorType>& types) const {
    auto it = opt_.op_dtypes.find(op.name);
    return it == opt_.op_dtypes.end() || types.empty() || it->second.count(types[0].dtype) > 0;
  }

  int64_t max_numel() const {
    if (class_ != ShapeClass::Plain) return kShapeClassElements;
    double n = std::pow(static_cast<double>(opt_.max_dim), opt_.max_rank);
    return static_cast<int64_t>(std::clamp(n, 64.0, 1e5));
  }

  // The largest dimension of a leaf: max_dim, or the longest its shape class draws.
  int64_t max_leaf_dim() const {
    if (class_ == ShapeClass::Vector) return std::max(opt_.max_dim, std::end(kVectorLengths)[-1]);
    if (class_ == ShapeClass::Large) return std::end(kLargeLengths)[-1];
    return opt_.max_dim;
  }

  // Inputs and constants stay within max_rank and max_dim (a shape class's dimensions and
  // element budget) even when proposed from larger results.
  bool leaf_fits(const TensorType& t) const {
    if (static_cast<int>(t.shape.size()) > opt_.max_rank) return false;
    if (class_ != ShapeClass::Plain && numel(t.shape) > max_numel()) return false;
    return std::all_of(t.shape.begin(), t.shape.end(),
                       [&](int64_t d) { return d <= max_leaf_dim(); });
  }

  // A shape of the graph's class (rank 1 at least, but for unit).
  Shape class_shape() {
    Shape s;
    int64_t lowest_rank = class_ == ShapeClass::Unit || opt_.max_rank == 0 ? 0 : 1;
    for (int64_t r = rng_.uniform_int(lowest_rank, opt_.max_rank); r > 0; --r)
      s.push_back(rng_.uniform_int(1, opt_.max_dim));
    if (s.empty()) return s;
    size_t at = rng_.below(s.size());
    switch (class_) {
      case ShapeClass::Vector:
        s.back() = pick_from(rng_, kVectorLengths);
        break;
      case ShapeClass::Empty:
        s[at] = 0;
        break;
      case ShapeClass::Unit:
        for (int64_t& d : s)
          if (rng_.coin(0.6)) d = 1;
        break;
      case ShapeClass::Large:
        s[at] = rng_.coin() ? pick_from(rng_, kLargeLengths)
                            : rng_.uniform_int(kLargeLengths[0], std::end(kLargeLengths)[-1]);
        for (size_t i = 0; i < s.size() && numel(s) > kShapeClassElements; ++i)
          if (i != at) s[i] = 1;
        break;
      case ShapeClass::Plain:
        break;
    }
    return s;
  }

  // Whether the node's reference loop stays short: an einsum's runs over every label.
  bool short_enough(const OpDef& op, const std::vector<TensorType>& types, const Attrs& attrs) {
    if (class_ == ShapeClass::Plain || op.name != "einsum") return true;
    std::vector<Shape> shapes;
    for (const TensorType& t : types) shapes.push_back(t.shape);
    EinsumPlan plan = plan_einsum(attr_string(attrs, "equation"), shapes);
    return static_cast<double>(numel(plan.out_shape)) *
               static_cast<double>(numel(plan.sum_shape)) <=
           static_cast<double>(kMaxEinsumSteps);
  }

  // Whether every index input has an axis to index: along an extent of 0 only an empty indices
  // tensor is valid (a gather in a graph of the empty class).
  bool indexable(const OpDef& op, const std::vector<TensorType>& types, const Attrs& attrs) const {
    if (class_ != ShapeClass::Empty) return true;
    for (size_t i = 0; i < types.size(); ++i) {
      InputDomain d = op.domain_of_input(i, types, attrs);
      if (d.kind == ValueDomain::AxisIndex && d.axis_size == 0 && numel(types[i].shape) > 0)
        return false;
    }
    return true;
  }

  TensorType random_type() {
    if (class_ != ShapeClass::Plain) return {pick(opt_.dtypes), class_shape()};
    Shape s;
    for (int64_t r = rng_.uniform_int(0, opt_.max_rank); r > 0; --r)
      s.push_back(rng_.uniform_int(1, opt_.max_dim));
    return {pick(opt_.dtypes), s};
  }

  // A leaf drawn for `domain` serves only readers that need nothing or exactly that domain, so
  // the input generator never meets two conflicting needs on one input.
  static bool usable(const Value& v, ValueDomain need) {
    return need == ValueDomain::Any || (v.is_leaf && v.domain == need);
  }

  // Generic operand proposals for a later slot, derived from the operands chosen before it:
  // the same types, broadcast-compatible shapes, swapped matrix dims, a per-channel vector.
  TensorType propose_type(const std::vector<TensorType>& chosen) {
    const TensorType& first = chosen[0];
    Shape s = first.shape;
    switch (rng_.uniform_int(0, 9)) {
      case 0:
      case 1:
      case 2:
        return chosen.back();
      case 3:
      case 4:
        return pick(chosen);
      case 5: {
        Shape b(s.begin() + rng_.uniform_int(0, static_cast<int64_t>(s.size())), s.end());
        for (int64_t& d : b)
          if (rng_.coin(0.3)) d = 1;
        return {first.dtype, b};
      }
      case 6:
        if (s.size() >= 2) std::swap(s[s.size() - 1], s[s.size() - 2]);
        if (s.size() >= 2 && rng_.coin(0.5)) s.back() = rng_.uniform_int(1, opt_.max_dim);
        return {first.dtype, s};
      case 7:
        if (s.size() >= 2) return {first.dtype, {rng_.coin(0.5) ? s[1] : s.back()}};
        return {first.dtype, s};
      case 8:
        return {pick(opt_.dtypes), s};
      default:
        return random_type();
    }
  }

  PendingLeaf new_leaf(const TensorType& type, ValueDomain domain, std::optional<Tensor> values) {
    PendingLeaf leaf;
    leaf.value.type = type;
    leaf.value.domain = domain;
    leaf.value.is_leaf = true;
    bool as_input =
        !values && inputs_made_ + pending_inputs_ < opt_.max_inputs && !rng_.coin(opt_.const_prob);
    if (as_input) {
      leaf.value.name = fmt::format("x{}", inputs_made_ + pending_inputs_++);
    } else {
      leaf.value.name = fmt::format("c{}", consts_made_ + pending_consts_++);
      leaf.constant = values ? std::move(*values) : random_tensor(type, rng_, domain);
    }
    return leaf;
  }

  // An existing value of this exact type that the slot may read, or -1.
  int reuse(const TensorType& type, ValueDomain need) {
    std::vector<int> fits;
    for (size_t i = 0; i < values_.size(); ++i)
      if (values_[i].type == type && usable(values_[i], need)) fits.push_back(static_cast<int>(i));
    return fits.empty() ? -1 : pick(fits);
  }

  // The first operand: mostly an existing value, preferring ones nobody reads yet, so the graph
  // grows as connected chains with few outputs.
  int first_operand(ValueDomain need) {
    std::vector<int> fits, unread;
    for (size_t i = 0; i < values_.size(); ++i) {
      if (!usable(values_[i], need)) continue;
      fits.push_back(static_cast<int>(i));
      if (values_[i].uses == 0) unread.push_back(static_cast<int>(i));
    }
    if (fits.empty() || rng_.coin(0.1)) return -1;
    return !unread.empty() && rng_.coin(0.7) ? pick(unread) : pick(fits);
  }

  void try_node() {
    const OpDef& op = *pick(ops_);
    pending_inputs_ = pending_consts_ = 0;
    int n_in = op.max_inputs < 0
                   ? static_cast<int>(rng_.uniform_int(op.min_inputs, op.min_inputs + 2))
                   : static_cast<int>(rng_.uniform_int(op.min_inputs, op.max_inputs));
    size_t n_out = op.num_outputs < 0 ? static_cast<size_t>(rng_.uniform_int(2, 3))
                                      : static_cast<size_t>(op.num_outputs);

    std::vector<TensorType> types;
    std::vector<int> picked;  // index into values_, or -1 - index into leaves
    std::vector<PendingLeaf> leaves;
    bool leaf_too_big = false;
    auto take_leaf = [&](PendingLeaf leaf) {
      leaf_too_big |= !leaf_fits(leaf.value.type);
      types.push_back(leaf.value.type);
      picked.push_back(-1 - static_cast<int>(leaves.size()));
      leaves.push_back(std::move(leaf));
    };
    for (int slot = 0; slot < n_in; ++slot) {
      ValueDomain need = op.domain_of_input(slot);
      // A cast may read any computed value: where one leaves its target's range, the undefined
      // check says so, and leaves draw inside it (generate_inputs). So may sin or fmod, whose
      // bounds no plain draw reaches.
      if (need == ValueDomain::IntegerTarget || drawn_as_any(need)) need = ValueDomain::Any;
      NodeContext ctx{op, types, n_out, opt_};
      if (auto values = structured_operand_value(ctx, slot, rng_)) {
        TensorType t = values->type();
        take_leaf(new_leaf(t, need, std::move(values)));
        continue;
      }
      int existing = -1;
      TensorType type;
      if (slot == 0) {
        existing = first_operand(need);
        type = existing >= 0 ? values_[existing].type : random_type();
      } else {
        auto structured = structured_operand_type(ctx, slot, rng_);
        type = structured ? *structured : propose_type(types);
        if (rng_.coin(0.6)) existing = reuse(type, need);
      }
      if (!dtype_allowed(type.dtype)) return;
      if (existing >= 0) {
        types.push_back(type);
        picked.push_back(existing);
      } else {
        take_leaf(new_leaf(type, need, std::nullopt));
      }
    }

    if (leaf_too_big || !first_operand_allowed(op, types)) return;
    NodeContext ctx{op, types, n_out, opt_};
    Attrs attrs = choose_attrs(ctx, rng_);
    std::vector<TensorType> outs;
    try {
      attrs = OpRegistry::instance().normalize_attrs(op, attrs);
      outs = op.infer(types, attrs, n_out);
    } catch (const Error&) {
      return;  // ill-typed: inference is the judge
    }
    if (!onnx_takes_bf16(op, types, outs)) return;  // every backend runs the ONNX export
    for (const TensorType& t : outs)
      if (!dtype_allowed(t.dtype) || static_cast<int>(t.shape.size()) > opt_.max_rank ||
          numel(t.shape) < (class_ == ShapeClass::Empty ? 0 : 1) || numel(t.shape) > max_numel())
        return;
    if (!short_enough(op, types, attrs) || !indexable(op, types, attrs)) return;
    if (avoided(op, attrs, types, picked) && !rng_.coin(opt_.avoid_keep)) return;
    keep(op, std::move(attrs), picked, std::move(leaves), outs);
  }

  // Whether the node would match a pattern of GenOptions::avoid. picked: as in try_node.
  bool avoided(const OpDef& op, const Attrs& attrs, const std::vector<TensorType>& types,
               const std::vector<int>& picked) const {
    if (opt_.avoid.empty()) return false;
    const TensorType* first = types.empty() ? nullptr : &types[0];
    std::string maker;
    bool twin = false;
    if (!picked.empty() && picked[0] >= 0)
      for (const Node& n : g_.nodes) {
        const std::string& name = values_[picked[0]].name;
        if (std::find(n.outputs.begin(), n.outputs.end(), name) != n.outputs.end()) maker = n.op;
        twin |= n.op == op.name && !n.inputs.empty() && n.inputs[0] == name;
      }
    return std::any_of(opt_.avoid.begin(), opt_.avoid.end(), [&](const NodePattern& p) {
      return p.matches(op.name, attrs, first, maker, twin);
    });
  }

  void keep(const OpDef& op, Attrs attrs, const std::vector<int>& picked,
            std::vector<PendingLeaf> leaves, const std::vector<TensorType>& outs) {
    std::vector<int> leaf_index;
    for (PendingLeaf& leaf : leaves) {
      if (leaf.constant) {
        g_.constants.push_back({leaf.value.name, std::move(*leaf.constant), ""});
        ++consts_made_;
      } else {
        g_.inputs.push_back({leaf.value.name, leaf.value.type});
        ++inputs_made_;
      }
      leaf_index.push_back(static_cast<int>(values_.size()));
      values_.push_back(leaf.value);
    }
    Node node;
    node.name = fmt::format("n{}", g_.nodes.size());
    node.op = op.name;
    node.attrs = std::move(attrs);
    for (int p : picked) {
      Value& v = values_[p >= 0 ? p : leaf_index[-1 - p]];
      ++v.uses;
      node.inputs.push_back(v.name);
    }
    for (const TensorType& t : outs) {
      Value v;
      v.name = fmt::format("v{}", value_count_++);
      v.type = t;
      node.outputs.push_back(v.name);
      values_.push_back(std::move(v));
    }
    g_.nodes.push_back(std::move(node));
  }

  const GenOptions& opt_;
  Rng rng_;
  ShapeClass class_;
  std::vector<const OpDef*> ops_;
  Graph g_;
  std::vector<Value> values_;
  int inputs_made_ = 0, consts_made_ = 0, pending_inputs_ = 0, pending_consts_ = 0;
  int value_count_ = 0;
};

}  // namespace

std::string_view shape_class_name(ShapeClass c) {
  switch (c) {
    case ShapeClass::Vector:
      return "vector";
    case ShapeClass::Empty:
      return "empty";
    case ShapeClass::Unit:
      return "unit";
    case ShapeClass::Large:
      return "large";
    case ShapeClass::Plain:
      break;
  }
  return "plain";
}

ShapeClass graph_shape_class(const GenOptions& options, uint64_t seed) {
  if (!(options.shape_classes > 0)) return ShapeClass::Plain;
  Rng rng(mix_seed(seed, stable_hash("shape class")));
  if (!rng.coin(options.shape_classes)) return ShapeClass::Plain;
  return pick_from(rng, kShapeClasses);
}

Graph generate_graph(const GenOptions& options, uint64_t seed) {
  return Generator(options, seed).run();
}

}  // namespace retort
