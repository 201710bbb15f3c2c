#include <cstring>
#include <exception>

#include "array/array.h"
#include "array/array_convert.h"
#include "base/json.h"
#include "base/path.h"
#include "array_create.h"
#include "consolidated_sync.h"
#include "guard.h"
#include "hierarchy/migrate.h"
#include "metadata/array_description.h"
#include "metadata/nodes.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"
#include "stores/url.h"

using zarr::capi::guarded;
using zarr::capi::require;

namespace {

bool parse_mode(const char* mode) {
  require(mode, "mode");
  if (std::strcmp(mode, "r") == 0) return false;
  if (std::strcmp(mode, "r+") == 0) return true;
  zarr::fail(ZARR_ERR_INVALID_ARGUMENT, std::string("mode must be \"r\" or \"r+\", got \"") + mode + "\"");
}

zarr::StoreAccess open_access(bool writable) {
  return writable ? zarr::StoreAccess::kReadWrite : zarr::StoreAccess::kRead;
}

// For the functions that take a URL and change the node in place.
template <typename Change>
void change_in_place(const char* url, Change&& change, zarr::StoreAccess access = zarr::StoreAccess::kReadWrite) {
  zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), access);
  change(*loc.store, loc.path);
  zarr::capi::keep_consolidated_in_step(url, *loc.store, loc.path);
  zarr::release_store(std::move(loc.store));  // writes what the store holds back (a zip archive)
}

void check_ndim(size_t ndim, const zarr_array* array) {
  if (ndim != array->handle->ndim()) {
    zarr::fail(ZARR_ERR_INVALID_ARGUMENT, std::string("argument 'ndim' is ") + std::to_string(ndim) +
                                              " but the array has " + std::to_string(array->handle->ndim()) +
                                              " dimensions");
  }
}

std::vector<uint64_t> dims(size_t ndim, const uint64_t* values, const zarr_array* array, const char* name) {
  check_ndim(ndim, array);
  if (ndim > 0) require(values, name);
  return std::vector<uint64_t>(values, values + ndim);
}

// A change to the array's metadata (shape, attributes) reaches the
// consolidated metadata above it, where its store can see it.
void keep_consolidated_in_step(zarr_array* array) {
  const zarr::Array& a = array->handle->array();
  zarr::capi::keep_consolidated_in_step(array->url, *a.store(), a.path());
}

zarr_array* wrap(std::unique_ptr<zarr::Array> array) { return new zarr_array{zarr::make_handle(std::move(array)), {}}; }

// "chunk_store": its URL is resolved as the array's own is, for `access`.
void locate_chunks(const zarr::OpenOptions& parsed, zarr::StoreAccess access, zarr::ArrayOptions& options) {
  if (options.chunk_store_url.empty()) return;
  const zarr::ChunkStoreOption chunk_store = zarr::chunk_store_option(parsed.document["chunk_store"]);
  try {
    options.chunk_location = zarr::resolve_url(chunk_store.url, access, chunk_store.store_options);
  } catch (const zarr::Error& e) {
    zarr::fail(e.code(), std::string("options: 'chunk_store': ") + e.what());
  }
}

}  // namespace

void zarr::capi::create_array(zarr_array** out, const char* url, const MetadataFor& metadata_for,
                              const char* options_json) {
  require(out, "out");
  *out = nullptr;
  zarr::OpenOptions parsed = zarr::parse_open_options(options_json);
  zarr::ArrayOptions options = zarr::parse_array_options(parsed.document);
  zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), zarr::StoreAccess::kCreate, parsed.store);
  locate_chunks(parsed, zarr::StoreAccess::kCreate, options);
  *out = wrap(zarr::Array::create(loc.store, loc.path, metadata_for(*loc.store, loc.path), options));
  zarr::capi::keep_consolidated_in_step(url, *loc.store, loc.path);
}

extern "C" {

ZARR_API int zarr_open_ex(zarr_array** out, const char* url, const char* mode, const char* options_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    bool writable = parse_mode(mode);
    zarr::OpenOptions parsed = zarr::parse_open_options(options_json);
    zarr::ArrayOptions options = zarr::parse_array_options(parsed.document);
    zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), open_access(writable), parsed.store);
    locate_chunks(parsed, open_access(writable), options);
    *out = wrap(zarr::Array::open(loc.store, loc.path, writable, options));
    if (writable) (*out)->url = url;
  });
}

ZARR_API int zarr_open(zarr_array** out, const char* url, const char* mode) {
  return zarr_open_ex(out, url, mode, nullptr);
}

