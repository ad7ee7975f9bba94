// Runs single ops straight through the registry (attribute normalisation, inference, kernel),
// and compares tensors with expected values, for the op family tests.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/ops/registry.h"

namespace retort::test {

inline std::vector<TensorType> infer_op(const std::string& op, const std::vector<TensorType>& in,
                                        const Attrs& attrs = {}) {
  const OpRegistry& reg = OpRegistry::instance();
  const OpDef& def = reg.get(op);
  return def.infer(in, reg.normalize_attrs(def, attrs), 1);
}

inline Tensor run_op(const std::string& op, const std::vector<Tensor>& in,
                     const Attrs& attrs = {}) {
  const OpRegistry& reg = OpRegistry::instance();
  const OpDef& def = reg.get(op);
  Attrs normalized = reg.normalize_attrs(def, attrs);
  std::vector<TensorType> types;
  std::vector<const Tensor*> args;
  for (const Tensor& t : in) {
    types.push_back(t.type());
    args.push_back(&t);
  }
  std::vector<TensorType> out_types = def.infer(types, normalized, 1);
  std::vector<Tensor> outs = def.kernel(args, normalized, out_types);
  EXPECT_EQ(outs.at(0).type(), out_types.at(0));
  return outs.at(0);
}

// Element-by-element comparison; an expected NaN matches any NaN.
inline void expect_values(const Tensor& t, const std::vector<double>& want, double tol = 0) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    double got = t.get(static_cast<int64_t>(i));
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got)) << "element " << i << " is " << got;
    else if (tol == 0)
      EXPECT_EQ(got, want[i]) << "element " << i;
    else
      EXPECT_NEAR(got, want[i], tol) << "element " << i;
  }
}

inline void expect_ints(const Tensor& t, const std::vector<int64_t>& want) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(t.get_int(static_cast<int64_t>(i)), want[i]) << "element " << i;
}

// The message of the Error that f throws, or "" when it does not throw.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

inline Tensor f32(Shape s, std::vector<double> v) {
  return Tensor::from_doubles(DType::f32, std::move(s), v);
}
inline Tensor ints(DType t, Shape s, std::vector<int64_t> v) {
  return Tensor::from_ints(t, std::move(s), v);
}

}  // namespace retort::test
