#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/error.h"

// Runs one loader on fuzz input. A retort::Error is the loader rejecting bad input (the expected
// outcome); any other exception, crash or sanitizer report is a bug libFuzzer reports.
template <typename Load>
int run_loader(const uint8_t* data, size_t size, Load load) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    load(bytes);
  } catch (const retort::Error&) {
  }
  return 0;
}
