// Variable-length elements (strings, byte strings) and their array->bytes
// codecs: "vlen-utf8" and "vlen-bytes" (numcodecs' layout, v2 filter ids and
// v3 names alike) and v2's "json2".
//
// A decoded chunk of such elements is held as one byte buffer: (n + 1) native
// uint64 offsets, then the elements' bytes back to back; element i is
// data[offsets[i], offsets[i + 1]). No per-element allocation anywhere.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "codecs/codec.h"

namespace zarr::vlen {

// Read access to a decoded chunk; validated on construction (ZARR_ERR_CODEC).
class ChunkView {
 public:
  ChunkView(const Bytes& chunk, uint64_t expected_count);
  size_t size() const { return count_; }
  std::string_view item(size_t i) const;

 private:
  size_t count_ = 0;
  const uint8_t* offsets_ = nullptr;  // count_ + 1 uint64 (may be unaligned)
  const uint8_t* data_ = nullptr;
  size_t data_size_ = 0;
};

// Build a decoded chunk from elements.
Bytes pack(const std::vector<std::string_view>& items);

// The v2 object codecs: an object ("|O") array's first filter, which stores
// its variable-length elements ("vlen-utf8", "vlen-bytes", "json2").
bool is_object_codec(const std::string& id);

std::shared_ptr<const ArrayToBytesCodec> make_vlen_codec(const std::string& name);  // "vlen-utf8" / "vlen-bytes"
std::shared_ptr<const ArrayToBytesCodec> make_json2_codec(const rapidjson::Value& config);

}  // namespace zarr::vlen
