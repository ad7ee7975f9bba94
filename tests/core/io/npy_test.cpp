#include "core/io/npy.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

TEST(Npy, HeaderIsVersion1AlignedTo64) {
  std::string bytes = write_npy(Tensor::from_doubles(DType::f32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0u);
  std::string header = bytes.substr(10, header_len);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.size(), 10 + header_len + 24);
}

TEST(Npy, ShapesAndDtypesRoundTrip) {
  EXPECT_NE(write_npy(Tensor::from_ints(DType::i64, {4}, {1, 2, 3, 4})).find("'shape': (4,)"),
            std::string::npos);
  EXPECT_NE(write_npy(Tensor::scalar(DType::boolean, 1)).find("'descr': '|b1'"), std::string::npos);
  for (DType d : kAllDTypes) {
    Tensor t = Tensor::from_ints(d, {2, 1, 2}, {0, 1, 1, 0});
    Tensor back = read_npy(write_npy(t), "t.npy");
    EXPECT_TRUE(back == t) << dtype_name(d);
  }
  Tensor s = Tensor::scalar(DType::f64, -2.5);
  EXPECT_TRUE(read_npy(write_npy(s)) == s);
}

TEST(Npy, BadFilesAreErrors) {
  EXPECT_THROW(read_npy("not numpy", "x.npy"), Error);
  std::string bytes = write_npy(Tensor::from_doubles(DType::f32, {2}, {1, 2}));
  EXPECT_THROW(read_npy(bytes.substr(0, bytes.size() - 1), "cut.npy"), Error);
}

}  // namespace
}  // namespace retort
