#include "codecs/codec_util.h"

#include <algorithm>
#include <utility>

#include "base/error.h"
#include "base/json.h"

namespace zarr::codecs {

void codec_error(const std::string& id, const std::string& what) {
  fail(ZARR_ERR_CODEC, "codec '" + id + "': " + what);
}

void check_decoded_size(const std::string& id, size_t decoded, size_t expected) {
  if (expected != 0 && decoded != expected) {
    codec_error(id, "decoded " + std::to_string(decoded) + " bytes, expected " + std::to_string(expected));
  }
}

void fail_beyond_most(const std::string& id, size_t most) {
  codec_error(id, "decoded more than the " + std::to_string(most) +
                      " bytes allowed (what the chunk's metadata implies; for variable-length chunks, the store "
                      "option \"max_value_bytes\")");
}

void check_at_most(const std::string& id, size_t decoded, size_t most) {
  if (decoded > most) fail_beyond_most(id, most);
}

// --- OutputBuffer -------------------------------------------------------------

OutputBuffer::OutputBuffer(std::string codec_id, size_t expected, size_t initial, size_t most)
    : id_(std::move(codec_id)), expected_(expected), most_(most) {
  owned_.resize(expected_ != 0 ? expected_ : std::min(std::max<size_t>(initial, 64), most_));
  data_ = owned_.data();
  capacity_ = owned_.size();
}

OutputBuffer::OutputBuffer(std::string codec_id, CallerBuffer, uint8_t* target, size_t size)
    : id_(std::move(codec_id)), expected_(size), external_(true), data_(target), capacity_(size) {}

uint8_t* OutputBuffer::next() {
  if (!full()) return data_ + used_;
  if (at_end()) return spill_;
  // Unknown size: grow by half again, which keeps copying linear overall.
  owned_.resize(std::min(owned_.size() + owned_.size() / 2 + 64, most_));
  data_ = owned_.data();
  capacity_ = owned_.size();
  return data_ + used_;
}

size_t OutputBuffer::room() const { return full() ? sizeof(spill_) : capacity_ - used_; }

void OutputBuffer::commit(size_t n) {
  if (n == 0) return;
  if (full()) {
    // Only a known size or the most reached leaves the buffer full when
    // next() was called, so these bytes went to the spill area: the data is
    // longer than the metadata allows.
    if (!fixed()) fail_beyond_most(id_, most_);
    codec_error(id_, "decoded more than the expected " + std::to_string(expected_) + " bytes");
  }
  used_ += n;
}

void OutputBuffer::append(const uint8_t* data, size_t n) {
  while (n > 0) {
    uint8_t* dst = next();
    size_t piece = std::min(n, room());
    std::copy(data, data + piece, dst);
    commit(piece);
    data += piece;
    n -= piece;
  }
}

Bytes OutputBuffer::finish() {
  check_decoded_size(id_, used_, expected_);
  owned_.resize(used_);
  owned_.shrink_to_fit();
  return std::move(owned_);
}

void OutputBuffer::finish_into() { check_exact_size(id_, used_, expected_); }

void check_exact_size(const std::string& id, size_t decoded, size_t expected) {
  if (decoded != expected) {
    codec_error(id, "decoded " + std::to_string(decoded) + " bytes, expected " + std::to_string(expected));
  }
}

// --- SizedDecoderCodec ----------------------------------------------------------

Bytes SizedDecoderCodec::decode(ByteView encoded, size_t expected_size) const {
  Bytes out(stated_size(encoded, expected_size));
  decompress(encoded, out.data(), out.size());
  return out;
}

Bytes SizedDecoderCodec::decode_at_most(ByteView encoded, size_t max_size) const {
  const size_t size = stated_size(encoded, 0);
  check_at_most(id(), size, max_size);  // before the size is allocated
  Bytes out(size);
  decompress(encoded, out.data(), out.size());
  return out;
}

std::optional<uint64_t> SizedDecoderCodec::max_encoded_size(uint64_t decoded_size) const {
  return compressed_size_bound(decoded_size);
}

void SizedDecoderCodec::decode_into(ByteView encoded, uint8_t* out, size_t out_size) const {
  const size_t size = stated_size(encoded, out_size);
  check_exact_size(id(), size, out_size);  // out_size 0 is a size here, not "unknown"
  decompress(encoded, out, size);
}

// --- StreamingDecoderCodec ------------------------------------------------------

Bytes StreamingDecoderCodec::decode(ByteView encoded, size_t expected_size) const {
  OutputBuffer out(id(), expected_size, initial_decode_guess(encoded.size));
  decode_to(encoded, out);
  return out.finish();
}

Bytes StreamingDecoderCodec::decode_at_most(ByteView encoded, size_t max_size) const {
  OutputBuffer out(id(), 0, initial_decode_guess(encoded.size), max_size);
  decode_to(encoded, out);
  return out.finish();
}

std::optional<uint64_t> StreamingDecoderCodec::max_encoded_size(uint64_t decoded_size) const {
  return compressed_size_bound(decoded_size);
}

void StreamingDecoderCodec::decode_into(ByteView encoded, uint8_t* out, size_t out_size) const {
  OutputBuffer target(id(), OutputBuffer::CallerBuffer{}, out, out_size);
  decode_to(encoded, target);
  target.finish_into();
}

size_t initial_decode_guess(size_t encoded_size) {
  // Typical chunk compression ratios are 2-10x; start at 4x, bounded so a
  // tiny input does not start with a huge buffer nor a big one with 4x.
  constexpr size_t kMin = 4096;
  constexpr size_t kMax = size_t{64} << 20;
  size_t guess = encoded_size > kMax / 4 ? kMax : encoded_size * 4;
  return std::clamp(guess, kMin, kMax);
}

// --- ConfigReader ---------------------------------------------------------------

ConfigReader::ConfigReader(const rapidjson::Value& config, std::string codec_id, std::string prefix)
    : config_(config), id_(std::move(codec_id)), prefix_(std::move(prefix)) {
  if (config_.IsObject()) return;
  if (!prefix_.empty()) {
    // "filters[0]." names the field "filters[0]"
    fail(ZARR_ERR_INVALID_METADATA, "codec '" + id_ + "': field '" + prefix_.substr(0, prefix_.size() - 1) +
                                        "' must be a JSON object, got " + json::to_string(config_));
  }
  fail(ZARR_ERR_INVALID_METADATA,
       "codec '" + id_ + "': configuration must be a JSON object, got " + json::to_string(config_));
}

const rapidjson::Value* ConfigReader::find(const char* name) const { return json::find(config_, name); }

void ConfigReader::invalid(const char* name, const std::string& rule, const rapidjson::Value& got) const {
  fail(ZARR_ERR_INVALID_METADATA,
       "codec '" + id_ + "': field '" + prefix_ + name + "' must be " + rule + ", got " + json::to_string(got));
}

void ConfigReader::unsupported(const std::string& what) const {
  fail(ZARR_ERR_UNSUPPORTED, "codec '" + id_ + "': " + what);
}

std::optional<int64_t> ConfigReader::nullable_integer(const char* name, int64_t lo, int64_t hi) const {
  const rapidjson::Value* v = find(name);
  if (!v || v->IsNull()) return std::nullopt;
  if (!v->IsInt64()) invalid(name, "an integer", *v);
  int64_t value = v->GetInt64();
  if (value < lo || value > hi) invalid(name, std::to_string(lo) + ".." + std::to_string(hi), *v);
  return value;
}

int64_t ConfigReader::integer(const char* name, int64_t fallback, int64_t lo, int64_t hi) const {
  const rapidjson::Value* v = find(name);
  if (!v) return fallback;
  // numcodecs passes None on to the library, which rejects it: so do we.
  if (v->IsNull()) invalid(name, "an integer", *v);
  return *nullable_integer(name, lo, hi);
}

bool ConfigReader::boolean(const char* name, bool fallback) const {
  const rapidjson::Value* v = find(name);
  if (!v) return fallback;
  if (!v->IsBool()) invalid(name, "true or false", *v);
  return v->GetBool();
}

std::string ConfigReader::string(const char* name, const std::string& fallback) const {
  const rapidjson::Value* v = find(name);
  if (!v) return fallback;
  if (!v->IsString()) invalid(name, "a string", *v);
  return std::string(v->GetString(), v->GetStringLength());
}

// --- ConfigWriter ---------------------------------------------------------------

ConfigWriter::ConfigWriter(const std::string& codec_id) : writer_(buf_) {
  writer_.StartObject();
  add_string("id", codec_id);
}

ConfigWriter& ConfigWriter::add_int(const char* name, int64_t value) {
  writer_.Key(name);
  writer_.Int64(value);
  return *this;
}

ConfigWriter& ConfigWriter::add_string(const char* name, const std::string& value) {
  writer_.Key(name);
  writer_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  return *this;
}

ConfigWriter& ConfigWriter::add_bool(const char* name, bool value) {
  writer_.Key(name);
  writer_.Bool(value);
  return *this;
}

ConfigWriter& ConfigWriter::add_null(const char* name) {
  writer_.Key(name);
  writer_.Null();
  return *this;
}

ConfigWriter& ConfigWriter::add_json(const char* name, const rapidjson::Value& value) {
  writer_.Key(name);
  value.Accept(writer_);
  return *this;
}

std::string ConfigWriter::str() {
  writer_.EndObject();
  return std::string(buf_.GetString(), buf_.GetSize());
}

}  // namespace zarr::codecs
