// libFuzzer target: a shard's bytes (index and inner chunks) decoded whole
// and in part, for a shard with its index at the end (crc32c-checked) and
// one with its index at the start (unchecked, so the fuzzer reaches the
// offset checks without forging checksums). The first input byte picks the
// layout and the part read.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/json.h"
#include "codecs/codec_chain.h"
#include "codecs/v3_chain.h"

namespace {

zarr::CodecChain make_chain(const char* codecs) {
  const zarr::DataType type = *zarr::DataType::from_v3_name("uint16");
  const zarr::ArrayRepr shard{{8, 8}, type, zarr::Bytes(type.item_size(), 0)};
  const rapidjson::Document doc = zarr::json::parse(codecs, "fuzz codecs");
  return zarr::make_v3_codec_chain(doc, shard, "fuzz");
}

const zarr::CodecChain& chain(bool index_at_end) {
  static const zarr::CodecChain at_end = make_chain(R"([{"name": "sharding_indexed", "configuration": {
      "chunk_shape": [4, 4], "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
      {"name": "zstd", "configuration": {"level": 1, "checksum": false}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
      "index_location": "end"}}])");
  static const zarr::CodecChain at_start = make_chain(R"([{"name": "sharding_indexed", "configuration": {
      "chunk_shape": [2, 4], "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
      "index_location": "start"}}])");
  return index_at_end ? at_end : at_start;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t pick = data[0];
  const zarr::ByteView shard(data + 1, size - 1);
  const zarr::CodecChain& c = chain(pick & 1);
  try {
    c.decode(shard, "c/0/0");
  } catch (const zarr::Error&) {
  }
  // A box of the shard, as a region read asks for it.
  const uint64_t row = (pick >> 1) & 7, col = (pick >> 4) & 7;
  const std::vector<uint64_t> offset{row, col}, count{8 - row, 8 - col};
  std::vector<uint16_t> out(64);
  const std::vector<int64_t> strides{16, 2};
  const auto read = [&](int64_t at, std::optional<uint64_t> length) -> std::optional<zarr::Bytes> {
    const uint64_t n = shard.size;
    const uint64_t begin = at < 0 ? (static_cast<uint64_t>(-at) > n ? 0 : n - static_cast<uint64_t>(-at))
                                  : std::min<uint64_t>(static_cast<uint64_t>(at), n);
    const uint64_t end = length ? std::min<uint64_t>(n, begin + std::min<uint64_t>(*length, n)) : n;
    return zarr::Bytes(shard.data + begin, shard.data + end);
  };
  try {
    c.array_to_bytes()->partial_decode(read, c.decoded(), offset, count, reinterpret_cast<uint8_t*>(out.data()),
                                       strides, zarr::MemoryWrites::Cached);
  } catch (const zarr::Error&) {
  }
  return 0;
}
