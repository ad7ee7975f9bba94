#include "core/backend/frame.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "core/base/error.h"

namespace retort {
namespace {

TEST(Frame, RoundTripsHeaderAndTensors) {
  Frame f;
  f.header = {{"type", "run"}, {"id", 7}};
  Tensor x = Tensor::from_doubles(DType::f32, {2, 3}, {1, 2, 3, 4, 5, -6.5});
  Tensor b = Tensor::from_ints(DType::boolean, {}, {1});
  Tensor h = Tensor::from_doubles(DType::f16, {2}, {0.5, -2});
  Tensor bh = Tensor::from_doubles(DType::bf16, {3}, {1 + 0x1p-7, -3e38, 0x1p-133});
  f.header["inputs"] = {tensor_entry("x", x, f), tensor_entry("b", b, f), tensor_entry("h", h, f),
                        tensor_entry("bh", bh, f)};

  std::string bytes = encode_frame(f);
  Frame back = decode_frame(bytes);
  EXPECT_EQ(back.header.at("type"), "run");
  EXPECT_EQ(back.header.at("id"), 7);
  EXPECT_EQ(back.header.at("blobs"), nlohmann::json({24, 1, 4, 6}));
  ASSERT_EQ(back.blobs.size(), 4u);
  auto [xn, xt] = tensor_from_entry(back.header.at("inputs")[0], back);
  EXPECT_EQ(xn, "x");
  EXPECT_EQ(xt, x);
  EXPECT_EQ(tensor_from_entry(back.header.at("inputs")[1], back).second, b);
  EXPECT_EQ(tensor_from_entry(back.header.at("inputs")[2], back).second, h);
  EXPECT_EQ(back.header.at("inputs")[3].at("dtype"), "bf16");
  EXPECT_EQ(tensor_from_entry(back.header.at("inputs")[3], back).second, bh);
}

TEST(Frame, TheLengthPrefixIsLittleEndian) {
  Frame f;
  f.header = {{"type", "bye"}};
  std::string bytes = encode_frame(f);
  std::string header = R"({"blobs":[],"type":"bye"})";
  ASSERT_EQ(bytes.size(), 4 + header.size());
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), header.size());
  EXPECT_EQ(bytes.substr(1, 3), std::string(3, '\0'));
  EXPECT_EQ(bytes.substr(4), header);
}

