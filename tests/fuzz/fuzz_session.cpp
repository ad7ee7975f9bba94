// libFuzzer target: the session file loader (use with tests/fuzz/session.dict).
#include <nlohmann/json.hpp>

#include "core/session/session.h"
#include "core/session/session_file.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return run_loader(data, size, [](const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) return;
    retort::Session fresh;
    retort::session_from_json(fresh, j, "fuzz.session");
  });
}