ZARR_API int zarr_create_ex(zarr_array** out, const char* url, const char* metadata_json,
                            const char* options_json) {
  return guarded(__func__, [&] {
    require(metadata_json, "metadata_json");
    zarr::capi::create_array(out, url, [&](const zarr::Store&, const std::string&) { return metadata_json; },
                             options_json);
  });
}

ZARR_API int zarr_create_like(zarr_array** out, const char* url, const zarr_array* like, const char* overrides_json,
                             const char* options_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    const std::string metadata = require(like, "like")->handle->array().metadata_like(overrides_json ? overrides_json : "");
    const int status = zarr_create_ex(out, url, metadata.c_str(), options_json);
    if (status != ZARR_OK) zarr::fail(status, zarr_last_error());
  });
}

ZARR_API int zarr_create(zarr_array** out, const char* url, const char* metadata_json) {
  return zarr_create_ex(out, url, metadata_json, nullptr);
}

ZARR_API int zarr_close(zarr_array* array) {
  if (!array) return ZARR_OK;
  std::unique_ptr<zarr::ArrayHandle> handle = std::move(array->handle);
  delete array;
  return guarded(__func__, [&] { zarr::close_handle(std::move(handle)); });
}

ZARR_API size_t zarr_ndim(const zarr_array* array) { return array ? array->handle->ndim() : 0; }

ZARR_API int zarr_shape(const zarr_array* array, uint64_t* shape) {
  return guarded(__func__, [&] {
    require(array, "array");
    std::vector<uint64_t> s = array->handle->shape();
    if (!s.empty()) std::memcpy(require(shape, "shape"), s.data(), s.size() * sizeof(uint64_t));
  });
}

ZARR_API int zarr_chunk_shape(const zarr_array* array, uint64_t* chunk_shape) {
  return guarded(__func__, [&] {
    require(array, "array");
    const std::vector<uint64_t> c = array->handle->chunks();
    if (!c.empty()) std::memcpy(require(chunk_shape, "chunk_shape"), c.data(), c.size() * sizeof(uint64_t));
  });
}

ZARR_API int zarr_chunk_boundaries(const zarr_array* array, size_t axis, uint64_t* out, size_t capacity,
                                   size_t* count) {
  return guarded(__func__, [&] {
    require(array, "array");
    require(count, "count");
    array->handle->array().chunk_boundaries(axis, out, capacity, count);
  });
}

ZARR_API size_t zarr_item_size(const zarr_array* array) {
  if (!array) return 0;
  return array->handle->item_size();
}

ZARR_API const char* zarr_data_type(const zarr_array* array) {
  if (!array) return nullptr;
  return array->handle->data_type_name().c_str();
}

ZARR_API int zarr_format(const zarr_array* array) { return array ? array->handle->array().zarr_format() : 0; }

ZARR_API int zarr_read_region(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                              void* out, size_t nbytes) {
  return zarr_read_region_strided(array, ndim, start, count, nullptr, out, nbytes);
}

ZARR_API int zarr_write_region(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                               const void* data, size_t nbytes) {
  return zarr_write_region_strided(array, ndim, start, count, nullptr, data, nbytes);
}

// A NULL byte_strides means C-order contiguous (how the plain variants call it).
ZARR_API int zarr_read_region_strided(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                      const int64_t* byte_strides, void* out, size_t nbytes) {
  return guarded(__func__, [&] {
    require(array, "array");
    auto s = dims(ndim, start, array, "start");
    auto c = dims(ndim, count, array, "count");
    if (nbytes > 0) require(out, "out");
    array->handle->read_region(s, c, out, nbytes, byte_strides);
  });
}

ZARR_API int zarr_write_region_strided(zarr_array* array, size_t ndim, const uint64_t* start,
                                       const uint64_t* count, const int64_t* byte_strides, const void* data,
                                       size_t nbytes) {
  return guarded(__func__, [&] {
    require(array, "array");
    auto s = dims(ndim, start, array, "start");
    auto c = dims(ndim, count, array, "count");
    if (nbytes > 0) require(data, "data");
    array->handle->write_region(s, c, data, nbytes, byte_strides);
  });
}

ZARR_API int zarr_read_region_vlen(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                   uint64_t* offsets, size_t n_offsets, void* data, size_t capacity,
                                   size_t* data_size) {
  return guarded(__func__, [&] {
    require(array, "array");
    auto s = dims(ndim, start, array, "start");
    auto c = dims(ndim, count, array, "count");
    require(offsets, "offsets");
    if (capacity > 0) require(data, "data");
    array->handle->read_region_vlen(s, c, offsets, n_offsets, static_cast<uint8_t*>(data), capacity, data_size);
  });
}

