#include "core/backend/frame.h"

#include <algorithm>
#include <cstring>

#include "core/base/error.h"
#include "core/io/json_reader.h"
#include "core/tensor/value_budget.h"

namespace retort {

namespace {

using nlohmann::json;

uint32_t read_u32_le(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

void write_u32_le(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::vector<uint64_t> blob_sizes(const json& header) {
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  auto it = header.find("blobs");
  if (it == header.end() || it->is_null()) return sizes;
  if (!it->is_array()) fail("malformed frame: 'blobs' is not an array");
  for (const json& n : *it) {
    if (!n.is_number_unsigned() && !(n.is_number_integer() && n.get<int64_t>() >= 0))
      fail("malformed frame: 'blobs' holds {}, not a byte count", n.dump());
    uint64_t size = n.get<uint64_t>();
    if (size > kValueByteBudget)
      fail("malformed frame: a blob of {} bytes is over the memory budget of {} GiB per value",
           size, kValueByteBudget >> 30);
    total += size;
    if (total > kMaxFrameBlobBytes)
      fail("malformed frame: its blobs take more than the limit of {} GiB",
           kMaxFrameBlobBytes >> 30);
    sizes.push_back(size);
  }
  return sizes;
}

// Reads a blob in pieces, growing it only as its bytes arrive: a header may declare sizes the
// sender never sends, and those must not be allocated up front.
std::string read_blob(const ReadExact& read, uint64_t size) {
  constexpr uint64_t kPiece = 1 << 20;
  std::string blob;
  while (blob.size() < size) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(kPiece, size - blob.size()));
    size_t at = blob.size();
    blob.resize(at + n);
    read(blob.data() + at, n);
  }
  return blob;
}

}  // namespace

size_t Frame::add_blob(std::string bytes) {
  blobs.push_back(std::move(bytes));
  return blobs.size() - 1;
}

std::string encode_frame(const Frame& frame) {
  json header = frame.header;
  json sizes = json::array();
  for (const auto& b : frame.blobs) sizes.push_back(b.size());
  header["blobs"] = std::move(sizes);
  std::string text = header.dump();
  if (text.size() > kMaxFrameHeaderBytes)
    fail("a frame header of {} bytes is over the limit of {} MiB", text.size(),
         kMaxFrameHeaderBytes >> 20);
  std::string out;
  size_t total = 4 + text.size();
  for (const auto& b : frame.blobs) total += b.size();
  out.reserve(total);
  write_u32_le(out, static_cast<uint32_t>(text.size()));
  out += text;
  for (const auto& b : frame.blobs) out += b;
  return out;
}

Frame read_frame(const ReadExact& read) {
  char prefix[4];
  read(prefix, 4);
  uint32_t length = read_u32_le(prefix);
  if (length > kMaxFrameHeaderBytes)
    fail(
        "malformed frame: a header length of {} bytes is over the limit of {} MiB (the bytes "
        "begin {:02x} {:02x} {:02x} {:02x})",
        length, kMaxFrameHeaderBytes >> 20, static_cast<uint8_t>(prefix[0]),
        static_cast<uint8_t>(prefix[1]), static_cast<uint8_t>(prefix[2]),
        static_cast<uint8_t>(prefix[3]));
  std::string text(length, '\0');
  read(text.data(), length);
  // Refused before it is parsed, as every JSON text (core/io/json_reader.h).
  if (json_too_deep_at(text))
    fail("malformed frame: the header is nested deeper than {} levels", kMaxFrameHeaderDepth);
  Frame frame;
  try {
    frame.header = json::parse(text);
  } catch (const json::exception& e) {
    fail("malformed frame: the header is not JSON ({})", e.what());
  }
  if (!frame.header.is_object()) fail("malformed frame: the header is not a JSON object");
  for (uint64_t size : blob_sizes(frame.header)) frame.blobs.push_back(read_blob(read, size));
  return frame;
}

Frame decode_frame(std::string_view bytes) {
  size_t pos = 0;
  Frame frame = read_frame([&](char* dst, size_t n) {
    if (bytes.size() - pos < n)
      fail("truncated frame: it needs {} more bytes after byte {} of {}", n, pos, bytes.size());
    std::memcpy(dst, bytes.data() + pos, n);
    pos += n;
  });
  if (pos != bytes.size()) fail("{} bytes follow the frame's {} bytes", bytes.size() - pos, pos);
  return frame;
}

json tensor_entry(const std::string& name, const Tensor& t, Frame& frame) {
  size_t blob = frame.add_blob(std::string(reinterpret_cast<const char*>(t.bytes()), t.nbytes()));
  return {{"name", name}, {"dtype", dtype_name(t.dtype())}, {"shape", t.shape()}, {"blob", blob}};
}

std::pair<std::string, Tensor> tensor_from_entry(const json& entry, const Frame& frame) {
  if (!entry.is_object()) fail("malformed tensor entry {}", entry.dump());
  auto name_it = entry.find("name");
  if (name_it == entry.end() || !name_it->is_string())
    fail("malformed tensor entry {}: no string 'name'", entry.dump());
  std::string name = name_it->get<std::string>();
  auto dtype_it = entry.find("dtype");
  std::optional<DType> dtype;
  if (dtype_it != entry.end() && dtype_it->is_string())
    dtype = parse_dtype(dtype_it->get<std::string>());
  if (!dtype)
    fail("tensor '{}': unknown dtype {}", name,
         dtype_it == entry.end() ? "(none)" : dtype_it->dump());
  auto shape_it = entry.find("shape");
  if (shape_it == entry.end() || !shape_it->is_array())
    fail("tensor '{}': 'shape' is not an array", name);
  Shape shape;
  uint64_t count = 1;
  for (const json& d : *shape_it) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0)
      fail("tensor '{}': shape {} has a dimension that is not a count", name, shape_it->dump());
    int64_t dim = d.get<int64_t>();
    if (dim > 0 && count > kMaxFrameBlobBytes / static_cast<uint64_t>(dim))
      fail("tensor '{}': shape {} is too large", name, shape_it->dump());
    count *= static_cast<uint64_t>(dim);
    shape.push_back(dim);
  }
  auto blob_it = entry.find("blob");
  if (blob_it == entry.end() || !blob_it->is_number_integer() || blob_it->get<int64_t>() < 0 ||
      blob_it->get<uint64_t>() >= frame.blobs.size())
    fail("tensor '{}': 'blob' is not the index of one of the frame's {} blobs", name,
         frame.blobs.size());
  const std::string& blob = frame.blobs[blob_it->get<size_t>()];
  uint64_t expected = count * dtype_size(*dtype);
  if (blob.size() != expected)
    fail("tensor '{}': {}{} needs {} bytes but its blob has {}", name, dtype_name(*dtype),
         shape_str(shape), expected, blob.size());
  Tensor t(*dtype, shape);
  if (expected > 0) std::memcpy(t.bytes(), blob.data(), expected);
  return {std::move(name), std::move(t)};
}

}  // namespace retort
