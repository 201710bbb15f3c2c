// Typed test data for the numcodecs filters: arrays of a numpy dtype with
// values chosen to reach rounding ties, wrap-around, out-of-range casts and
// special floats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/bytes.h"

namespace zarr::test {

enum class Values {
  Typical,  // floats around 1000 with fractions; integers over their whole range; bools 0/1
  Small,    // floats in -3..3 in steps of 1/8 (many ties); integers in -100..100
  Special,  // floats: NaN, infinities, signed zeros, huge and tiny values, ties, plus typical ones
};

// n elements of the numeric dtype ("<f4", ">i2", "|b1"), deterministic in
// `seed`. The first element is always Typical, see the .cpp.
Bytes typed_data(const std::string& dtype, size_t n, uint32_t seed, Values values = Values::Typical);

// n fixed-length unicode strings (numpy "<U<chars>" or ">U<chars>"), each a
// random one of `words` (UTF-8; cut to `chars` code points).
Bytes unicode_data(const std::string& dtype, size_t n, const std::vector<std::string>& words, uint32_t seed);

}  // namespace zarr::test