ZARR_API int zarr_write_region_vlen(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                    const uint64_t* offsets, size_t n_offsets, const void* data, size_t data_size) {
  return guarded(__func__, [&] {
    require(array, "array");
    auto s = dims(ndim, start, array, "start");
    auto c = dims(ndim, count, array, "count");
    require(offsets, "offsets");
    if (data_size > 0) require(data, "data");
    array->handle->write_region_vlen(s, c, offsets, n_offsets, static_cast<const uint8_t*>(data), data_size);
  });
}

// Where a _vlen read puts its elements (as zarr_read_region_vlen).
struct VlenOutput {
  uint64_t* offsets;
  size_t n_offsets;
  void* data;
  size_t capacity;
  size_t* data_size;
};

// Where a _vlen write takes its elements from (as zarr_write_region_vlen).
struct VlenInput {
  const uint64_t* offsets;
  size_t n_offsets;
  const void* data;
  size_t data_size;
};

// The selections: argument checks here, the rest in Array::checked_selection.
// A read fills `out` (or, with `vlen`, its offsets and data), a write takes
// `in` (or, with `vlen_in`, its offsets and data); either may be NULL when
// nbytes is 0.
struct SelectionBuffer {
  bool reading;
  void* out;
  const void* in;
  size_t nbytes;
  const VlenOutput* vlen = nullptr;
  const VlenInput* vlen_in = nullptr;
};

static void read_or_write(zarr_array* array, const zarr::SelectionRequest& request, const SelectionBuffer& buffer) {
  if (buffer.vlen) {
    const VlenOutput& v = *buffer.vlen;
    array->handle->read_selection_vlen(request, v.offsets, v.n_offsets, static_cast<uint8_t*>(v.data), v.capacity,
                                       v.data_size);
  } else if (buffer.vlen_in) {
    const VlenInput& v = *buffer.vlen_in;
    array->handle->write_selection_vlen(request, v.offsets, v.n_offsets, static_cast<const uint8_t*>(v.data),
                                        v.data_size);
  } else if (buffer.reading) {
    array->handle->read_selection(request, buffer.out, buffer.nbytes);
  } else {
    array->handle->write_selection(request, buffer.in, buffer.nbytes);
  }
}

static void orthogonal(const char* function, zarr_array* array, size_t ndim, const uint64_t* const* indices,
                       const uint64_t* counts, const SelectionBuffer& buffer) {
  require(array, "array");
  zarr::SelectionRequest request;
  request.kind = zarr::SelectionRequest::Kind::Orthogonal;
  request.function = function;
  request.counts = dims(ndim, counts, array, "counts");
  if (ndim > 0) require(indices, "indices");
  for (size_t d = 0; d < ndim; ++d) {
    if (request.counts[d] > 0 && !indices[d]) {
      zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "argument 'indices[" + std::to_string(d) + "]' is NULL but counts[" +
                                                std::to_string(d) + "] is " + std::to_string(request.counts[d]));
    }
    request.indices.push_back(indices[d]);
  }
  read_or_write(array, request, buffer);
}

ZARR_API int zarr_read_orthogonal(zarr_array* array, size_t ndim, const uint64_t* const* indices,
                                  const uint64_t* counts, void* out, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    if (nbytes > 0) require(out, "out");
    orthogonal(function, array, ndim, indices, counts, SelectionBuffer{true, out, nullptr, nbytes});
  });
}

ZARR_API int zarr_write_orthogonal(zarr_array* array, size_t ndim, const uint64_t* const* indices,
                                   const uint64_t* counts, const void* in, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    if (nbytes > 0) require(in, "in");
    orthogonal(function, array, ndim, indices, counts, SelectionBuffer{false, nullptr, in, nbytes});
  });
}

static void points(const char* function, zarr_array* array, size_t ndim, uint64_t npoints, const uint64_t* coords,
                   const SelectionBuffer& buffer) {
  require(array, "array");
  check_ndim(ndim, array);
  zarr::SelectionRequest request;
  request.kind = zarr::SelectionRequest::Kind::Points;
  request.function = function;
  request.npoints = npoints;
  request.coords = npoints > 0 && ndim > 0 ? require(coords, "coords") : coords;
  read_or_write(array, request, buffer);
}

