// libFuzzer target: worker frames (header, blobs and the tensor entries they carry).
#include "core/backend/frame.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return run_loader(data, size, [](const std::string& bytes) {
    const retort::Frame frame = retort::decode_frame(bytes);
    for (const char* key : {"inputs", "outputs"}) {
      const auto entries = frame.header.find(key);
      if (entries == frame.header.end() || !entries->is_array()) continue;
      for (const auto& entry : *entries) retort::tensor_from_entry(entry, frame);
    }
  });
}
