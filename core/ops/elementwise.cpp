#include "core/ops/elementwise.h"

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/ops/index_space.h"
#include "core/ops/infer_rules.h"

namespace retort {

bool dtype_in_set(DType t, DTypeSet set) {
  switch (set) {
    case DTypeSet::Float:
      return is_float(t);
    case DTypeSet::Numeric:
      return t != DType::boolean;
    case DTypeSet::SignedNumeric:
      return t != DType::boolean && is_signed(t);
    case DTypeSet::Integer:
      return is_integer(t);
    case DTypeSet::Bool:
      return t == DType::boolean;
    case DTypeSet::Any:
      return true;
    case DTypeSet::FloatOrWideInt:
      return is_float(t) || t == DType::i32 || t == DType::i64;
  }
  return false;
}

std::string_view dtype_set_name(DTypeSet set) {
  switch (set) {
    case DTypeSet::Float:
      return "a float dtype";
    case DTypeSet::Numeric:
      return "a numeric dtype";
    case DTypeSet::SignedNumeric:
      return "a signed numeric dtype";
    case DTypeSet::Integer:
      return "an integer dtype";
    case DTypeSet::Bool:
      return "bool";
    case DTypeSet::Any:
      return "any dtype";
    case DTypeSet::FloatOrWideInt:
      return "a float dtype, i32 or i64";
  }
  return "?";
}

namespace {
void check_set(const TensorType& t, DTypeSet set, const std::string& op, const char* input) {
  if (!dtype_in_set(t.dtype, set))
    fail("op '{}' needs {} for input '{}', got {}", op, dtype_set_name(set), input,
         dtype_name(t.dtype));
}

// Runs f(out_index, offset_a, offset_b) over a broadcast pair; equal shapes skip the odometer.
template <typename F>
void for_each_pair(const Shape& out, const Shape& a, const Shape& b, F&& f) {
  if (a == out && b == out) {
    int64_t n = numel(out);
    for (int64_t i = 0; i < n; ++i) f(i, i, i);
    return;
  }
  for_each_broadcast(out, {&a, &b}, [&](int64_t i, const int64_t* off) { f(i, off[0], off[1]); });
}
}  // namespace

OpDef make_unary(UnarySpec spec) {
  OpDef op;
  op.name = spec.name;
  op.doc = spec.doc;
  op.input_names = {"x"};
  op.attrs = spec.attrs;
  op.onnx = {spec.onnx_type, spec.since_opset, {}};
  op.input_domains = {spec.domain};
  op.tags = {"elementwise", "unary"};
  op.tags.insert(op.tags.end(), spec.tags.begin(), spec.tags.end());
  DTypeSet set = spec.dtypes;
  std::string name = spec.name;
  op.infer = [set, name](const std::vector<TensorType>& in, const Attrs&, size_t) {
    check_set(in[0], set, name, "x");
    return std::vector<TensorType>{in[0]};
  };
  if (spec.kernel) {
    op.kernel = std::move(spec.kernel);
    return op;
  }
  op.kernel = [f = spec.f, fi = spec.fi, f_attrs = spec.f_attrs, fi_attrs = spec.fi_attrs](
                  const std::vector<const Tensor*>& in, const Attrs& attrs,
                  const std::vector<TensorType>& out_types) {
    const Tensor& x = *in[0];
    Tensor out(out_types[0]);
    auto fn = f_attrs ? f_attrs(attrs) : f;
    // The integer function is made only for integer tensors: its bounds need an integer range.
    auto fin = fi_attrs && !is_float(x.dtype()) ? fi_attrs(attrs, x.dtype()) : fi;
    if (fin && !is_float(x.dtype())) {
      for (int64_t i = 0; i < x.numel(); ++i) out.set_int(i, fin(x.get_int(i)));
    } else {
      for (int64_t i = 0; i < x.numel(); ++i) out.set(i, fn(x.get(i)));
    }
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

OpDef make_binary(BinarySpec spec) {
  OpDef op;
  op.name = spec.name;
  op.doc = spec.doc;
  op.input_names = {"a", "b"};
  op.min_inputs = op.max_inputs = 2;
  op.attrs = spec.attrs;
  op.onnx = {spec.onnx_type, spec.since_opset, {}};
  op.input_domains = {spec.domain_a, spec.domain_b};
  op.tags = {"elementwise", "binary"};
  op.tags.insert(op.tags.end(), spec.tags.begin(), spec.tags.end());
  DTypeSet set = spec.dtypes;
  std::optional<DTypeSet> set_b = spec.dtypes_b;
  std::string name = spec.name;
  bool bool_result = spec.bool_result;
  op.infer = [set, set_b, name, bool_result](const std::vector<TensorType>& in, const Attrs& a,
                                             size_t n) {
    check_set(in[0], set, name, "a");
    std::vector<TensorType> out;
    if (set_b) {
      check_set(in[1], *set_b, name, "b");
      out = {{in[0].dtype, broadcast_shapes(in[0].shape, in[1].shape)}};
    } else {
      out = infer_broadcast(in, a, n);
    }
    if (bool_result) out[0].dtype = DType::boolean;
    return out;
  };
  op.kernel = [f = spec.f, fi = spec.fi, f_attrs = spec.f_attrs, fi_attrs = spec.fi_attrs](
                  const std::vector<const Tensor*>& in, const Attrs& attrs,
                  const std::vector<TensorType>& out_types) {
    const Tensor& a = *in[0];
    const Tensor& b = *in[1];
    Tensor out(out_types[0]);
    auto fn = f_attrs ? f_attrs(attrs) : f;
    auto fin = fi_attrs ? fi_attrs(attrs) : fi;
    DType dt = a.dtype();
    if (fin && !is_float(dt) && !is_float(b.dtype())) {
      for_each_pair(out.shape(), a.shape(), b.shape(), [&](int64_t i, int64_t ia, int64_t ib) {
        out.set_int(i, wrap_int(fin(a.get_int(ia), b.get_int(ib)), dt));
      });
    } else {
      for_each_pair(out.shape(), a.shape(), b.shape(), [&](int64_t i, int64_t ia, int64_t ib) {
        out.set(i, fn(a.get(ia), b.get(ib)));
      });
    }
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

OpDef make_variadic(VariadicSpec spec) {
  OpDef op;
  op.name = spec.name;
  op.doc = spec.doc;
  op.input_names = {"x"};
  op.min_inputs = 1;
  op.max_inputs = -1;
  op.onnx = {spec.onnx_type, spec.since_opset, {}};
  op.tags = {"elementwise", "variadic"};
  op.tags.insert(op.tags.end(), spec.tags.begin(), spec.tags.end());
  op.input_domains = {spec.domain};
  DTypeSet set = spec.dtypes;
  std::string name = spec.name;
  op.infer = [set, name](const std::vector<TensorType>& in, const Attrs& a, size_t n) {
    for (const auto& t : in)
      if (!dtype_in_set(t.dtype, set))
        fail("op '{}' needs {}, got {}", name, dtype_set_name(set), dtype_name(t.dtype));
    return infer_broadcast(in, a, n);
  };
  op.kernel = [f = spec.f, fi = spec.fi, finish = spec.finish](
                  const std::vector<const Tensor*>& in, const Attrs&,
                  const std::vector<TensorType>& out_types) {
    Tensor out(out_types[0]);
    std::vector<const Shape*> shapes;
    for (const Tensor* t : in) shapes.push_back(&t->shape());
    DType dt = out.dtype();
    size_t n = in.size();
    if (fi && !is_float(dt)) {
      for_each_broadcast(out.shape(), shapes, [&](int64_t i, const int64_t* off) {
        int64_t acc = in[0]->get_int(off[0]);
        for (size_t k = 1; k < n; ++k) acc = wrap_int(fi(acc, in[k]->get_int(off[k])), dt);
        out.set_int(i, acc);
      });
    } else {
      for_each_broadcast(out.shape(), shapes, [&](int64_t i, const int64_t* off) {
        double acc = in[0]->get(off[0]);
        for (size_t k = 1; k < n; ++k) acc = f(acc, in[k]->get(off[k]));
        out.set(i, finish ? finish(acc, n) : acc);
      });
    }
    return std::vector<Tensor>{std::move(out)};
  };
  return op;
}

}  // namespace retort
