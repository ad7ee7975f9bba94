#include "core/ops/prepared_kernels.h"

#include <map>

namespace retort {

const PrepareFn* find_prepare(const std::string& op) {
  static const std::map<std::string, PrepareFn> kPrepared = {
      {"conv", prepare_conv}, {"matmul", prepare_matmul}, {"gemm", prepare_gemm}};
  auto it = kPrepared.find(op);
  return it == kPrepared.end() ? nullptr : &it->second;
}

}  // namespace retort
