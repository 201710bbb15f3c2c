// Opening, creating and assuming an array: its metadata read from the
// store, written to it, or taken as given (array/array.h).
#include "array/array.h"
#include "array/engine/chunk_engine.h"
#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "codecs/experimental.h"
#include "metadata/nodes.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

Array::Array(std::shared_ptr<Store> store, std::string path, bool writable, ArrayOptions options,
             ArrayMetadata meta)
    : store_(std::move(store)),
      path_(std::move(path)),
      writable_(writable),
      options_(options),
      meta_(std::move(meta)) {
  const bool own_chunk_store = options_.chunk_location.store != nullptr;
  std::shared_ptr<Store> chunk_store = own_chunk_store ? std::move(options_.chunk_location.store) : store_;
  std::string chunk_path = own_chunk_store ? options_.chunk_location.path : path_;
  meta_.codecs.limit_open_sizes(chunk_store->value_limit());
  std::optional<std::string> v3 = meta_.dtype.v3_name();
  data_type_name_ = v3 ? *v3 : meta_.dtype.to_v2_json();
  engine_ = std::make_unique<ChunkEngine>(meta_, std::move(chunk_store), std::move(chunk_path), options_);
}

Array::~Array() = default;

std::unique_ptr<Array> Array::open(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                   const ArrayOptions& options) {
  NodeInfo node = node_info(*store, path, options.zarr_format);
  const std::string key = path::join(path, node.metadata_key);
  switch (node.kind) {
    case NodeKind::Array: {
      std::string text = ByteView(*store->get(key)).to_string();
      ArrayMetadata meta = node.zarr_format == 3 ? parse_v3_array_metadata(text, key) : parse_v2_array_metadata(text, key);
      return std::unique_ptr<Array>(new Array(std::move(store), path, writable, options, std::move(meta)));
    }
    case NodeKind::LegacyV1Array: {
      if (writable) {
        fail(ZARR_ERR_READ_ONLY, "array " + describe_node(*store, path) +
                                     " is a legacy Zarr v1 array: open it with mode \"r\", or migrate it "
                                     "to v2 with zarr_migrate_v1_to_v2");
      }
      std::string text = ByteView(*store->get(key)).to_string();
      ArrayMetadata meta = parse_v1_array_metadata(text, key);
      std::unique_ptr<Array> array(new Array(std::move(store), path, false, options, std::move(meta)));
      array->legacy_metadata_ = std::move(text);
      return array;
    }
    case NodeKind::Group:
      fail(ZARR_ERR_NOT_FOUND, "no array at " + describe_node(*store, path) + ": it is a group");
    case NodeKind::None:
      break;
  }
  static const char* const kLookedFor[] = {".zarray or zarr.json", "meta", ".zarray", "zarr.json"};
  fail(ZARR_ERR_NOT_FOUND,
       "no array at " + describe_node(*store, path) + " (no " + kLookedFor[options.zarr_format] + " key)");
}

int metadata_document_format(const std::string& metadata_json, const std::string& where) {
  // A v3 document says zarr_format 3, or uses v3's member names.
  rapidjson::Document doc = json::parse_object(metadata_json, where);
  const rapidjson::Value* format = json::find(doc, "zarr_format");
  if (format && format->IsInt() && format->GetInt() == 3) return 3;
  if (!format && (json::find(doc, "data_type") || json::find(doc, "node_type"))) return 3;
  return 2;
}

std::unique_ptr<Array> Array::create(std::shared_ptr<Store> store, const std::string& path,
                                     const std::string& metadata_json, const ArrayOptions& options) {
  const std::string where = "metadata for " + describe_node(*store, path);
  const int format = metadata_document_format(metadata_json, where);
  if (options.zarr_format != 0 && options.zarr_format != format) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'zarr_format' is " + std::to_string(options.zarr_format) +
                                        " but the metadata document is Zarr v" + std::to_string(format));
  }
  ArrayMetadata meta = format == 3 ? parse_v3_array_metadata_for_create(metadata_json, where)
                                   : parse_v2_array_metadata_for_create(metadata_json, where);
  if (meta.dtype.kind() == DTypeKind::Optional) require_optional_writes(where);
  validate_node_names(path, format, where);
  require_absent(*store, path);
  create_parent_groups(*store, path, format, "array");
  const std::string v2_attributes = format == 2 && meta.attributes_json != "{}" ? meta.attributes_json : "";
  std::unique_ptr<Array> array(new Array(std::move(store), path, true, options, std::move(meta)));
  if (v2_attributes.empty()) {
    array->write_metadata_document();
    return array;
  }
  // .zattrs before .zarray, so the array appears whole; a failed .zarray
  // takes its .zattrs away again.
  const std::string attrs_key = path::join(path, kV2AttrsKey);
  write_attributes(*array->store_, attrs_key, v2_attributes);
  try {
    array->write_metadata_document();
  } catch (...) {
    try {
      array->store_->erase(attrs_key);
    } catch (...) {
      // The error of the .zarray is the one to report.
    }
    throw;
  }
  return array;
}

std::unique_ptr<Array> Array::assume(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                     const std::string& metadata_json, const ArrayOptions& options,
                                     const std::string& reason) {
  const std::string where = "metadata assumed for " + describe_node(*store, path);
  const int format = metadata_document_format(metadata_json, where);
  ArrayMetadata meta = format == 3 ? parse_v3_array_metadata_for_create(metadata_json, where)
                                   : parse_v2_array_metadata_for_create(metadata_json, where);
  std::unique_ptr<Array> array(new Array(std::move(store), path, writable, options, std::move(meta)));
  array->metadata_assumed_ = reason;
  return array;
}

}  // namespace zarr
