// Array::metadata_like: the metadata document zarr_create_like gives to the
// create path (zarr-python's zeros_like, ones_like, full_like, empty_like).
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "array/array.h"
#include "base/error.h"
#include "base/json.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

std::string Array::metadata_like(const std::string& overrides_json) const {
  // A legacy v1 array is described in v2 terms: v1 cannot be written.
  std::string base;
  {
    std::shared_lock lock(shape_mutex_);
    base = meta_.zarr_format == 3 ? serialize_v3_array_metadata(meta_) : serialize_v2_array_metadata(meta_);
  }
  rapidjson::Document doc = json::parse_object(base, "metadata of the array to copy");
  // The copy starts without attributes, as zarr-python's *_like functions do.
  doc.RemoveMember("attributes");
  if (!overrides_json.empty()) {
    rapidjson::Document overrides = json::parse_object(overrides_json, "metadata overrides");
    for (auto it = overrides.MemberBegin(); it != overrides.MemberEnd(); ++it) {
      const std::string name = json::text(it->name);
      if (name == "zarr_format" || name == "node_type") {
        fail(ZARR_ERR_INVALID_ARGUMENT, "metadata overrides: '" + name +
                                            "' cannot change (the copy has the format of the array it copies)");
      }
      doc.RemoveMember(name.c_str());
      doc.AddMember(rapidjson::Value(name.c_str(), doc.GetAllocator()),
                    rapidjson::Value(it->value, doc.GetAllocator()), doc.GetAllocator());
    }
  }
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buf);
  doc.Accept(writer);
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace zarr
