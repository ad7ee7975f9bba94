// The disagreements between Retort's reference and onnx.reference that are understood: each one a
// row saying which op, dtypes and input plans it covers, a phrase of the difference it explains,
// its class and why. A `sweep` disagreement no row explains is unexplained. The rows are the
// table of docs/conformance.md; a row is removed when the fix it waits for lands.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/dtype.h"

namespace retort {

inline constexpr std::string_view kOnnxReferenceBug = "onnx.reference bug";
inline constexpr std::string_view kSpecSilent = "spec silent";
// A bug of Retort's reference whose fix is under way elsewhere: the row goes with the fix.
inline constexpr std::string_view kReferenceFixPending = "Retort fix pending";

struct KnownDisagreement {
  std::string op;                  // registry op name
  std::vector<DType> dtypes;       // empty: every dtype
  std::vector<std::string> plans;  // InputPlan::range_str() names; empty: every plan
  std::string phrase;              // in the disagreement's detail; empty: any
  std::string klass;               // kOnnxReferenceBug, kSpecSilent or kReferenceFixPending
  std::string reason;              // one line, for the report and the docs
};

const std::vector<KnownDisagreement>& known_disagreements();

// The first row that explains a disagreement of `op` on `dtype` under `plan` whose detail is
// `detail`; null when none does.
const KnownDisagreement* explain_disagreement(std::string_view op, DType dtype,
                                              std::string_view plan, std::string_view detail);

}  // namespace retort