ZARR_API int zarr_read_points(zarr_array* array, size_t ndim, uint64_t npoints, const uint64_t* coords, void* out,
                              size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    if (nbytes > 0) require(out, "out");
    points(function, array, ndim, npoints, coords, SelectionBuffer{true, out, nullptr, nbytes});
  });
}

ZARR_API int zarr_write_points(zarr_array* array, size_t ndim, uint64_t npoints, const uint64_t* coords,
                               const void* in, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    if (nbytes > 0) require(in, "in");
    points(function, array, ndim, npoints, coords, SelectionBuffer{false, nullptr, in, nbytes});
  });
}

static void region_step(const char* function, zarr_array* array, size_t ndim, const uint64_t* start,
                        const uint64_t* count, const uint64_t* step, const SelectionBuffer& buffer) {
  require(array, "array");
  zarr::SelectionRequest request;
  request.kind = zarr::SelectionRequest::Kind::Step;
  request.function = function;
  request.start = dims(ndim, start, array, "start");
  request.count = dims(ndim, count, array, "count");
  request.step = dims(ndim, step, array, "step");
  read_or_write(array, request, buffer);
}

ZARR_API int zarr_read_region_step(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                   const uint64_t* step, void* out, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    if (nbytes > 0) require(out, "out");
    region_step(function, array, ndim, start, count, step, SelectionBuffer{true, out, nullptr, nbytes});
  });
}

ZARR_API int zarr_write_region_step(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                    const uint64_t* step, const void* in, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    if (nbytes > 0) require(in, "in");
    region_step(function, array, ndim, start, count, step, SelectionBuffer{false, nullptr, in, nbytes});
  });
}

// The _vlen reads' own arguments: offsets always, data when capacity is above 0.
static SelectionBuffer vlen_buffer(const VlenOutput& vlen) {
  require(vlen.offsets, "offsets");
  if (vlen.capacity > 0) require(vlen.data, "data");
  return SelectionBuffer{true, nullptr, nullptr, 0, &vlen};
}

ZARR_API int zarr_read_orthogonal_vlen(zarr_array* array, size_t ndim, const uint64_t* const* indices,
                                       const uint64_t* counts, uint64_t* offsets, size_t n_offsets, void* data,
                                       size_t capacity, size_t* data_size) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    const VlenOutput vlen{offsets, n_offsets, data, capacity, data_size};
    orthogonal(function, array, ndim, indices, counts, vlen_buffer(vlen));
  });
}

ZARR_API int zarr_read_points_vlen(zarr_array* array, size_t ndim, uint64_t npoints, const uint64_t* coords,
                                   uint64_t* offsets, size_t n_offsets, void* data, size_t capacity,
                                   size_t* data_size) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    const VlenOutput vlen{offsets, n_offsets, data, capacity, data_size};
    points(function, array, ndim, npoints, coords, vlen_buffer(vlen));
  });
}

ZARR_API int zarr_read_region_step_vlen(zarr_array* array, size_t ndim, const uint64_t* start,
                                        const uint64_t* count, const uint64_t* step, uint64_t* offsets,
                                        size_t n_offsets, void* data, size_t capacity, size_t* data_size) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    const VlenOutput vlen{offsets, n_offsets, data, capacity, data_size};
    region_step(function, array, ndim, start, count, step, vlen_buffer(vlen));
  });
}

// The _vlen writes' own arguments, as zarr_write_region_vlen's: offsets
// always, data when data_size is above 0.
static SelectionBuffer vlen_write_buffer(const VlenInput& vlen) {
  require(vlen.offsets, "offsets");
  if (vlen.data_size > 0) require(vlen.data, "data");
  return SelectionBuffer{false, nullptr, nullptr, 0, nullptr, &vlen};
}

ZARR_API int zarr_write_orthogonal_vlen(zarr_array* array, size_t ndim, const uint64_t* const* indices,
                                        const uint64_t* counts, const uint64_t* offsets, size_t n_offsets,
                                        const void* data, size_t data_size) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    const VlenInput vlen{offsets, n_offsets, data, data_size};
    orthogonal(function, array, ndim, indices, counts, vlen_write_buffer(vlen));
  });
}

ZARR_API int zarr_write_points_vlen(zarr_array* array, size_t ndim, uint64_t npoints, const uint64_t* coords,
                                    const uint64_t* offsets, size_t n_offsets, const void* data, size_t data_size) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    const VlenInput vlen{offsets, n_offsets, data, data_size};
    points(function, array, ndim, npoints, coords, vlen_write_buffer(vlen));
  });
}

