// Reading an ONNX FLOAT attribute the way the exported model holds it.
#pragma once

#include <string>

#include "core/ops/attrs.h"

namespace retort {

// An ONNX FLOAT attribute (leaky_relu's alpha, batch_norm's epsilon, gemm's alpha...) rounded to
// float32: ONNX has no double attribute, so the exported model and every backend compute with
// float(0.01), not 0.01, and the reference must compute the model it exports. (An attribute that
// ONNX passes as a tensor of the input's dtype, such as clip's bounds, is read with attr_float.)
double onnx_float_attr(const Attrs& a, const std::string& name);

}  // namespace retort
