#include "array/array_convert.h"

#include <rapidjson/document.h>

#include "array/buffer_size.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/text.h"
#include "dtype/convert.h"
#include "dtype/messages.h"

namespace zarr {

namespace {

// The caller's type: a v3 data type name ("float64", "bfloat16") or a NumPy
// typestr ("<f8"), whose byte order must be the native one (region buffers
// are native).
DataType caller_type(const char* name, const std::string& where) {
  const std::string quoted = "'" + dtype_detail::excerpt(name) + "'";
  try {
    return DataType::parse_v3(rapidjson::Value(rapidjson::StringRef(name)), where + ": data_type");
  } catch (const Error&) {
  }
  DataType type;
  try {
    type = DataType::from_typestr(name, where + ": data_type");
  } catch (const Error&) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": data_type " + quoted +
                                        " is neither a Zarr v3 data type name (\"float64\") nor a NumPy typestr "
                                        "(\"<f8\")");
  }
  if (type.needs_byte_swap()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": data_type " + quoted +
                                        " is not in native byte order, which region buffers are in");
  }
  return type;
}

// Everything a converted region call checks before any element moves.
struct Plan {
  std::string where;
  DataType stored;  // the array's type
  DataType caller;  // the caller's
  uint64_t elements;
  bool same;  // no conversion: the plain region call does it all
};

Plan plan(const ArrayHandle& array, const ConvertedRegion& region, size_t nbytes) {
  Plan p;
  p.where = std::string(region.function) + ": " + array.description();
  p.caller = caller_type(region.data_type, p.where);
  p.stored = array.data_type();
  if (!is_numeric(p.stored) || !is_numeric(p.caller)) {
    fail(ZARR_ERR_UNSUPPORTED, p.where + ": cannot convert between " + type_text(p.stored) + " and " +
                                   type_text(p.caller) + ": conversions are between numeric types only");
  }
  p.elements = checked_product(region.count, "region", ZARR_ERR_INVALID_ARGUMENT);
  const std::string what = "region " + list_text(region.count);
  check_buffer_size(p.where, nbytes, {what, p.elements, p.caller.item_size(), type_text(p.caller), false});
  p.same = type_text(p.stored) == type_text(p.caller);
  return p;
}

// A buffer of the region in the array's type (its size fits memory: the
// region's bytes in the caller's type did).
Bytes stored_buffer(const Plan& p) {
  const std::optional<size_t> bytes = byte_count(p.elements, p.stored.item_size());
  if (!bytes) fail(ZARR_ERR_NO_MEMORY, p.where + ": the region needs " + byte_count_text(bytes) + " bytes in " +
                                           type_text(p.stored));
  return Bytes(*bytes);
}

// Coordinates of element `index` (C order) of the region.
std::vector<uint64_t> coordinates(uint64_t index, const ConvertedRegion& region) {
  std::vector<uint64_t> at(region.count.size());
  for (size_t d = at.size(); d-- > 0;) {
    at[d] = region.start[d] + index % region.count[d];
    index /= region.count[d];
  }
  return at;
}

[[noreturn]] void fail_range(const Plan& p, const ConvertedRegion& region, const ConversionStop& stop,
                             const DataType& target, const char* consequence) {
  fail(ZARR_ERR_RANGE, p.where + ": element " + std::to_string(stop.index) + " of the region (at " +
                           list_text(coordinates(stop.index, region)) + ") is " + stop.value + ", which " +
                           type_text(target) + " cannot represent; " + consequence);
}

}  // namespace

void read_region_as(ArrayHandle& array, const ConvertedRegion& region, void* out, size_t nbytes) {
  const Plan p = plan(array, region, nbytes);
  if (p.same) return array.read_region(region.start, region.count, out, nbytes, nullptr);
  Bytes stored = stored_buffer(p);
  array.read_region(region.start, region.count, stored.data(), stored.size(), nullptr);
  const auto stop = convert_elements(stored.data(), p.stored, static_cast<uint8_t*>(out), p.caller, p.elements);
  if (stop) fail_range(p, region, *stop, p.caller, "out holds the elements before it converted");
}

void write_region_as(ArrayHandle& array, const ConvertedRegion& region, const void* in, size_t nbytes) {
  const Plan p = plan(array, region, nbytes);
  if (p.same) return array.write_region(region.start, region.count, in, nbytes, nullptr);
  // Every element is converted before any chunk is written, so a value the
  // array cannot hold leaves the stored data as it was.
  Bytes stored = stored_buffer(p);
  const auto stop = convert_elements(static_cast<const uint8_t*>(in), p.caller, stored.data(), p.stored, p.elements);
  if (stop) fail_range(p, region, *stop, p.stored, "nothing was written");
  array.write_region(region.start, region.count, stored.data(), stored.size(), nullptr);
}

}  // namespace zarr
