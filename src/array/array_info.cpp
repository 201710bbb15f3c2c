// Array::info_json: the figures zarr-python's `info` prints, as JSON
// (zarr_info in the C API, `zarrtool info`).
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "array/array.h"
#include "array/engine/chunk_engine.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "base/scrub.h"
#include "codecs/sharding_codec.h"
#include "grid/chunk_grid.h"
#include "metadata/nodes.h"

namespace zarr {

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::UTF8<>,
                                     rapidjson::CrtAllocator, rapidjson::kWriteNanAndInfFlag>;

void write_list(JsonWriter& w, const char* name, const std::vector<uint64_t>& values) {
  w.Key(name);
  w.StartArray();
  for (uint64_t v : values) w.Uint64(v);
  w.EndArray();
}

// A member of the metadata document, copied as it is (null when absent).
void copy_member(JsonWriter& w, const rapidjson::Value& doc, const char* name) {
  w.Key(name);
  const rapidjson::Value* v = json::find(doc, name);
  if (v) {
    v->Accept(w);
  } else {
    w.Null();
  }
}

bool is_metadata_key(const std::string& key) {
  return key == kV2ArrayKey || key == kV2AttrsKey || key == kV3MetadataKey || key == kV1MetaKey || key == kV1AttrsKey;
}

// Adds the stored size of `key` to `total`. A store whose sizes add up past
// 2^64 - 1 bytes is reporting nonsense (a hostile server's listing): an error
// rather than a wrapped figure.
void add_stored_size(uint64_t& total, const Store& store, const std::string& key) {
  const std::optional<uint64_t> sum = checked_add<uint64_t>(total, store.value_size(key).value_or(0));
  if (!sum) {
    fail(ZARR_ERR_IO, "the sizes " + describe_node(store, "") + " gives for its keys add up past 2^64 - 1 bytes "
                      "(at key '" + key + "')");
  }
  total = *sum;
}

// Where an array's keys are: its metadata's store and path, its chunks'.
struct ArrayPlaces {
  const Store& store;
  const std::string& path;
  const Store& chunk_store;
  const std::string& chunk_path;
  bool apart() const { return &chunk_store != &store; }
};

// The keys under the array (relative to it), sorted into chunks inside the
// grid, metadata keys, and the rest; nullopt when the store cannot list.
struct StoredKeys {
  std::vector<std::vector<uint64_t>> chunks;  // grid indices
  std::vector<std::string> stray;
  uint64_t nbytes = 0;                        // every key's size, metadata included
};

std::optional<StoredKeys> stored_keys(const ArrayPlaces& at, const ChunkGrid& grid, const ChunkKeyEncoding& encoding,
                                      bool with_sizes) {
  if (!at.chunk_store.listable() || (at.apart() && !at.store.listable())) return std::nullopt;
  const std::string prefix = at.chunk_path.empty() ? "" : at.chunk_path + "/";
  StoredKeys keys;
  std::vector<uint64_t> coords;
  for (const std::string& key : at.chunk_store.list_prefix(prefix)) {
    const std::string local = key.substr(prefix.size());
    if (with_sizes) add_stored_size(keys.nbytes, at.chunk_store, key);
    if (parse_chunk_key(local, encoding, grid.ndim(), coords) && grid.contains_chunk(coords)) {
      keys.chunks.push_back(coords);
    } else if (!is_metadata_key(local)) {
      keys.stray.push_back(local);
    }
  }
  if (at.apart() && with_sizes) {
    // The metadata keys, in their own store, count toward the bytes stored.
    const std::string meta_prefix = at.path.empty() ? "" : at.path + "/";
    for (const std::string& key : at.store.list_prefix(meta_prefix)) {
      if (is_metadata_key(key.substr(meta_prefix.size()))) add_stored_size(keys.nbytes, at.store, key);
    }
  }
  return keys;
}

void write_optional(JsonWriter& w, const char* name, const std::optional<uint64_t>& value) {
  w.Key(name);
  value ? static_cast<void>(w.Uint64(*value)) : static_cast<void>(w.Null());
}

// zarr-python 3's terms: "chunks" are what codecs see one at a time (the
// inner chunks of a sharded array), "shards" the stored keys' shape.
void write_chunking(JsonWriter& w, const ArrayMetadata& meta) {
  const auto* sharding = dynamic_cast<const ShardingCodec*>(meta.codecs.array_to_bytes().get());
  write_list(w, "chunks", sharding ? sharding->inner_chunk_shape() : meta.chunks);
  if (sharding) {
    write_list(w, "shards", meta.chunks);
  } else {
    w.Key("shards");
    w.Null();
  }
}

// v3's codecs as they are; v2's order, filters and compressor as an object.
void write_codecs(JsonWriter& w, const rapidjson::Document& doc, int zarr_format) {
  if (zarr_format == 3) {
    copy_member(w, doc, "codecs");
    return;
  }
  w.Key("codecs");
  w.StartObject();
  copy_member(w, doc, "order");
  copy_member(w, doc, "filters");
  copy_member(w, doc, "compressor");
  w.EndObject();
}

// The logical bytes of the shape; null for variable-length elements, which
// have no fixed size.
void write_nbytes(JsonWriter& w, const std::vector<uint64_t>& shape, size_t item_size, bool variable_length) {
  std::optional<uint64_t> nbytes;
  if (!variable_length) {
    // Both fit: validate_shape refuses shapes whose byte size would not.
    const uint64_t elements = checked_product(shape, "shape", ZARR_ERR_INVALID_METADATA);
    nbytes = checked_mul<uint64_t>(elements, item_size);
    if (!nbytes) fail(ZARR_ERR_INVALID_METADATA, "shape: byte size overflows 64 bits");
  }
  write_optional(w, "nbytes", nbytes);
}

// Stores describe themselves without secrets; scrubbed all the same, as
// every text shown to people is (base/scrub.h).
void write_places(JsonWriter& w, const ArrayPlaces& at) {
  w.Key("store");
  w.String(scrub_secrets(at.store.describe()).c_str());
  w.Key("path");
  w.String(at.path.c_str());
  w.Key("chunk_store");
  if (at.apart()) {
    w.String(scrub_secrets(describe_node(at.chunk_store, at.chunk_path)).c_str());
  } else {
    w.Null();
  }
}

void write_cache_pool(JsonWriter& w, const ChunkCache* cache, uint64_t limit) {
  w.Key("cache_pool");
  if (!cache) {
    w.Null();
    return;
  }
  w.StartObject();
  w.Key("total_bytes_limit");
  w.Uint64(limit);
  w.Key("bytes_used");
  w.Uint64(cache->bytes_used());
  w.Key("chunks_held");
  w.Uint64(cache->chunks_held());
  w.EndObject();
}

}  // namespace

