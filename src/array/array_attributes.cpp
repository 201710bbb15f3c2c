// An array's metadata document and attributes: serialised, written back,
// read once per handle (array/array.h).
#include "array/array.h"
#include "base/error.h"
#include "base/json.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "metadata/nodes.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

std::string Array::serialized_metadata() const {
  return meta_.zarr_format == 3 ? serialize_v3_array_metadata(meta_) : serialize_v2_array_metadata(meta_);
}

void Array::write_metadata() {
  if (metadata_assumed_) {
    fail(ZARR_ERR_UNSUPPORTED, "array " + describe_node(*store_, path_) + " was opened with " + *metadata_assumed_ +
                                   ": its stored metadata is never read, so it cannot be changed");
  }
  store_->set(path::join(path_, meta_.zarr_format == 3 ? kV3MetadataKey : kV2ArrayKey), serialized_metadata());
}

std::string Array::metadata_json() const {
  if (meta_.zarr_format == 1) return legacy_metadata_;  // v1 handles are read-only: the stored text holds
  std::shared_lock lock(shape_mutex_);
  return serialized_metadata();
}

std::string Array::attributes_json() const {
  std::shared_lock lock(shape_mutex_);
  if (meta_.zarr_format == 3) return meta_.attributes_json;
  std::lock_guard<std::mutex> cached(attributes_mutex_);
  if (!attributes_) {
    attributes_ = read_attributes(*store_, path::join(path_, meta_.zarr_format == 1 ? kV1AttrsKey : kV2AttrsKey));
  }
  return *attributes_;
}

void Array::set_attributes(const std::string& json_text) {
  require_writable("set attributes of");
  std::unique_lock lock(shape_mutex_);
  if (meta_.zarr_format != 3) {
    std::string written = write_attributes(*store_, path::join(path_, kV2AttrsKey), json_text);
    std::lock_guard<std::mutex> cached(attributes_mutex_);
    attributes_ = std::move(written);
    return;
  }
  // v3 keeps attributes inside zarr.json.
  rapidjson::Document doc = json::parse_object(json_text, "attributes for array " + describe_node(*store_, path_));
  std::string previous = std::move(meta_.attributes_json);
  meta_.attributes_json = json::to_string(doc);
  try {
    write_metadata();
  } catch (...) {
    meta_.attributes_json = std::move(previous);
    throw;
  }
}

const std::vector<std::optional<std::string>>& Array::dimension_names() const { return meta_.dimension_names; }

}  // namespace zarr
