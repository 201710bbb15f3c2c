// Helpers shared by the built-in codecs: reading and writing their v2 JSON
// configuration with errors that name the codec and the field, a bounded
// output buffer for streaming decoders, and the error helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/bytes.h"
#include "base/size_limits.h"
#include "codecs/codec.h"

namespace zarr::codecs {

// ZARR_ERR_CODEC "codec '<id>': <what>".
[[noreturn]] void codec_error(const std::string& id, const std::string& what);

// ZARR_ERR_CODEC "codec '<id>': decoded N bytes, expected M" unless the sizes
// agree or `expected` is 0 (unknown).
void check_decoded_size(const std::string& id, size_t decoded, size_t expected);

// ZARR_ERR_CODEC "codec '<id>': decoded more than the M bytes allowed ..."
// (BytesCodec::decode_at_most).
[[noreturn]] void fail_beyond_most(const std::string& id, size_t most);
// fail_beyond_most unless decoded <= most.
void check_at_most(const std::string& id, size_t decoded, size_t most);

// The most bytes taken for a compressor's output of n bytes (its
// BytesCodec::max_encoded_size): n plus an eighth plus 64 KiB, well above
// every format's worst case (zlib and gzip: n/4096 + 31; bz2: n/100 + 600;
// zstd: n/256 + 64; lz4: n/255 + 20; blosc: n + 16; xz: n/32768 + 100) and
// above what other encoders of them write (flushes, header fields).
inline uint64_t compressed_size_bound(uint64_t n) { return saturating_add(saturating_add(n, n / 8), 64 * 1024); }

// The largest value of T not above n: the C libraries take int or unsigned
// lengths, so big buffers are fed to them in pieces of this size.
template <typename T>
T clamp_to(size_t n) {
  constexpr auto most = static_cast<size_t>(std::numeric_limits<T>::max());
  return static_cast<T>(n < most ? n : most);
}

// Where a streaming encoder or decoder writes its output.
//
// With a known `expected` size the buffer is allocated once at exactly that
// size and never grows: once it is full, next() hands out a small spill area
// so the library can show whether it has more output, and writing there is
// the error "decoded more than the expected N bytes". With expected 0 the
// size is unknown and the buffer grows geometrically from `initial`, so its
// size follows the output actually produced, never a size a header claims,
// up to `most` bytes: output beyond that is fail_beyond_most, found in the
// spill area as for a known size.
//
// Or it writes into a caller's buffer of exactly `size` bytes (decode_into):
// the output must fill it, never more.
class OutputBuffer {
 public:
  struct CallerBuffer {};  // selects the constructor below

  OutputBuffer(std::string codec_id, size_t expected, size_t initial, size_t most = SIZE_MAX);
  OutputBuffer(std::string codec_id, CallerBuffer, uint8_t* target, size_t size);

  // Where the library writes next; room() bytes are free there (never 0).
  uint8_t* next();
  size_t room() const;
  // The library wrote n bytes at next().
  void commit(size_t n);
  // Copy n bytes in (headers and trailers around a library's output).
  void append(const uint8_t* data, size_t n);
  size_t size() const { return used_; }
  // The output, after checking its size against `expected`.
  Bytes finish();
  // For a caller's buffer: check it was filled exactly.
  void finish_into();

 private:
  bool full() const { return used_ == capacity_; }
  bool fixed() const { return external_ || expected_ != 0; }
  // Full with no room to grow into: more output is an error.
  bool at_end() const { return full() && (fixed() || capacity_ >= most_); }

