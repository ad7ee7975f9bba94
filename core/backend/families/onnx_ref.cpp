// onnx-ref: ONNX's own reference implementation (onnx.reference.ReferenceEvaluator), a numpy
// interpreter of the specification written independently of Retort's reference. It compiles
// nothing: it is the second opinion on Retort's reference (`conform`, a finding's agreement),
// not a compiler under test.
#include "core/backend/family.h"

namespace retort {

FamilyDef onnx_ref_family() {
  return {.name = "onnx-ref",
          .summary = "ONNX's reference implementation (onnx.reference, numpy)",
          .modes = {{.name = "default", .help = "ReferenceEvaluator on the whole model"}},
          .default_mode = "default",
          .worker = "onnx_ref_worker.py",
          // Conv, pooling and einsum are Python loops over numpy: slow by design.
          .timeout_s = 120,
          .installer = Installer::Pypi,
          .version_package = "onnx",
          .packages = {"onnx=={}", "numpy"},
          .cannot_run = "ops and dtypes onnx.reference has no kernel for: unsupported"};
}

}  // namespace retort
