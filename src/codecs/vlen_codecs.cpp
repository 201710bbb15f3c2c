#include "codecs/vlen_codecs.h"

#include "codecs/builtin_codecs.h"

#include <cstring>

#include "base/error.h"
#include "base/json.h"

namespace zarr::vlen {

namespace {

uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

void append_le32(Bytes& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// numcodecs' VLenUTF8 / VLenBytes layout: uint32 LE count, then for each
// element a uint32 LE length and the bytes.
class VlenCodec final : public ArrayToBytesCodec {
 public:
  explicit VlenCodec(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string v3_config_json() const override { return "{\"name\":\"" + name_ + "\",\"configuration\":{}}"; }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    ChunkView items(chunk, decoded.elements());
    Bytes out;
    append_le32(out, static_cast<uint32_t>(items.size()));
    for (size_t i = 0; i < items.size(); ++i) {
      std::string_view item = items.item(i);
      if (item.size() > UINT32_MAX) fail(ZARR_ERR_CODEC, "codec '" + name_ + "': element of 4 GiB or more");
      append_le32(out, static_cast<uint32_t>(item.size()));
      out.insert(out.end(), item.begin(), item.end());
    }
    return out;
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    if (stored.size < 4) fail(ZARR_ERR_CODEC, "codec '" + name_ + "': chunk shorter than its 4-byte header");
    const uint64_t count = load_le32(stored.data);
    if (count != decoded.elements()) {
      fail(ZARR_ERR_CODEC, "codec '" + name_ + "': chunk holds " + std::to_string(count) + " elements, expected " +
                               std::to_string(decoded.elements()));
    }
    // Each element takes at least its 4-byte length: a count the chunk
    // cannot hold is refused before anything is allocated for it.
    if (count > (stored.size - 4) / 4) {
      fail(ZARR_ERR_CODEC, "codec '" + name_ + "': a chunk of " + std::to_string(stored.size) +
                               " bytes cannot hold " + std::to_string(count) + " elements (4 bytes each at least)");
    }
    std::vector<std::string_view> items;
    items.reserve(static_cast<size_t>(count));
    size_t pos = 4;
    for (uint64_t i = 0; i < count; ++i) {
      if (stored.size - pos < 4) fail(ZARR_ERR_CODEC, "codec '" + name_ + "': chunk truncated at element " + std::to_string(i));
      uint32_t len = load_le32(stored.data + pos);
      pos += 4;
      if (stored.size - pos < len) fail(ZARR_ERR_CODEC, "codec '" + name_ + "': element " + std::to_string(i) + " runs past the chunk");
      items.emplace_back(reinterpret_cast<const char*>(stored.data + pos), len);
      pos += len;
    }
    return pack(items);
  }

 private:
  std::string name_;
};

// v2's json2 object codec: the chunk is a JSON list of its elements followed
// by the dtype string and the chunk shape, e.g. ["a","bb","|O",[2]].
// Only string elements are supported (the C API carries bytes, not objects).
class Json2Codec final : public ArrayToBytesCodec {
 public:
  explicit Json2Codec(std::string config) : config_(std::move(config)) {}
  std::string name() const override { return "json2"; }
  std::string v3_config_json() const override { return config_; }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    ChunkView items(chunk, decoded.elements());
    rapidjson::Document doc(rapidjson::kArrayType);
    auto& alloc = doc.GetAllocator();
    for (size_t i = 0; i < items.size(); ++i) {
      std::string_view s = items.item(i);
      doc.PushBack(rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), alloc), alloc);
    }
    doc.PushBack(rapidjson::Value("|O", alloc), alloc);
    rapidjson::Value shape(rapidjson::kArrayType);
    for (uint64_t e : decoded.shape) shape.PushBack(rapidjson::Value(e), alloc);
    doc.PushBack(shape, alloc);
    std::string text = json::to_string(doc);
    return Bytes(text.begin(), text.end());
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    rapidjson::Document doc;
    try {
      doc = json::parse(stored.to_string(), "json2 chunk");
    } catch (const Error& e) {
      fail(ZARR_ERR_CODEC, std::string("codec 'json2': ") + e.what());
    }
    if (!doc.IsArray() || doc.Size() < 2 || doc.Size() - 2 != decoded.elements()) {
      fail(ZARR_ERR_CODEC, "codec 'json2': expected a list of " + std::to_string(decoded.elements()) +
                               " elements followed by the dtype and the shape");
    }
    std::vector<std::string_view> items;
    for (rapidjson::SizeType i = 0; i + 2 < doc.Size(); ++i) {
      if (!doc[i].IsString()) {
        fail(ZARR_ERR_UNSUPPORTED, "codec 'json2': element " + std::to_string(i) + " is " + json::to_string(doc[i]) +
                                       ", not a string (only string elements are supported)");
      }
      items.emplace_back(doc[i].GetString(), doc[i].GetStringLength());
    }
    return pack(items);
  }