ZARR_API int zarr_write_region_step_vlen(zarr_array* array, size_t ndim, const uint64_t* start,
                                         const uint64_t* count, const uint64_t* step, const uint64_t* offsets,
                                         size_t n_offsets, const void* data, size_t data_size) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    const VlenInput vlen{offsets, n_offsets, data, data_size};
    region_step(function, array, ndim, start, count, step, vlen_write_buffer(vlen));
  });
}

ZARR_API int zarr_resize(zarr_array* array, size_t ndim, const uint64_t* shape) {
  return guarded(__func__, [&] {
    require(array, "array");
    array->handle->resize(dims(ndim, shape, array, "shape"));
    keep_consolidated_in_step(array);
  });
}

ZARR_API int zarr_append(zarr_array* array, size_t axis, size_t ndim, const uint64_t* count, const void* data,
                         size_t nbytes) {
  return guarded(__func__, [&] {
    require(array, "array");
    auto c = dims(ndim, count, array, "count");
    if (nbytes > 0) require(data, "data");
    array->handle->append(axis, c, data, nbytes);
    keep_consolidated_in_step(array);
  });
}

ZARR_API int zarr_get_metadata(const zarr_array* array, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(array, "array")->handle->array().metadata_json());
  });
}

ZARR_API int zarr_info(const zarr_array* array, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(array, "array")->handle->array().info_json());
  });
}

ZARR_API int zarr_stored_chunks(const zarr_array* array, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(array, "array")->handle->array().stored_chunks_json());
  });
}

ZARR_API int zarr_get_dimension_names(const zarr_array* array, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    const auto names = require(array, "array")->handle->array().dimension_names();
    *json_out = zarr::capi::copy_out(names.empty() ? "null" : zarr::dimension_names_json(names));
  });
}

ZARR_API int zarr_get_attributes(const zarr_array* array, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(array, "array")->handle->array().attributes_json());
  });
}

ZARR_API int zarr_set_attributes(zarr_array* array, const char* json) {
  return guarded(__func__, [&] {
    require(array, "array")->handle->array().set_attributes(require(json, "json"));
    keep_consolidated_in_step(array);
  });
}

ZARR_API int zarr_get_attribute(const zarr_array* array, const char* key, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(array, "array")->handle->array().attribute(require(key, "key")));
  });
}

ZARR_API int zarr_update_attributes(zarr_array* array, const char* json_object) {
  return guarded(__func__, [&] {
    require(array, "array")->handle->array().update_attributes(require(json_object, "json_object"));
    keep_consolidated_in_step(array);
  });
}

ZARR_API int zarr_fill_value(const zarr_array* array, void* out, size_t nbytes, int* is_null) {
  return guarded(__func__, [&] {
    bool null = false;
    const zarr::Bytes value = require(array, "array")->handle->fill_value(nbytes, &null);
    std::memcpy(require(out, "out"), value.data(), value.size());
    if (is_null) *is_null = null ? 1 : 0;
  });
}

ZARR_API int zarr_migrate_v1_to_v2(const char* url) {
  return guarded(__func__, [&] { change_in_place(url, zarr::migrate_v1_to_v2); });
}

ZARR_API int zarr_migrate_v2_to_v3(const char* url) {
  // Resolved as creating there is (a local path's store rooted at the topmost
  // group above it), so that a node below a v2 group is seen to be one.
  return guarded(__func__, [&] { change_in_place(url, zarr::migrate_v2_to_v3, zarr::StoreAccess::kCreate); });
}

}  // extern "C"

// Conversions (array/array_convert.h): argument checks here, the rest there.
extern "C" {

ZARR_API int zarr_read_region_as(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                 const char* data_type, void* out, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    require(array, "array");
    zarr::ConvertedRegion region{function, require(data_type, "data_type"), dims(ndim, start, array, "start"),
                                 dims(ndim, count, array, "count")};
    if (nbytes > 0) require(out, "out");
    zarr::read_region_as(*array->handle, region, out, nbytes);
  });
}

ZARR_API int zarr_write_region_as(zarr_array* array, size_t ndim, const uint64_t* start, const uint64_t* count,
                                  const char* data_type, const void* in, size_t nbytes) {
  const char* function = __func__;  // the lambda's own __func__ is "operator()"
  return guarded(function, [&] {
    require(array, "array");
    zarr::ConvertedRegion region{function, require(data_type, "data_type"), dims(ndim, start, array, "start"),
                                 dims(ndim, count, array, "count")};
    if (nbytes > 0) require(in, "in");
    zarr::write_region_as(*array->handle, region, in, nbytes);
  });
}

}  // extern "C"
