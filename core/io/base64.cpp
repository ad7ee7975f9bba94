#include "core/io/base64.h"

#include "core/base/error.h"

namespace retort {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::string base64_encode(const uint8_t* data, size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (size_t i = 0; i < size; i += 3) {
    uint32_t chunk = uint32_t{data[i]} << 16;
    if (i + 1 < size) chunk |= uint32_t{data[i + 1]} << 8;
    if (i + 2 < size) chunk |= data[i + 2];
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

std::vector<uint8_t> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) fail("base64 text has length {}, not a multiple of 4", text.size());
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    int pad = 0;
    uint32_t chunk = 0;
    for (size_t k = 0; k < 4; ++k) {
      char c = text[i + k];
      int v = sextet(c);
      if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        v = 0;
      } else if (v < 0 || pad > 0) {
        fail("invalid base64 character at position {}", i + k);
      }
      chunk = (chunk << 6) | static_cast<uint32_t>(v);
    }
    out.push_back(static_cast<uint8_t>(chunk >> 16));
    if (pad < 2) out.push_back(static_cast<uint8_t>(chunk >> 8));
    if (pad < 1) out.push_back(static_cast<uint8_t>(chunk));
  }
  return out;
}

}  // namespace retort