std::string error_of(std::string_view bytes) {
  try {
    decode_frame(bytes);
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

TEST(Frame, GarbageAndTruncationAreErrors) {
  EXPECT_NE(error_of("this is not a frame\n").find("over the limit of 16 MiB"), std::string::npos);
  EXPECT_NE(error_of(std::string("\x06\0\0\0{\"a\":", 9)).find("truncated"), std::string::npos);
  EXPECT_NE(error_of(std::string("\x05\0\0\0{\"a\":", 9)).find("not JSON"), std::string::npos);
  EXPECT_NE(error_of(std::string("\x03\0\0\0abc", 7)).find("not JSON"), std::string::npos);
  EXPECT_NE(error_of(std::string("\x02\0\0\0[]", 6)).find("not a JSON object"), std::string::npos);
  EXPECT_NE(error_of(std::string("\x0e\0\0\0{\"blobs\":[-1]}", 18)).find("not a byte count"),
            std::string::npos);
  EXPECT_NE(error_of(std::string("\x0d\0\0\0{\"blobs\":[4]}ab", 19)).find("truncated"),
            std::string::npos);
  EXPECT_NE(error_of(std::string("\x02\0\0\0{}x", 7)).find("follow"), std::string::npos);
  EXPECT_NE(error_of("ab").find("truncated"), std::string::npos);
}

// A 70-byte header may declare gigabytes of blobs: nothing is allocated before bytes arrive.
TEST(Frame, DeclaredBlobsAreReadAsTheyArriveAndBounded) {
  std::string header = R"({"blobs":[2147483648,2147483648],"type":"result"})";
  std::string bytes = std::string(1, static_cast<char>(header.size())) + std::string(3, '\0') +
                      header + "only a few bytes";
  size_t pos = 0, largest_read = 0;
  auto reader = [&](char* dst, size_t n) {
    largest_read = std::max(largest_read, n);
    if (bytes.size() - pos < n) fail("end of input");
    std::memcpy(dst, bytes.data() + pos, n);
    pos += n;
  };
  EXPECT_THROW(read_frame(reader), Error);
  EXPECT_LE(largest_read, size_t{1} << 20);

  auto declared = [](const std::string& blobs) {
    std::string h = R"({"blobs":)" + blobs + "}";
    return std::string(1, static_cast<char>(h.size())) + std::string(3, '\0') + h;
  };
  EXPECT_NE(error_of(declared("[3221225472]")).find("memory budget"), std::string::npos);
  EXPECT_NE(error_of(declared("[2147483648,2147483648,1]")).find("more than the limit"),
            std::string::npos);
}

// A 64 MB frame arrives in 64 KiB reads, as from a pipe: every byte is copied a bounded number of
// times (the blob grows geometrically), and the frame comes out whole.
TEST(Frame, ALargeFrameIsReadInLinearTime) {
  Frame f;
  f.header = {{"type", "result"}};
  std::string blob(64'000'000, '\0');
  for (size_t i = 0; i < blob.size(); i += 4096) blob[i] = static_cast<char>(i / 4096);
  f.add_blob(blob);
  std::string bytes = encode_frame(f);
  size_t pos = 0, reads = 0;
  auto reader = [&](char* dst, size_t n) {
    while (n > 0) {
      size_t piece = std::min<size_t>(n, 64 << 10);
      if (bytes.size() - pos < piece) fail("end of input");
      std::memcpy(dst, bytes.data() + pos, piece);
      pos += piece, dst += piece, n -= piece, ++reads;
    }
  };
  Frame back = read_frame(reader);
  EXPECT_EQ(pos, bytes.size());
  EXPECT_LE(reads, bytes.size() / (64 << 10) + 3);
  ASSERT_EQ(back.blobs.size(), 1u);
  EXPECT_TRUE(back.blobs[0] == blob);
}

// Parsing builds one JSON value per bracket: a header nested deeper than the limit is refused
// before it is parsed (a 15 MiB header of `[` once cost gigabytes), brackets in strings are text.
TEST(Frame, HeaderNestingIsBounded) {
  auto framed = [](const std::string& h) {
    uint32_t n = static_cast<uint32_t>(h.size());
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return out + h;
  };
  std::string deep = R"({"a":)" + std::string(kMaxFrameHeaderDepth, '[') +
                     std::string(kMaxFrameHeaderDepth, ']') + "}";
  EXPECT_NE(error_of(framed(deep)).find("nested deeper than 64"), std::string::npos);
  EXPECT_NE(error_of(framed(R"({"a":)" + std::string(15 << 20, '['))).find("nested deeper"),
            std::string::npos);
  std::string fine = R"({"a":)" + std::string(kMaxFrameHeaderDepth - 1, '[') +
                     std::string(kMaxFrameHeaderDepth - 1, ']') + R"(,"b":"[[[\"[[{"})";
  EXPECT_EQ(error_of(framed(fine)), "no error");
  EXPECT_EQ(decode_frame(framed(fine)).header.at("b"), "[[[\"[[{");
}

TEST(Frame, BadTensorEntriesAreErrors) {
  Frame f;
  f.add_blob(std::string(8, '\0'));
  auto error = [&](const nlohmann::json& entry) {
    try {
      tensor_from_entry(entry, f);
    } catch (const Error& e) {
      return e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error({{"name", "x"}, {"dtype", "f32"}, {"shape", {2}}, {"blob", 0}}), "no error");
  EXPECT_NE(
      error({{"name", "x"}, {"dtype", "f128"}, {"shape", {2}}, {"blob", 0}}).find("unknown dtype"),
      std::string::npos);
  EXPECT_NE(
      error({{"name", "x"}, {"dtype", "f32"}, {"shape", {3}}, {"blob", 0}}).find("needs 12 bytes"),
      std::string::npos);
  EXPECT_NE(error({{"name", "x"}, {"dtype", "f32"}, {"shape", {2}}, {"blob", 1}}).find("'blob'"),
            std::string::npos);
  EXPECT_NE(
      error({{"name", "x"}, {"dtype", "f32"}, {"shape", {-2}}, {"blob", 0}}).find("not a count"),
      std::string::npos);
  EXPECT_NE(error({{"dtype", "f32"}, {"shape", {2}}, {"blob", 0}}).find("'name'"),
            std::string::npos);
  EXPECT_NE(error(nlohmann::json::array()).find("malformed"), std::string::npos);
}

}  // namespace
}  // namespace retort
