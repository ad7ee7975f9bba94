// Writes graphs of core/gen (generate_graph) as ONNX files, for measuring backends on generated
// models (tests/backends/bench_families.py):
//   retort_gen_onnx NODES SEED OUT.onnx [DTYPE...]
// NODES is the exact op-node count; the dtypes default to every Retort dtype.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/base/error.h"
#include "core/gen/graph_gen.h"
#include "core/io/onnx_io.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: retort_gen_onnx NODES SEED OUT.onnx [DTYPE...]\n");
    return 2;
  }
  try {
    retort::GenOptions options;
    options.min_nodes = options.max_nodes = std::atoi(argv[1]);
    if (argc > 4) {
      options.dtypes.clear();
      for (int k = 4; k < argc; ++k) {
        const auto dtype = retort::parse_dtype(argv[k]);
        if (!dtype) {
          std::fprintf(stderr, "retort_gen_onnx: unknown dtype '%s'\n", argv[k]);
          return 2;
        }
        options.dtypes.push_back(*dtype);
      }
    }
    const auto graph = retort::generate_graph(options, std::strtoull(argv[2], nullptr, 10));
    std::ofstream(argv[3], std::ios::binary) << retort::export_onnx(graph);
  } catch (const retort::Error& e) {
    std::fprintf(stderr, "retort_gen_onnx: %s\n", e.what());
    return 1;
  }
  return 0;
}