 private:
  std::string config_;
};

}  // namespace

ChunkView::ChunkView(const Bytes& chunk, uint64_t expected_count) {
  const uint64_t header = (expected_count + 1) * 8;
  if (expected_count > chunk.size() / 8 || chunk.size() < header) {
    fail(ZARR_ERR_CODEC, "variable-length chunk of " + std::to_string(chunk.size()) + " bytes cannot hold " +
                             std::to_string(expected_count) + " elements");
  }
  count_ = static_cast<size_t>(expected_count);
  offsets_ = chunk.data();
  data_ = chunk.data() + header;
  data_size_ = chunk.size() - static_cast<size_t>(header);
  uint64_t previous = 0;
  for (size_t i = 0; i <= count_; ++i) {
    uint64_t off = load_u64(offsets_ + 8 * i);
    if (off < previous || off > data_size_) fail(ZARR_ERR_CODEC, "variable-length chunk has a bad offset table");
    previous = off;
  }
}

std::string_view ChunkView::item(size_t i) const {
  uint64_t begin = load_u64(offsets_ + 8 * i), end = load_u64(offsets_ + 8 * (i + 1));
  return std::string_view(reinterpret_cast<const char*>(data_ + begin), static_cast<size_t>(end - begin));
}

Bytes pack(const std::vector<std::string_view>& items) {
  size_t total = 0;
  for (auto item : items) total += item.size();
  Bytes out((items.size() + 1) * 8 + total);
  uint64_t off = 0;
  uint8_t* data = out.data() + (items.size() + 1) * 8;
  for (size_t i = 0; i < items.size(); ++i) {
    std::memcpy(out.data() + 8 * i, &off, 8);
    if (!items[i].empty()) std::memcpy(data + off, items[i].data(), items[i].size());
    off += items[i].size();
  }
  std::memcpy(out.data() + 8 * items.size(), &off, 8);
  return out;
}

std::shared_ptr<const ArrayToBytesCodec> make_vlen_codec(const std::string& name) {
  return std::make_shared<VlenCodec>(name);
}

bool is_object_codec(const std::string& id) { return id == "vlen-utf8" || id == "vlen-bytes" || id == "json2"; }

std::shared_ptr<const ArrayToBytesCodec> make_json2_codec(const rapidjson::Value& config) {
  return std::make_shared<Json2Codec>(json::to_string(config));
}

}  // namespace zarr::vlen

namespace zarr::codecs {

V3Codec make_vlen_utf8_v3(const V3CodecRequest&) { return V3Codec{nullptr, vlen::make_vlen_codec("vlen-utf8"), nullptr}; }
V3Codec make_vlen_bytes_v3(const V3CodecRequest&) { return V3Codec{nullptr, vlen::make_vlen_codec("vlen-bytes"), nullptr}; }

}  // namespace zarr::codecs
