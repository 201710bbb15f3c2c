// The .npy reader of tests/support, which the fixture tests rely on.
#include <gtest/gtest.h>

#include <stdexcept>

#include "support/npy.h"

namespace zarr::test {
namespace {

// A .npy file of the given version around `dict` and `data`, padded as
// NumPy pads (header + magic a multiple of 64 bytes, ending in '\n').
Bytes make_npy(int major, std::string dict, const Bytes& data) {
  size_t len_size = major == 1 ? 2 : 4;
  size_t prefix = 6 + 2 + len_size;
  while ((prefix + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  for (size_t i = 0; i < len_size; ++i) out.push_back(static_cast<uint8_t>(dict.size() >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

TEST(Npy, Version1) {
  Bytes data(24, 7);
  NpyArray a = parse_npy(make_npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", data), "t");
  EXPECT_EQ(a.descr, "<i4");
  EXPECT_FALSE(a.fortran_order);
  EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(a.item_size(), 4u);
  EXPECT_EQ(a.data, data);
}

TEST(Npy, Version2FortranOrderAndOneDimension) {
  Bytes data(10 * 3, 1);
  NpyArray a = parse_npy(make_npy(2, "{'descr': '|S3', 'fortran_order': True, 'shape': (10,), }", data), "t");
  EXPECT_TRUE(a.fortran_order);
  EXPECT_EQ(a.shape, (std::vector<uint64_t>{10}));
  EXPECT_EQ(a.item_size(), 3u);
}

TEST(Npy, ScalarsDatetimesAndUnicode) {
  NpyArray s = parse_npy(make_npy(1, "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (), }", Bytes(8)), "t");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.item_size(), 8u);
  NpyArray u = parse_npy(make_npy(1, "{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }", Bytes(40)), "t");
  EXPECT_EQ(u.item_size(), 20u);
}

TEST(Npy, Malformed) {
  EXPECT_THROW(parse_npy(Bytes{'n', 'o', 'p', 'e'}, "t"), std::runtime_error);
  Bytes short_data = make_npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", Bytes(20));
  EXPECT_THROW(parse_npy(short_data, "t"), std::runtime_error);
  Bytes structured = make_npy(1, "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", Bytes(4));
  EXPECT_THROW(parse_npy(structured, "t"), std::runtime_error);
  Bytes cut = make_npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", Bytes(4));
  cut.resize(30);
  EXPECT_THROW(parse_npy(cut, "t"), std::runtime_error);
}

}  // namespace
}  // namespace zarr::test
