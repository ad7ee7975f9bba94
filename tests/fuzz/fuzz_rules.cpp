// libFuzzer target: the rule file loader.
#include "core/rules/rule.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return run_loader(data, size,
                    [](const std::string& text) { retort::parse_rules(text, "fuzz.rules"); });
}
