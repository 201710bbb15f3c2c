// An array's metadata document and attributes: serialised, written back,
// read once per handle (array/array.h).
#include "array/array.h"
#include "base/error.h"
#include "base/json.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "metadata/node_attributes.h"
#include "metadata/nodes.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

std::string Array::serialized_metadata() const {
  return meta_.zarr_format == 3 ? serialize_v3_array_metadata(meta_) : serialize_v2_array_metadata(meta_);
}

void Array::require_metadata_read() const {
  if (metadata_assumed_) {
    fail(ZARR_ERR_UNSUPPORTED, "array " + describe_node(*store_, path_) + " was opened with " + *metadata_assumed_ +
                                   ": its stored metadata is never read, so it cannot be changed");
  }
}

void Array::write_metadata_document() {
  store_->set(path::join(path_, meta_.zarr_format == 3 ? kV3MetadataKey : kV2ArrayKey), serialized_metadata());
}

void Array::write_metadata() {
  require_metadata_read();
  if (meta_.zarr_format != 3) {
    write_metadata_document();
    return;
  }
  // zarr.json holds the attributes too: under their lock, the stored ones
  // are written back, not those this handle read (another handle may have
  // changed them since).
  const AttributesNode node = attributes_node();
  holding_attributes_lock(node, [&] {
    meta_.attributes_json = stored_v3_attributes(node);
    write_metadata_document();
  });
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

std::string Array::attribute(const std::string& key) const {
  return attribute_value(attributes_json(), key, "array " + describe_node(*store_, path_));
}

void Array::set_attributes(const std::string& json_text) {
  require_writable("set attributes of");
  change_attributes(replacing_attributes(json_text, "attributes for array " + describe_node(*store_, path_)));
}

void Array::update_attributes(const std::string& json_object) {
  require_writable("update attributes of");
  change_attributes(merging_attributes(json_object, "attributes update for array " + describe_node(*store_, path_)));
}

AttributesNode Array::attributes_node() const {
  return {*store_, path_, meta_.zarr_format, "array " + describe_node(*store_, path_), options_.process_lock_dir};
}

// The shape lock first (v3 keeps the attributes in meta_), then the
// attributes' own (change_stored_attributes), in the order resize takes them.
void Array::change_attributes(const AttributesChange& change) {
  if (meta_.zarr_format == 3) {
    require_metadata_read();
    std::unique_lock lock(shape_mutex_);
    meta_.attributes_json = change_stored_attributes(attributes_node(), change);
    return;
  }
  std::string now = change_stored_attributes(attributes_node(), change);
  std::lock_guard<std::mutex> cached(attributes_mutex_);
  attributes_ = std::move(now);
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
