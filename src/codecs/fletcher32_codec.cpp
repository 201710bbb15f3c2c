// "fletcher32": numcodecs.Fletcher32 (numcodecs >= 0.12; not in 0.11): HDF5's
// Fletcher-32 of the chunk as 4 little-endian bytes after it. HDF5's variant
// reads the data as big-endian 16-bit words, an odd last byte as the high
// byte of a word, and reduces both sums modulo 65535 in ones' complement
// style (a sum of 65535 stays 65535).
#include "codecs/builtin_codecs.h"
#include "codecs/checksum32.h"

namespace zarr::codecs {

uint32_t fletcher32_checksum(const uint8_t* data, size_t size) {
  // 360 words is the most the 32-bit sums hold before they must be folded.
  constexpr size_t kBlockWords = 360;
  uint32_t sum1 = 0, sum2 = 0;
  size_t words = size / 2;
  auto fold = [](uint32_t s) { return (s & 0xffff) + (s >> 16); };
  while (words > 0) {
    size_t n = words < kBlockWords ? words : kBlockWords;
    words -= n;
    for (size_t k = 0; k < n; ++k) {
      sum1 += (uint32_t{data[0]} << 8) | data[1];
      sum2 += sum1;
      data += 2;
    }
    sum1 = fold(sum1);
    sum2 = fold(sum2);
  }
  if (size % 2 != 0) {
    sum1 += uint32_t{data[0]} << 8;
    sum2 += sum1;
    sum1 = fold(sum1);
    sum2 = fold(sum2);
  }
  sum1 = fold(sum1);
  sum2 = fold(sum2);
  return (sum2 << 16) | sum1;
}

std::unique_ptr<BytesCodec> make_fletcher32_codec(const rapidjson::Value& config, const ChunkRepr&) {
  return make_checksum32_codec(config, Checksum32Spec{"fletcher32", fletcher32_checksum, true, false});
}

}  // namespace zarr::codecs
