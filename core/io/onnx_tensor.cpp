// TensorProto <-> Tensor, and TensorProto files.
#include <algorithm>
#include <cctype>

#include <onnx/onnx_pb.h>

#include "core/io/graph_files.h"
#include "core/io/onnx_io.h"
#include "core/io/onnx_proto.h"

namespace retort {

std::string onnx_type_label(int code) {
  if (!onnx::TensorProto_DataType_IsValid(code)) return fmt::format("type code {}", code);
  std::string name = onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(code));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

DType dtype_for_onnx(int code, const std::string& what) {
  if (auto t = dtype_from_onnx_code(code)) return *t;
  throw OnnxUnsupported(fmt::format("unsupported dtype {} of {}", onnx_type_label(code), what));
}

namespace {

Shape dims_of(const onnx::TensorProto& proto, const std::string& what) {
  Shape shape;
  int64_t n = 1;
  for (int64_t d : proto.dims()) {
    if (d < 0) fail("{} has a negative dimension {}", what, d);
    // Bounds the element count so that byte sizes cannot overflow in a corrupt file.
    if (d != 0 && n > (int64_t{1} << 48) / d) fail("{} has absurd dimensions", what);
    n *= d;
    shape.push_back(d);
  }
  if (shape.size() > kMaxRank)
    throw OnnxUnsupported(
        fmt::format("{} has rank {}, above Retort's maximum {}", what, shape.size(), kMaxRank));
  return shape;
}

// How many values the typed field for dtype holds (raw_data aside).
int64_t typed_count(const onnx::TensorProto& proto, DType dtype) {
  switch (dtype) {
    case DType::f32:
      return proto.float_data_size();
    case DType::f64:
      return proto.double_data_size();
    case DType::i64:
      return proto.int64_data_size();
    default:
      return proto.int32_data_size();  // also f16 and bf16 bits, i8, u8, i16, bool
  }
}

}  // namespace

Tensor tensor_from_proto(const onnx::TensorProto& proto, const std::string& what) {
  if (proto.data_location() == onnx::TensorProto_DataLocation_EXTERNAL)
    throw OnnxUnsupported(fmt::format("{} keeps its data in an external file", what));
  if (proto.has_segment()) throw OnnxUnsupported(fmt::format("{} is segmented", what));
  const DType dtype = dtype_for_onnx(proto.data_type(), what);
  const Shape shape = dims_of(proto, what);
  const int64_t n = numel(shape);
  const TensorType type{dtype, shape};

  // Sizes are checked before the tensor is allocated, so corrupt dims cannot allocate much.
  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    if (raw.size() != static_cast<size_t>(n) * dtype_size(dtype))
      fail("{} has {} bytes of raw data but {} needs {}", what, raw.size(), type.str(),
           static_cast<size_t>(n) * dtype_size(dtype));
    Tensor t(type);
    std::copy(raw.begin(), raw.end(), t.bytes());
    return t;
  }
  if (typed_count(proto, dtype) != n)
    fail("{} holds {} values but {} needs {}", what, typed_count(proto, dtype), type.str(), n);
  Tensor t(type);
  switch (dtype) {
    case DType::f32:
      std::copy(proto.float_data().begin(), proto.float_data().end(), t.data<float>());
      break;
    case DType::f64:
      std::copy(proto.double_data().begin(), proto.double_data().end(), t.data<double>());
      break;
    case DType::i64:
      std::copy(proto.int64_data().begin(), proto.int64_data().end(), t.data<int64_t>());
      break;
    case DType::f16:
    case DType::bf16:
      // int32_data carries the 16 bits of each half or bfloat16.
      for (int i = 0; i < n; ++i)
        t.data<uint16_t>()[i] = static_cast<uint16_t>(proto.int32_data(i));
      break;
    case DType::i32:
    case DType::i16:
    case DType::i8:
    case DType::u8:
    case DType::boolean:
      for (int i = 0; i < n; ++i) t.set_int(i, proto.int32_data(i));
      break;
  }
  return t;
}

void tensor_to_proto(const Tensor& t, const std::string& name, onnx::TensorProto& proto) {
  proto.set_name(name);
  proto.set_data_type(onnx_dtype_code(t.dtype()));
  for (int64_t d : t.shape()) proto.add_dims(d);
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(t.bytes()), t.nbytes()));
}

void rethrow_located(const std::string& file, const std::string& node) {
  auto locate = [&](const Error& e) {
    SourceLoc loc = e.loc().known() || !e.loc().file.empty() ? e.loc() : SourceLoc{file};
    return std::make_pair(loc, e.node().empty() ? node : e.node());
  };
  try {
    throw;
  } catch (const OnnxUnsupported& e) {
    auto [loc, where] = locate(e);
    throw OnnxUnsupported(e.message(), loc, where);
  } catch (const Error& e) {
    auto [loc, where] = locate(e);
    throw Error(e.message(), loc, where);
  }
}

Tensor read_tensor_proto(const std::string& bytes, std::string* name) {
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) fail("not a TensorProto (truncated or not protobuf)");
  if (name) *name = proto.name();
  return tensor_from_proto(
      proto, proto.name().empty() ? "the tensor" : fmt::format("tensor '{}'", proto.name()));
}

Tensor read_tensor_proto_file(const std::string& path, std::string* name) {
  std::string bytes = read_file(path);
  try {
    return read_tensor_proto(bytes, name);
  } catch (const Error&) {
    rethrow_located(path);
  }
}

std::string write_tensor_proto(const Tensor& t, const std::string& name) {
  onnx::TensorProto proto;
  tensor_to_proto(t, name, proto);
  return proto.SerializeAsString();
}

}  // namespace retort