std::string Array::stored_chunks_json() const {
  const ArrayPlaces at{*store_, path_, *engine_->chunk_store(), engine_->chunk_path()};
  const std::optional<StoredKeys> keys = stored_keys(at, meta_.grid_of(shape()), meta_.key_encoding, false);
  if (!keys) {
    fail(ZARR_ERR_UNSUPPORTED, "cannot list the chunks of array " + describe_node(*store_, path_) +
                                   ": the store cannot list its keys");
  }
  rapidjson::StringBuffer buf;
  JsonWriter w(buf);
  w.StartObject();
  w.Key("chunks");
  w.StartArray();
  for (const std::vector<uint64_t>& index : keys->chunks) {
    w.StartArray();
    for (uint64_t i : index) w.Uint64(i);
    w.EndArray();
  }
  w.EndArray();
  w.Key("stray_keys");
  w.StartArray();
  for (const std::string& key : keys->stray) w.String(key.c_str(), static_cast<rapidjson::SizeType>(key.size()));
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

void Array::chunk_boundaries(size_t axis, uint64_t* out, size_t capacity, size_t* count) const {
  const std::string where = "zarr_chunk_boundaries: array " + describe_node(*store_, path_);
  std::shared_lock lock(shape_mutex_);
  if (axis >= meta_.ndim()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": axis " + std::to_string(axis) + " is not below its " +
                                        std::to_string(meta_.ndim()) + " dimensions");
  }
  const ChunkGrid grid = meta_.grid();
  const uint64_t chunks = grid.axis(axis).chunks_covering(meta_.shape[axis]);
  const std::optional<uint64_t> needed = checked_add<uint64_t>(chunks, 1);
  *count = needed && *needed <= SIZE_MAX ? static_cast<size_t>(*needed) : SIZE_MAX;
  if (!needed || capacity < *needed) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": out holds " + std::to_string(capacity) + " entries, the " +
                                   std::to_string(chunks) + " chunks along axis " + std::to_string(axis) +
                                   " need " + (needed ? std::to_string(*needed) : "2^64"));
  }
  for (uint64_t i = 0; i < chunks; ++i) out[i] = grid.chunk_start(axis, i);
  out[chunks] = meta_.shape[axis];
}

std::string Array::info_json() const {
  const rapidjson::Document doc = json::parse(metadata_json(), "array metadata");
  const std::vector<uint64_t> current_shape = shape();
  const ChunkGrid grid = meta_.grid_of(current_shape);
  const ArrayPlaces at{*store_, path_, *engine_->chunk_store(), engine_->chunk_path()};
  const std::optional<StoredKeys> stored = stored_keys(at, grid, meta_.key_encoding, true);

  rapidjson::StringBuffer buf;
  JsonWriter w(buf);
  w.StartObject();
  w.Key("node_type");
  w.String("array");
  w.Key("zarr_format");
  w.Int(meta_.zarr_format);
  w.Key("data_type");
  w.String(data_type_name_.c_str());
  write_list(w, "shape", current_shape);
  write_chunking(w, meta_);
  if (meta_.rectilinear) copy_member(w, doc, "chunk_grid");  // "chunks" are then the largest edges
  write_codecs(w, doc, meta_.zarr_format);
  copy_member(w, doc, "fill_value");
  copy_member(w, doc, "dimension_names");
  w.Key("attributes");
  const rapidjson::Document attributes = json::parse(attributes_json(), "array attributes");
  attributes.Accept(w);
  write_nbytes(w, current_shape, meta_.dtype.item_size(), engine_->variable_length());
  write_optional(w, "nbytes_stored", stored ? std::optional<uint64_t>(stored->nbytes) : std::nullopt);
  write_optional(w, "chunks_initialized", stored ? std::optional<uint64_t>(stored->chunks.size()) : std::nullopt);
  w.Key("chunks_total");
  w.Uint64(grid.chunk_count());
  write_places(w, at);
  write_cache_pool(w, engine_->cache(), options_.cache_bytes);
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace zarr