  std::string id_;
  size_t expected_;
  size_t most_ = SIZE_MAX;
  bool external_ = false;  // writing into the caller's buffer
  Bytes owned_;            // the buffer when not external
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  uint8_t spill_[64] = {};
};

// ZARR_ERR_CODEC "codec '<id>': decoded N bytes, expected M" unless they are
// equal; unlike check_decoded_size, an expected 0 is a size (decode_into).
void check_exact_size(const std::string& id, size_t decoded, size_t expected);

// The compressors' expansion bounds (kLz77MaxExpansion...) are in
// base/size_limits.h, which the zip store shares.

// A codec whose encoded form states its decoded size up front (lz4's header,
// blosc's): decode and decode_into both check that size, then decompress.
class SizedDecoderCodec : public BytesCodec {
 public:
  Bytes decode(ByteView encoded, size_t expected_size) const final;
  Bytes decode_at_most(ByteView encoded, size_t max_size) const final;
  void decode_into(ByteView encoded, uint8_t* out, size_t out_size) const final;
  std::optional<uint64_t> max_encoded_size(uint64_t decoded_size) const final;

 protected:
  // The size the encoded data states, checked against `expected_size` (0:
  // unknown) and against the input before anything is allocated.
  virtual size_t stated_size(ByteView encoded, size_t expected_size) const = 0;
  // Decode into `out`, exactly `size` bytes (what stated_size returned).
  virtual void decompress(ByteView encoded, uint8_t* out, size_t size) const = 0;
};

// A codec whose decoder streams into an OutputBuffer (zlib, gzip, bz2, lzma):
// decode and decode_into both run decode_to.
class StreamingDecoderCodec : public BytesCodec {
 public:
  Bytes decode(ByteView encoded, size_t expected_size) const final;
  Bytes decode_at_most(ByteView encoded, size_t max_size) const final;
  void decode_into(ByteView encoded, uint8_t* out, size_t out_size) const final;
  std::optional<uint64_t> max_encoded_size(uint64_t decoded_size) const final;

 protected:
  virtual void decode_to(ByteView encoded, OutputBuffer& out) const = 0;
};

// A first guess at the decoded size when the metadata does not give it.
size_t initial_decode_guess(size_t encoded_size);

// Reads one codec's configuration object. Unknown keys are ignored (other
// writers add their own); present keys of the wrong type or out of range are
// ZARR_ERR_INVALID_METADATA "codec '<id>': field '<name>' must be <rule>, got <json>".
class ConfigReader {
 public:
  // `prefix` names a nested object's place in the configuration (e.g.
  // "filters[0]."), so its errors name the field in full.
  ConfigReader(const rapidjson::Value& config, std::string codec_id, std::string prefix = "");

  const std::string& id() const { return id_; }
  // The member, or nullptr when it is absent.
  const rapidjson::Value* find(const char* name) const;

  // `fallback` when absent; an integer in lo..hi otherwise (null is an error).
  int64_t integer(const char* name, int64_t fallback, int64_t lo, int64_t hi) const;
  // Like integer(), but absent or null gives nullopt (numcodecs' None).
  std::optional<int64_t> nullable_integer(const char* name, int64_t lo, int64_t hi) const;
  bool boolean(const char* name, bool fallback) const;
  std::string string(const char* name, const std::string& fallback) const;

  // ZARR_ERR_INVALID_METADATA "codec '<id>': field '<name>' must be <rule>, got <json>".
  [[noreturn]] void invalid(const char* name, const std::string& rule, const rapidjson::Value& got) const;
  // ZARR_ERR_UNSUPPORTED "codec '<id>': <what>".
  [[noreturn]] void unsupported(const std::string& what) const;

 private:
  const rapidjson::Value& config_;
  std::string id_;
  std::string prefix_;
};

// Writes {"id": "<id>", ...} with members in the order they are added, so
// config_json() lists keys in the order numcodecs' get_config() does.
class ConfigWriter {
 public:
  explicit ConfigWriter(const std::string& codec_id);
  ConfigWriter& add_int(const char* name, int64_t value);
  ConfigWriter& add_string(const char* name, const std::string& value);
  ConfigWriter& add_bool(const char* name, bool value);
  ConfigWriter& add_null(const char* name);
  ConfigWriter& add_json(const char* name, const rapidjson::Value& value);
  std::string str();

 private:
  rapidjson::StringBuffer buf_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

}  // namespace zarr::codecs
