// Frames of the backend worker protocol (docs/backend-protocol.md): a little-endian u32 header
// length, a JSON header, then the blobs the header's "blobs" array counts. Both the workbench and
// the test worker speak it through these functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/json_reader.h"
#include "core/tensor/tensor.h"

namespace retort {

// A header is a few kilobytes of names and shapes; its bytes become a JSON tree several times
// their size, so both the length and the nesting are bounded (a 60 MiB header of `[` once took
// 4.66 GB). The limits are the same in every worker language (docs/backend-protocol.md).
inline constexpr uint32_t kMaxFrameHeaderBytes = 16u << 20;
inline constexpr int kMaxFrameHeaderDepth = kMaxJsonDepth;
// All blobs of one frame together; each alone is bounded by the memory budget
// (core/tensor/value_budget.h). Blobs are read as their bytes arrive, so declared sizes cost
// nothing until they are sent.
inline constexpr uint64_t kMaxFrameBlobBytes = uint64_t{4} << 30;

struct Frame {
  nlohmann::json header = nlohmann::json::object();
  std::vector<std::string> blobs;

  // Appends a blob and returns its index.
  size_t add_blob(std::string bytes);
};

// The frame's bytes; header["blobs"] is set to the blob sizes.
std::string encode_frame(const Frame& frame);

// Fills exactly n bytes at dst or throws (end of input, a time limit, an I/O error).
using ReadExact = std::function<void(char* dst, size_t n)>;

// Reads one frame. Throws Error when the bytes are not a frame (a header too long or not a JSON
// object, a bad "blobs" array); errors from `read` pass through unchanged.
Frame read_frame(const ReadExact& read);

// Decodes a frame that must be exactly `bytes`; Error on a truncated frame or trailing bytes.
Frame decode_frame(std::string_view bytes);

// A tensor as a header entry {"name", "dtype", "shape", "blob"}; its bytes become a new blob.
nlohmann::json tensor_entry(const std::string& name, const Tensor& t, Frame& frame);

// The tensor a header entry describes. Throws Error naming the entry when the dtype is unknown,
// the shape is malformed, the blob index is out of range or its size does not match.
std::pair<std::string, Tensor> tensor_from_entry(const nlohmann::json& entry, const Frame& frame);

}  // namespace retort
