// libFuzzer target: every registered codec's decoder, through the codec C
// API. The input is a codec configuration (v2 {"id":...} or v3 form) up to
// the first newline, then the encoded bytes: the fuzzer explores
// configurations and payloads together, and the seeds (scripts/fuzz.sh)
// pair numcodecs' fixture configurations with their encoded files.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "zarr/zarr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const void* newline = std::memchr(data, '\n', size);
  if (!newline) return 0;
  const size_t config_size = static_cast<size_t>(static_cast<const uint8_t*>(newline) - data);
  const std::string config(reinterpret_cast<const char*>(data), config_size);
  zarr_codec* codec = nullptr;
  if (zarr_codec_create(&codec, config.c_str()) != ZARR_OK) return 0;
  void* out = nullptr;
  size_t out_size = 0;
  if (zarr_codec_decode(codec, data + config_size + 1, size - config_size - 1, &out, &out_size) == ZARR_OK) {
    zarr_free(out);
  }
  zarr_codec_free(codec);
  return 0;
}
