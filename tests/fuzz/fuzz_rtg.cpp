// libFuzzer target: the .rtg text loader.
#include "core/io/rtg.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return run_loader(data, size,
                    [](const std::string& text) { retort::parse_rtg(text, "fuzz.rtg"); });
}
