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

namespace {

// xarray's dimension names of a v1/v2 array: the attribute _ARRAY_DIMENSIONS,
// when it is a list of one string per dimension (else none).
std::vector<std::optional<std::string>> xarray_dimension_names(const std::string& attributes_json, size_t ndim) {
  rapidjson::Document attributes = json::parse(attributes_json, "attributes");
  const rapidjson::Value* names = attributes.IsObject() ? json::find(attributes, "_ARRAY_DIMENSIONS") : nullptr;
  if (!names || !names->IsArray() || names->Size() != ndim) return {};
  std::vector<std::optional<std::string>> out;
  for (const auto& name : names->GetArray()) {
    if (!name.IsString()) return {};
    out.push_back(json::text(name));
  }
  return out;
}

}  // namespace

std::vector<std::optional<std::string>> Array::dimension_names() const {
  if (meta_.zarr_format == 3) return meta_.dimension_names;
  return xarray_dimension_names(attributes_json(), meta_.ndim());
}

}  // namespace zarr
