// libFuzzer target: the ONNX model importer.
#include "core/io/onnx_io.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return run_loader(data, size,
                    [](const std::string& bytes) { retort::import_onnx(bytes, "fuzz.onnx"); });
}
