#include "codec_test_util.h"

#include <algorithm>

#include <random>

#include "base/error.h"
#include "base/json.h"

namespace zarr::test {

std::unique_ptr<BytesCodec> codec_from_json(const std::string& json, ChunkRepr repr) {
  rapidjson::Document doc = zarr::json::parse(json, "test codec config");
  return make_bytes_codec(doc, repr);
}

void put_le32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

Bytes sample_data(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(n);
  for (size_t i = 0; i < n; ++i) {
    switch ((i / 512 + seed) % 3) {
      case 0: out[i] = static_cast<uint8_t>((i / 4) >> (8 * (i % 4))); break;  // ramp of int32
      case 1: out[i] = static_cast<uint8_t>(i / 700); break;                     // runs
      default: out[i] = static_cast<uint8_t>(rng() % 16); break;                 // low-entropy noise
    }
  }
  return out;
}

::testing::AssertionResult round_trips(const BytesCodec& codec, ByteView data) {
  Bytes original = data.to_bytes();
  Bytes encoded;
  try {
    encoded = codec.encode(data);
    Bytes known = codec.decode(encoded, data.size);
    if (known != original) {
      return ::testing::AssertionFailure() << codec.config_json() << ": " << data.size
                                           << " bytes: decode with size known differs (" << known.size()
                                           << " bytes)";
    }
    Bytes unknown = codec.decode(encoded, 0);
    if (unknown != original) {
      return ::testing::AssertionFailure() << codec.config_json() << ": " << data.size
                                           << " bytes: decode with size unknown differs (" << unknown.size()
                                           << " bytes)";
    }
    // Codecs with a bound encode into a caller's buffer the same bytes as
    // encode() gives; the others refuse encode_into.
    const size_t bound = codec.encoded_bound(data.size);
    if (bound != 0) {
      Bytes direct(bound + 1, 0x5A);  // one guard byte past the bound
      const size_t n = codec.encode_into(data, direct.data(), bound);
      if (n > bound || !std::equal(encoded.begin(), encoded.end(), direct.begin()) || n != encoded.size() ||
          direct.back() != 0x5A) {
        return ::testing::AssertionFailure() << codec.config_json() << ": " << data.size
                                             << " bytes: encode_into differs from encode or wrote past the bound";
      }
    } else {
      bool refused = false;
      try {
        uint8_t scratch[1];
        codec.encode_into(data, scratch, 1);
      } catch (const Error& e) {
        refused = e.code() == ZARR_ERR_INTERNAL;
      }
      if (!refused) return ::testing::AssertionFailure() << codec.config_json() << ": encode_into without a bound";
    }
    Bytes into(data.size + 1, 0xA5);  // one guard byte past the end
    codec.decode_into(encoded, into.data(), data.size);
    if (!std::equal(original.begin(), original.end(), into.begin()) || into.back() != 0xA5) {
      return ::testing::AssertionFailure() << codec.config_json() << ": " << data.size
                                           << " bytes: decode_into differs or wrote past the end";
    }
    // One byte too few: the codec refuses rather than overrun or truncate.
    if (data.size > 0) {
      bool refused = false;
      try {
        codec.decode_into(encoded, into.data(), data.size - 1);
      } catch (const Error& e) {
        refused = e.code() == ZARR_ERR_CODEC;
      }
      if (!refused) {
        return ::testing::AssertionFailure() << codec.config_json() << ": decode_into with a size one short of "
                                             << data.size << " was not ZARR_ERR_CODEC";
      }
    }
  } catch (const Error& e) {
    return ::testing::AssertionFailure() << codec.config_json() << ": " << data.size << " bytes (encoded "
                                         << encoded.size() << "): " << e.what();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult fails_with(int code, std::initializer_list<std::string> needles,
                                      const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    if (e.code() != code) {
      return ::testing::AssertionFailure() << "error code " << e.code() << " instead of " << code << ": "
                                           << e.what();
    }
    for (const std::string& needle : needles) {
      if (std::string(e.what()).find(needle) == std::string::npos) {
        return ::testing::AssertionFailure() << "message lacks '" << needle << "': " << e.what();
      }
    }
    return ::testing::AssertionSuccess() << e.what();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "non-zarr exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "no exception";
}

std::vector<std::string> built_codec_ids() {
  std::vector<std::string> ids;
  if (ZARR_HAVE_BLOSC) ids.push_back("blosc");
  if (ZARR_HAVE_BZ2) ids.push_back("bz2");
  if (ZARR_HAVE_ZLIB) ids.push_back("gzip");
  if (ZARR_HAVE_LZ4) ids.push_back("lz4");
  if (ZARR_HAVE_LZMA) ids.push_back("lzma");
  if (ZARR_HAVE_ZLIB) ids.push_back("zlib");
  if (ZARR_HAVE_ZSTD) ids.push_back("zstd");
  return ids;
}

}  // namespace zarr::test
