// zarrs' experimental "optional" data type (an open zarr-extensions
// proposal, zarrs 0.23): nullable elements of any fixed-size v3 type.
//
//   {"name": "optional", "configuration": {"name": "uint8", "configuration": {}}}
//
// The configuration is the inner type's own {"name", "configuration"}; the
// inner type may itself be optional. The fill value is null (missing) or a
// one-element list holding the inner type's fill value ([42]; [null] is
// Some(None) of optional<optional<T>>).
//
// In memory (the caller's region buffers, the chunk arrays codecs see) an
// element is one flag byte, 1 present and 0 missing, followed by the inner
// type's item in native byte order; a missing element's inner bytes are
// zero. Only the "optional" codec (codecs/optional_codec.cpp) stores it.
#include "base/error.h"
#include "base/json.h"
#include "dtype/data_type.h"
#include "dtype/messages.h"

namespace zarr {

namespace {

using dtype_detail::excerpt;

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  fail(ZARR_ERR_INVALID_METADATA, where + ": " + what);
}

}  // namespace

DataType DataType::parse_v3_optional(const rapidjson::Value* configuration, const std::string& where) {
  const std::string type_where = where + ": data type \"optional\"";
  if (!configuration) invalid(type_where, "needs a \"configuration\" naming the inner data type");
  const rapidjson::Value* name = json::find(*configuration, "name");
  if (!name) invalid(type_where, "configuration member \"name\" (the inner data type) is missing");
  // The configuration is the inner type's metadata: parse_v3 checks its
  // members (name, configuration) and its name.
  DataType inner = parse_v3(*configuration, type_where + ": inner data type");
  if (inner.is_variable_length()) {
    fail(ZARR_ERR_UNSUPPORTED, type_where + ": inner data type " + inner.to_v3_json() +
                                   " has no fixed size; libzarr reads optional types of fixed-size types only");
  }
  if (inner.kind() == DTypeKind::Object) invalid(type_where, "inner data type has no Zarr v3 form");
  DataType t;
  t.kind_ = DTypeKind::Optional;
  t.item_size_ = 1 + inner.item_size();
  t.big_endian_ = false;
  t.needs_swap_ = false;  // the optional codec's data_codecs keep the inner byte order
  t.typestr_ = "optional";
  t.optional_inner_ = std::make_shared<const DataType>(std::move(inner));
  return t;
}

// zarrs writes the inner type as {"name": ..., "configuration": {...}}, with
// an empty configuration for types that take none.
std::string DataType::optional_json() const {
  std::string inner = optional_inner_->to_v3_json();
  if (!inner.empty() && inner[0] == '"') inner = "{\"name\":" + inner + ",\"configuration\":{}}";
  return "{\"name\":\"optional\",\"configuration\":" + inner + "}";
}

Bytes DataType::optional_fill(const rapidjson::Value& fill, const std::string& where) const {
  Bytes out(item_size_, 0);
  if (fill.IsNull()) return out;  // missing
  if (!fill.IsArray() || fill.Size() != 1) {
    invalid(where, "fill value " + excerpt(json::to_string(fill)) + " for data type " + optional_json() +
                       ": expected null (missing) or a one-element list holding the inner fill value");
  }
  const Bytes inner = optional_inner_->parse_fill_value_v3(fill[0], where + " (inside the optional's list)");
  out[0] = 1;
  std::copy(inner.begin(), inner.end(), out.begin() + 1);
  return out;
}

std::string DataType::optional_fill_json(const uint8_t* data) const {
  if (data[0] > 1) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "fill value of data type " + optional_json() + ": flag byte " +
                                        std::to_string(data[0]) + " is neither 0 (missing) nor 1 (present)");
  }
  if (data[0] == 0) return "null";
  return "[" + optional_inner_->fill_value_to_v3_json(Bytes(data + 1, data + item_size_)) + "]";
}

}  // namespace zarr
