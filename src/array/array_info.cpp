// Array::info_json: the figures zarr-python's `info` prints, as JSON
// (zarr_info in the C API, `zarrtool info`).
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "array/array.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
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

}  // namespace

static bool is_metadata_key(const std::string& key) {
  return key == ".zarray" || key == ".zattrs" || key == "zarr.json" || key == "meta" || key == "attrs";
}

// Adds the stored size of `key` to `total`. A store whose sizes add up past
// 2^64 - 1 bytes is reporting nonsense (a hostile server's listing): an error
// rather than a wrapped figure.
static void add_stored_size(uint64_t& total, const Store& store, const std::string& key) {
  const std::optional<uint64_t> sum = checked_add<uint64_t>(total, store.value_size(key).value_or(0));
  if (!sum) {
    fail(ZARR_ERR_IO, "the sizes " + describe_node(store, "") + " gives for its keys add up past 2^64 - 1 bytes "
                      "(at key '" + key + "')");
  }
  total = *sum;
}

std::optional<Array::StoredKeys> Array::stored_keys(bool with_sizes) const {
  const bool separate = chunk_store_ != store_;
  if (!chunk_store_->listable() || (separate && !store_->listable())) return std::nullopt;
  const std::string prefix = chunk_path_.empty() ? "" : chunk_path_ + "/";
  const ChunkGrid grid(shape(), meta_.chunks);
  StoredKeys keys;
  std::vector<uint64_t> coords;
  for (const std::string& key : chunk_store_->list_prefix(prefix)) {
    const std::string local = key.substr(prefix.size());
    if (with_sizes) add_stored_size(keys.nbytes, *chunk_store_, key);
    if (parse_chunk_key(local, meta_.key_encoding, ndim(), coords) && grid.contains_chunk(coords)) {
      keys.chunks.push_back(coords);
    } else if (!is_metadata_key(local)) {
      keys.stray.push_back(local);
    }
  }
  if (separate && with_sizes) {
    // The metadata keys, in their own store, count toward the bytes stored.
    const std::string meta_prefix = path_.empty() ? "" : path_ + "/";
    for (const std::string& key : store_->list_prefix(meta_prefix)) {
      if (is_metadata_key(key.substr(meta_prefix.size()))) add_stored_size(keys.nbytes, *store_, key);
    }
  }
  return keys;
}

Array::StoredFigures Array::stored_figures() const {
  StoredFigures figures;
  const std::optional<StoredKeys> keys = stored_keys(true);
  if (!keys) return figures;
  figures.nbytes_stored = keys->nbytes;
  figures.chunks_initialized = keys->chunks.size();
  return figures;
}

std::string Array::stored_chunks_json() const {
  const std::optional<StoredKeys> keys = stored_keys(false);
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

std::string Array::info_json() const {
  const std::string metadata = metadata_json();
  const rapidjson::Document doc = json::parse(metadata, "array metadata");
  const std::vector<uint64_t> current_shape = shape();
  const StoredFigures stored = stored_figures();
  const auto* sharding = dynamic_cast<const ShardingCodec*>(meta_.codecs.array_to_bytes().get());

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
  // zarr-python 3's terms: "chunks" are what codecs see one at a time (the
  // inner chunks of a sharded array), "shards" the stored keys' shape.
  write_list(w, "chunks", sharding ? sharding->inner_chunk_shape() : meta_.chunks);
  if (sharding) {
    write_list(w, "shards", meta_.chunks);
  } else {
    w.Key("shards");
    w.Null();
  }
  if (meta_.zarr_format == 3) {
    copy_member(w, doc, "codecs");
  } else {
    w.Key("codecs");
    w.StartObject();
    copy_member(w, doc, "order");
    copy_member(w, doc, "filters");
    copy_member(w, doc, "compressor");
    w.EndObject();
  }
  copy_member(w, doc, "fill_value");
  copy_member(w, doc, "dimension_names");
  w.Key("attributes");
  const rapidjson::Document attributes = json::parse(attributes_json(), "array attributes");
  attributes.Accept(w);
  // Variable-length elements have no fixed size: their logical bytes are unknown.
  w.Key("nbytes");
  if (variable_length_) {
    w.Null();
  } else {
    // Both fit: validate_shape refuses shapes whose byte size would not.
    const uint64_t elements = checked_product(current_shape, "shape", ZARR_ERR_INVALID_METADATA);
    const std::optional<uint64_t> nbytes = checked_mul<uint64_t>(elements, meta_.dtype.item_size());
    if (!nbytes) fail(ZARR_ERR_INVALID_METADATA, "shape: byte size overflows 64 bits");
    w.Uint64(*nbytes);
  }
  w.Key("nbytes_stored");
  stored.nbytes_stored ? static_cast<void>(w.Uint64(*stored.nbytes_stored)) : static_cast<void>(w.Null());
  w.Key("chunks_initialized");
  stored.chunks_initialized ? static_cast<void>(w.Uint64(*stored.chunks_initialized)) : static_cast<void>(w.Null());
  w.Key("chunks_total");
  w.Uint64(ChunkGrid(current_shape, meta_.chunks).chunk_count());
  // Stores describe themselves without secrets; scrubbed all the same, as
  // every text shown to people is (base/scrub.h).
  w.Key("store");
  w.String(scrub_secrets(store_->describe()).c_str());
  w.Key("path");
  w.String(path_.c_str());
  w.Key("chunk_store");
  if (chunk_store_ != store_) {
    w.String(scrub_secrets(describe_node(*chunk_store_, chunk_path_)).c_str());
  } else {
    w.Null();
  }
  w.Key("cache_pool");
  if (cache_) {
    w.StartObject();
    w.Key("total_bytes_limit");
    w.Uint64(options_.cache_bytes);
    w.Key("bytes_used");
    w.Uint64(cache_->bytes_used());
    w.Key("chunks_held");
    w.Uint64(cache_->chunks_held());
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace zarr
