// Base64 (RFC 4648, with padding) for tensor bytes inside JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace retort {

std::string base64_encode(const uint8_t* data, size_t size);
// Throws Error naming the offending character position; whitespace is not allowed.
std::vector<uint8_t> base64_decode(std::string_view text);

}  // namespace retort
