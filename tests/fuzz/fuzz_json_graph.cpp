// libFuzzer target: the JSON graph loader.
#include "core/io/json_graph.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return run_loader(data, size,
                    [](const std::string& text) { retort::parse_json_graph(text, "fuzz.json"); });
}
