// TensorStore zarr driver specs -> libzarr's open and create paths. The spec
// is parsed into a SpecRequest (every member checked, none ignored), then
// either the stored metadata is checked against its constraints, or a
// .zarray / zarr.json document is completed from them and created (or
// assumed). See docs/spec.md for the member-by-member table.
#include "spec/spec.h"

#include <atomic>
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "base/text.h"
#include "concurrency/thread_pool.h"
#include "dtype/data_type.h"
#include "dtype/field_view.h"
#include "grid/chunk_shape.h"
#include "metadata/nodes.h"
#include "stores/url.h"

namespace zarr {
namespace {

using rapidjson::Value;

[[noreturn]] void invalid(const std::string& message) { fail(ZARR_ERR_INVALID_ARGUMENT, "spec: " + message); }
[[noreturn]] void unsupported(const std::string& message) { fail(ZARR_ERR_UNSUPPORTED, "spec: " + message); }
[[noreturn]] void contradicts(const std::string& field, const std::string& spec_value,
                              const std::string& stored_value) {
  fail(ZARR_ERR_INVALID_METADATA, field + ": spec " + spec_value + " but stored " + stored_value);
}

std::string text(const Value& v) { return json::to_string(v); }

bool get_flag(const Value& v, const std::string& name) {
  if (!v.IsBool()) invalid("'" + name + "' must be true or false, got " + text(v));
  return v.GetBool();
}

std::string get_text(const Value& v, const std::string& name) {
  if (!v.IsString()) invalid("'" + name + "' must be a string, got " + text(v));
  return v.GetString();
}

const Value& require_object(const Value& v, const std::string& name) {
  if (!v.IsObject()) invalid("'" + name + "' must be an object, got " + text(v));
  return v;
}

// Members of an object that are neither known nor unsupported are a mistake
// (a typo must not be ignored); unsupported ones are named as such.
void check_members(const Value& object, const std::string& where, const std::set<std::string>& known,
                   const std::set<std::string>& unsupported_members = {}) {
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    const std::string full = where.empty() ? name : where + "." + name;
    if (unsupported_members.count(name)) unsupported("member " + json::quote(full) + " is not supported by libzarr");
    if (!known.count(name)) invalid(json::unknown("member", full));
  }
}

// "a/b" joined after a URL: directly after "...://", "|zip:" or a trailing
// "/", else with a "/".
std::string join_url(const std::string& base, std::string path) {
  while (!path.empty() && path.front() == '/') path.erase(0, 1);
  if (path.empty()) return base;
  const char last = base.empty() ? '/' : base.back();
  return (last == '/' || last == ':') ? base + path : base + "/" + path;
}

// ---- kvstore ------------------------------------------------------------------------

std::string kvstore_url(const Value& kvstore, const std::string& where);

// A kvstore's "path", or the spec's: relative to what holds it (for the
// file driver, where the store is), so a "." or ".." segment, which could
// climb out of it, is refused for every driver, as TensorStore's key rules
// refuse them. A leading '/' is dropped when joined (join_url): it stays inside.
std::string checked_path(const Value& v, const std::string& name) {
  std::string text = get_text(v, name);
  const std::string dot = path::dot_segment(text);
  if (!dot.empty()) {
    invalid("'" + name + "' \"" + text + "\": segment '" + dot + "' is not allowed (a path must stay in its store)");
  }
  return text;
}

std::string optional_path(const Value& kvstore, const std::string& where) {
  auto it = kvstore.FindMember("path");
  return it == kvstore.MemberEnd() ? "" : checked_path(it->value, where + ".path");
}

std::string kvstore_object_url(const Value& kvstore, const std::string& where) {
  auto driver_it = kvstore.FindMember("driver");
  if (driver_it == kvstore.MemberEnd()) invalid("'" + where + "' needs a 'driver'");
  const std::string driver = get_text(driver_it->value, where + ".driver");
  const std::string path = optional_path(kvstore, where);
  if (driver == "file") {
    check_members(kvstore, where, {"driver", "path"}, {"context", "file_io_concurrency", "file_io_sync"});
    if (path.empty()) invalid("'" + where + ".path' is required for the file driver");
    return path;
  }
  if (driver == "memory") {
    check_members(kvstore, where, {"driver", "path"}, {"context", "atomic", "memory_key_value_store"});
    return join_url("memory://", path);
  }
  if (driver == "zip") {
    check_members(kvstore, where, {"driver", "path", "base"}, {"context", "cache_pool", "data_copy_concurrency"});
    auto base = kvstore.FindMember("base");
    if (base == kvstore.MemberEnd()) invalid("'" + where + ".base' is required for the zip driver");
    return kvstore_url(base->value, where + ".base") + "|zip:" + path;
  }
  if (driver == "http") {
    check_members(kvstore, where, {"driver", "path", "base_url"}, {"context", "headers", "http_request_concurrency",
                                                                    "http_request_retries"});
    auto base = kvstore.FindMember("base_url");
    if (base == kvstore.MemberEnd()) invalid("'" + where + ".base_url' is required for the http driver");
    return join_url(get_text(base->value, where + ".base_url"), path);
  }
  if (driver == "s3") {
    check_members(kvstore, where, {"driver", "path", "bucket"},
                  {"context", "endpoint", "host_header", "aws_region", "requester_pays", "aws_credentials",
                   "s3_request_concurrency", "s3_request_retries", "experimental_s3_rate_limiter"});
    auto bucket = kvstore.FindMember("bucket");
    if (bucket == kvstore.MemberEnd()) invalid("'" + where + ".bucket' is required for the s3 driver");
    return join_url("s3://" + get_text(bucket->value, where + ".bucket"), path);
  }
  unsupported("'" + where + ".driver' \"" + driver + "\" is not a store libzarr has (file, memory, zip, http, s3)");
}

std::string kvstore_url(const Value& kvstore, const std::string& where) {
  if (kvstore.IsString()) {
    std::string url = kvstore.GetString();
    if (url.empty()) invalid("'" + where + "' is an empty URL");
    return url;
  }
  if (kvstore.IsObject()) return kvstore_object_url(kvstore, where);
  invalid("'" + where + "' must be a URL string or a kvstore object, got " + text(kvstore));
}

// TensorStore's memory kvstore without a path is a fresh store of its own;
// libzarr's memory stores are shared by name, so such a store gets a name
// nobody else uses.
std::string name_anonymous_memory_store(const std::string& url) {
  if (url != "memory://") return url;
  static std::atomic<uint64_t> counter{0};
  return "memory://zarr-spec-anonymous-" + std::to_string(counter.fetch_add(1));
}

// ---- the parsed spec ----------------------------------------------------------------

// TensorStore's chunk_layout, its chunk / read_chunk / write_chunk grids
// merged (zarr has one level of chunking).
struct ChunkLayoutRequest {
  std::vector<int64_t> shape;         // hard: 0 unconstrained, -1 full extent
  std::vector<int64_t> soft_shape;    // shape_soft_constraint: used when creating only
  std::vector<double> aspect_ratio;   // creating only
  std::optional<int64_t> elements;    // creating only
  std::optional<std::vector<int64_t>> inner_order;
};

struct SpecRequest {
  int zarr_format = 2;
  std::string url;
  bool open = true;
  bool create = false;
  bool delete_existing = false;
  std::string assume_member;  // "assume_metadata" / "assume_cached_metadata", or empty
  rapidjson::Document metadata{rapidjson::kObjectType};  // constraints ({} when absent)
  std::optional<std::string> dtype;  // a TensorStore data type name
  std::string dtype_member;          // "dtype" or "schema.dtype"
  std::optional<size_t> rank;
  std::string rank_member;
  std::optional<std::vector<uint64_t>> shape;  // schema.domain / schema.shape
  std::string shape_member;
  rapidjson::Document fill_value;  // schema.fill_value (null type when absent)
  bool has_fill_value = false;
  ChunkLayoutRequest chunk_layout;
  std::optional<std::string> field;  // v2 structured types: the field to open
  ArrayOptions options;
  bool recheck_data_is_time_bound = false;
};

void set_rank(SpecRequest& spec, size_t rank, const std::string& member) {
  if (spec.rank && *spec.rank != rank) {
    invalid("'" + spec.rank_member + "' says rank " + std::to_string(*spec.rank) + " but '" + member + "' says " +
            std::to_string(rank));
  }
  spec.rank = rank;
  spec.rank_member = member;
}

void set_dtype(SpecRequest& spec, const Value& v, const std::string& member) {
  const std::string name = get_text(v, member);
  if (spec.dtype && *spec.dtype != name) {
    invalid("'" + spec.dtype_member + "' is \"" + *spec.dtype + "\" but '" + member + "' is \"" + name + "\"");
  }
  spec.dtype = name;
  spec.dtype_member = member;
}

std::vector<int64_t> grid_shape(const Value& v, const std::string& member) {
  if (!v.IsArray()) invalid("'" + member + "' must be a list, got " + text(v));
  std::vector<int64_t> out;
  for (const Value& item : v.GetArray()) {
    if (item.IsNull()) {
      out.push_back(kChooseChunkSize);
    } else if (item.IsInt64() && item.GetInt64() >= -1) {
      out.push_back(item.GetInt64());
    } else {
      invalid("'" + member + "' entries must be integers from -1 up, or null; got " + text(item));
    }
  }
  return out;
}

std::vector<double> grid_aspect_ratio(const Value& v, const std::string& member) {
  if (!v.IsArray()) invalid("'" + member + "' must be a list, got " + text(v));
  std::vector<double> out;
  for (const Value& item : v.GetArray()) {
    if (item.IsNull()) {
      out.push_back(0);
    } else if (item.IsNumber() && std::isfinite(item.GetDouble()) && item.GetDouble() >= 0) {
      out.push_back(item.GetDouble());
    } else {
      invalid("'" + member + "' entries must be numbers 0 or more, or null; got " + text(item));
    }
  }
  return out;
}

// Merge one grid's per-dimension constraint into what the other grids said:
// two hard values that differ cannot both hold in zarr's single chunk grid.
template <typename T>
void merge_per_dimension(std::vector<T>& into, const std::vector<T>& from, std::string& into_member,
                         const std::string& member) {
  if (into.empty()) {
    into = from;
    into_member = member;
    return;
  }
  if (into.size() != from.size()) invalid("'" + into_member + "' and '" + member + "' have different lengths");
  for (size_t i = 0; i < into.size(); ++i) {
    if (from[i] == 0) continue;
    if (into[i] != 0 && into[i] != from[i]) {
      invalid("'" + into_member + "' and '" + member + "' differ on dimension " + std::to_string(i) +
              " (zarr has one level of chunking)");
    }
    into[i] = from[i];
  }
}

struct GridMembers {
  std::string shape, soft_shape, aspect_ratio, elements;
};

void parse_grid(const Value& grid, const std::string& member, ChunkLayoutRequest& layout, GridMembers& seen) {
  require_object(grid, member);
  check_members(grid, member,
                {"shape", "shape_soft_constraint", "aspect_ratio", "aspect_ratio_soft_constraint", "elements",
                 "elements_soft_constraint"});
  for (auto it = grid.MemberBegin(); it != grid.MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    const std::string full = member + "." + name;
    if (name == "shape") {
      merge_per_dimension(layout.shape, grid_shape(it->value, full), seen.shape, full);
    } else if (name == "shape_soft_constraint") {
      merge_per_dimension(layout.soft_shape, grid_shape(it->value, full), seen.soft_shape, full);
    } else if (name == "aspect_ratio" || name == "aspect_ratio_soft_constraint") {
      merge_per_dimension(layout.aspect_ratio, grid_aspect_ratio(it->value, full), seen.aspect_ratio, full);
    } else {  // elements, elements_soft_constraint
      if (!it->value.IsInt64() || it->value.GetInt64() <= 0) {
        invalid("'" + full + "' must be a positive integer, got " + text(it->value));
      }
      if (layout.elements && *layout.elements != it->value.GetInt64()) {
        invalid("'" + seen.elements + "' and '" + full + "' differ");
      }
      layout.elements = it->value.GetInt64();
      seen.elements = full;
    }
  }
}

void parse_chunk_layout(const Value& v, SpecRequest& spec) {
  const std::string where = "schema.chunk_layout";
  require_object(v, where);
  check_members(v, where,
                {"rank", "grid_origin", "grid_origin_soft_constraint", "inner_order", "inner_order_soft_constraint",
                 "chunk", "read_chunk", "write_chunk"},
                {"codec_chunk"});
  GridMembers seen;
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    const std::string full = where + "." + name;
    if (name == "rank") {
      if (!it->value.IsUint() || it->value.GetUint() > 32) invalid("'" + full + "' must be 0 to 32");
      set_rank(spec, it->value.GetUint(), full);
    } else if (name == "grid_origin" || name == "grid_origin_soft_constraint") {
      // Zarr chunk grids start at 0: any other origin cannot be honoured.
      for (int64_t origin : grid_shape(it->value, full)) {
        if (origin > 0) unsupported("'" + full + "': zarr chunk grids start at 0");
      }
    } else if (name == "inner_order" || name == "inner_order_soft_constraint") {
      std::vector<int64_t> order = grid_shape(it->value, full);
      if (name == "inner_order") spec.chunk_layout.inner_order = order;
      else if (!spec.chunk_layout.inner_order) spec.chunk_layout.inner_order = order;
    } else {
      parse_grid(it->value, full, spec.chunk_layout, seen);
    }
  }
}

std::vector<uint64_t> domain_bounds(const Value& v, const std::string& member) {
  if (!v.IsArray()) invalid("'" + member + "' must be a list, got " + text(v));
  std::vector<uint64_t> out;
  for (const Value& item : v.GetArray()) {
    // TensorStore writes resizable bounds in brackets: [[1000], [2000]].
    const Value* bound = &item;
    if (item.IsArray() && item.Size() == 1) bound = &item[0];
    if (!bound->IsUint64()) invalid("'" + member + "' entries must be integers 0 or more, got " + text(item));
    out.push_back(bound->GetUint64());
  }
  return out;
}

void set_shape(SpecRequest& spec, std::vector<uint64_t> shape, const std::string& member) {
  if (spec.shape && *spec.shape != shape) {
    invalid("'" + spec.shape_member + "' is " + list_text(*spec.shape) + " but '" + member + "' is " +
            list_text(shape));
  }
  set_rank(spec, shape.size(), member);
  spec.shape = std::move(shape);
  spec.shape_member = member;
}

void parse_domain(const Value& v, SpecRequest& spec) {
  const std::string where = "schema.domain";
  require_object(v, where);
  check_members(v, where, {"rank", "inclusive_min", "exclusive_max", "inclusive_max", "shape"},
                {"labels", "implicit_lower_bounds", "implicit_upper_bounds"});
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    const std::string full = where + "." + name;
    if (name == "rank") {
      if (!it->value.IsUint() || it->value.GetUint() > 32) invalid("'" + full + "' must be 0 to 32");
      set_rank(spec, it->value.GetUint(), full);
    } else if (name == "inclusive_min") {
      for (uint64_t lower : domain_bounds(it->value, full)) {
        if (lower != 0) unsupported("'" + full + "': zarr arrays start at 0 (translate with a transform instead)");
      }
    } else if (name == "inclusive_max") {
      std::vector<uint64_t> shape = domain_bounds(it->value, full);
      for (uint64_t& extent : shape) {
        const std::optional<uint64_t> past_max = checked_add<uint64_t>(extent, 1);
        if (!past_max) invalid("'" + full + "': " + std::to_string(extent) + " makes an extent past 2^64 - 1");
        extent = *past_max;
      }
      set_shape(spec, shape, full);
    } else {  // exclusive_max, shape
      set_shape(spec, domain_bounds(it->value, full), full);
    }
  }
}

void parse_codec(const Value& v, SpecRequest& spec) {
  const std::string where = "schema.codec";
  require_object(v, where);
  const std::string driver_name = spec.zarr_format == 3 ? "zarr3" : "zarr";
  auto driver = v.FindMember("driver");
  if (driver != v.MemberEnd() && get_text(driver->value, where + ".driver") != driver_name) {
    invalid("'" + where + ".driver' must be \"" + driver_name + "\"");
  }
  // The codec members are those of the metadata: merge them in as constraints.
  const std::set<std::string> members =
      spec.zarr_format == 3 ? std::set<std::string>{"driver", "codecs"}
                            : std::set<std::string>{"driver", "compressor", "filters"};
  check_members(v, where, members);
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    if (name == "driver") continue;
    auto given = spec.metadata.FindMember(name.c_str());
    if (given != spec.metadata.MemberEnd()) {
      if (given->value != it->value) invalid("'metadata." + name + "' and '" + where + "." + name + "' differ");
      continue;
    }
    Value key(name.c_str(), spec.metadata.GetAllocator());
    Value copy(it->value, spec.metadata.GetAllocator());
    spec.metadata.AddMember(key, copy, spec.metadata.GetAllocator());
  }
}

void parse_schema(const Value& v, SpecRequest& spec) {
  require_object(v, "schema");
  check_members(v, "schema", {"rank", "dtype", "domain", "shape", "chunk_layout", "codec", "fill_value"},
                {"dimension_units"});
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    const std::string full = "schema." + name;
    if (name == "rank") {
      if (!it->value.IsUint() || it->value.GetUint() > 32) invalid("'" + full + "' must be 0 to 32");
      set_rank(spec, it->value.GetUint(), full);
    } else if (name == "dtype") {
      set_dtype(spec, it->value, full);
    } else if (name == "domain") {
      parse_domain(it->value, spec);
    } else if (name == "shape") {
      set_shape(spec, domain_bounds(it->value, full), full);
    } else if (name == "chunk_layout") {
      parse_chunk_layout(it->value, spec);
    } else if (name == "codec") {
      parse_codec(it->value, spec);
    } else {  // fill_value
      spec.fill_value.CopyFrom(it->value, spec.fill_value.GetAllocator());
      spec.has_fill_value = true;
    }
  }
}

// cache_pool / data_copy_concurrency are TensorStore context resources: an
// object of their own, or a reference to the context's default by name.
uint64_t parse_cache_pool(const Value& v) {
  if (v.IsString()) {
    // The default context's cache pool holds nothing (total_bytes_limit 0).
    if (std::string(v.GetString()) == "cache_pool") return 0;
    unsupported("'cache_pool' \"" + std::string(v.GetString()) + "\": context resource references are not supported");
  }
  require_object(v, "cache_pool");
  check_members(v, "cache_pool", {"total_bytes_limit"}, {"queued_for_writeback_bytes_limit"});
  auto limit = v.FindMember("total_bytes_limit");
  if (limit == v.MemberEnd()) return 0;
  if (!limit->value.IsUint64()) invalid("'cache_pool.total_bytes_limit' must be a number of bytes, 0 or more");
  return limit->value.GetUint64();
}

// The threads each region call of the handle may use (0: the shared count).
size_t parse_data_copy_concurrency(const Value& v) {
  if (v.IsString()) {
    if (std::string(v.GetString()) == "data_copy_concurrency") return 0;
    unsupported("'data_copy_concurrency' \"" + std::string(v.GetString()) +
                "\": context resource references are not supported");
  }
  return thread_limit_option(v, "spec");
}

// TensorStore's CacheRevalidationBound: true, false, "open", or a time.
// Returns whether it asks to recheck on every read (true).
bool parse_recheck(const Value& v, const std::string& member, bool& time_bound) {
  if (v.IsBool()) return v.GetBool();
  if (v.IsString() && std::string(v.GetString()) == "open") return false;
  if (v.IsNumber()) {
    time_bound = true;
    return false;
  }
  invalid("'" + member + "' must be true, false, \"open\" or a time in seconds, got " + text(v));
}

void parse_key_encoding(const Value& v, SpecRequest& spec) {
  const std::string separator = get_text(v, "key_encoding");
  if (separator != "." && separator != "/") invalid("'key_encoding' must be \".\" or \"/\", got \"" + separator + "\"");
  auto given = spec.metadata.FindMember("dimension_separator");
  if (given != spec.metadata.MemberEnd()) {
    if (!given->value.IsString() || given->value.GetString() != separator) {
      invalid("'key_encoding' and 'metadata.dimension_separator' differ");
    }
    return;
  }
  Value value(separator.c_str(), spec.metadata.GetAllocator());
  spec.metadata.AddMember("dimension_separator", value, spec.metadata.GetAllocator());
}

const std::set<std::string>& metadata_members(int zarr_format) {
  static const std::set<std::string> v2 = {"zarr_format", "shape",   "chunks", "dtype", "fill_value",
                                           "order",       "filters", "compressor", "dimension_separator"};
  static const std::set<std::string> v3 = {"zarr_format", "node_type",  "shape",  "data_type",
                                           "chunk_grid",  "chunk_key_encoding", "fill_value", "codecs",
                                           "attributes",  "dimension_names",    "storage_transformers"};
  return zarr_format == 3 ? v3 : v2;
}

void parse_metadata(const Value& v, SpecRequest& spec) {
  require_object(v, "metadata");
  check_members(v, "metadata", metadata_members(spec.zarr_format));
  auto format = v.FindMember("zarr_format");
  if (format != v.MemberEnd() && !(format->value.IsInt() && format->value.GetInt() == spec.zarr_format)) {
    invalid("'metadata.zarr_format' must be " + std::to_string(spec.zarr_format) + " for driver \"" +
            (spec.zarr_format == 3 ? "zarr3" : "zarr") + "\"");
  }
  // Members of the schema may already be merged in (schema.codec): keep them.
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    auto merged = spec.metadata.FindMember(it->name);
    if (merged != spec.metadata.MemberEnd()) {
      if (merged->value != it->value) {
        const std::string name = it->name.GetString();
        invalid("'metadata." + name + "' and 'schema.codec." + name + "' differ");
      }
      continue;
    }
    Value key(it->name, spec.metadata.GetAllocator());
    Value copy(it->value, spec.metadata.GetAllocator());
    spec.metadata.AddMember(key, copy, spec.metadata.GetAllocator());
  }
  auto shape = v.FindMember("shape");
  if (shape != v.MemberEnd()) domain_bounds(shape->value, "metadata.shape");  // its errors name the member
}

int parse_driver(const Value& doc) {
  auto driver = doc.FindMember("driver");
  if (driver == doc.MemberEnd()) invalid("member 'driver' is required (\"zarr\" or \"zarr3\")");
  const std::string name = get_text(driver->value, "driver");
  if (name == "zarr") return 2;
  if (name == "zarr3") return 3;
  unsupported("'driver' \"" + name + "\": libzarr opens \"zarr\" (v2) and \"zarr3\" (v3)");
}

void check_top_level_members(const Value& doc, int zarr_format) {
  std::set<std::string> known = {"driver", "kvstore", "path", "dtype", "rank", "schema", "open", "create",
                                  "delete_existing", "assume_metadata", "assume_cached_metadata", "cache_pool",
                                  "data_copy_concurrency", "recheck_cached_data", "recheck_cached_metadata",
                                  "metadata", "store_data_equal_to_fill_value"};
  // TensorStore's zarr3 driver has none of these.
  if (zarr_format == 2) known.insert({"field", "metadata_key", "key_encoding"});
  check_members(doc, "", known, {"context", "transform", "metadata_cache_pool", "fill_missing_data_reads"});
}

// kvstore joined with path, in libzarr's URL syntax.
std::string parse_location(const Value& doc) {
  auto kvstore = doc.FindMember("kvstore");
  if (kvstore == doc.MemberEnd()) invalid("member 'kvstore' is required");
  std::string url = kvstore_url(kvstore->value, "kvstore");
  auto path = doc.FindMember("path");
  if (path != doc.MemberEnd()) url = join_url(url, checked_path(path->value, "path"));
  return name_anonymous_memory_store(url);
}

// The members that say what to do, before TensorStore's rules combine them.
struct ModeMembers {
  std::optional<bool> open, create;
  bool assume_metadata = false, assume_cached_metadata = false;
  bool recheck_data = true;  // recheck_cached_data: true (the default) rechecks on every read
};

// One top-level member other than driver, kvstore, path, schema and metadata.
void parse_member(const std::string& name, const Value& value, SpecRequest& spec, ModeMembers& mode) {
  if (name == "open") {
    mode.open = get_flag(value, name);
  } else if (name == "create") {
    mode.create = get_flag(value, name);
  } else if (name == "delete_existing") {
    spec.delete_existing = get_flag(value, name);
  } else if (name == "assume_metadata") {
    mode.assume_metadata = get_flag(value, name);
  } else if (name == "assume_cached_metadata") {
    mode.assume_cached_metadata = get_flag(value, name);
  } else if (name == "dtype") {
    set_dtype(spec, value, name);
  } else if (name == "rank") {
    if (!value.IsUint() || value.GetUint() > 32) invalid("'rank' must be an integer from 0 to 32, got " + text(value));
    set_rank(spec, value.GetUint(), name);
  } else if (name == "cache_pool") {
    spec.options.cache_bytes = parse_cache_pool(value);
  } else if (name == "data_copy_concurrency") {
    spec.options.thread_limit = parse_data_copy_concurrency(value);
  } else if (name == "recheck_cached_data") {
    mode.recheck_data = parse_recheck(value, name, spec.recheck_data_is_time_bound);
  } else if (name == "recheck_cached_metadata") {
    bool time_bound = false;
    parse_recheck(value, name, time_bound);  // every value is satisfied: see docs/spec.md
  } else if (name == "store_data_equal_to_fill_value") {
    spec.options.write_empty_chunks = get_flag(value, name);
  } else if (name == "field") {
    if (!value.IsNull()) spec.field = get_text(value, name);
  } else if (name == "metadata_key") {
    const std::string key = get_text(value, name);
    if (key != ".zarray") unsupported("'metadata_key' \"" + key + "\": libzarr keeps v2 metadata under .zarray only");
  } else if (name == "key_encoding") {
    parse_key_encoding(value, spec);
  }
}

// TensorStore's rules: open defaults to true only when neither open nor
// create is given; delete_existing needs create and not open; the assume
// options need open and exclude delete_existing.
void apply_mode_rules(const ModeMembers& mode, SpecRequest& spec) {
  spec.create = mode.create.value_or(false);
  spec.open = mode.open ? *mode.open : !spec.create;
  if (!spec.open && !spec.create) invalid("'open' and 'create' are both false: nothing to do");
  if (spec.delete_existing && !spec.create) invalid("'delete_existing' requires 'create': true");
  if (spec.delete_existing && spec.open) invalid("'delete_existing' requires 'open': false");
  if (mode.assume_metadata || mode.assume_cached_metadata) {
    // assume_metadata takes precedence when both are given, as in TensorStore.
    spec.assume_member = mode.assume_metadata ? "assume_metadata" : "assume_cached_metadata";
    if (spec.delete_existing) invalid("'" + spec.assume_member + "' and 'delete_existing' exclude each other");
    if (!spec.open) invalid("'" + spec.assume_member + "' requires 'open': true");
  }
}

void apply_cache_rules(const ModeMembers& mode, SpecRequest& spec) {
  if (spec.options.cache_bytes == 0) return;
  if (spec.recheck_data_is_time_bound) {
    unsupported("'recheck_cached_data' as a time bound: libzarr's cache_pool never rechecks (use false or \"open\")");
  }
  // TensorStore caches data only when it need not recheck it on every read.
  if (mode.recheck_data) spec.options.cache_bytes = 0;
}

SpecRequest parse_spec(const std::string& spec_json) {
  rapidjson::Document doc;
  try {
    doc = json::parse(spec_json, "spec");
  } catch (const Error& e) {
    fail(ZARR_ERR_INVALID_ARGUMENT, e.what());  // the spec is an argument, not stored metadata
  }
  if (!doc.IsObject()) invalid("the spec must be a JSON object");
  SpecRequest spec;
  spec.zarr_format = parse_driver(doc);
  check_top_level_members(doc, spec.zarr_format);
  spec.url = parse_location(doc);

  // The schema first: its codec members merge into the metadata constraints.
  auto schema = doc.FindMember("schema");
  if (schema != doc.MemberEnd()) parse_schema(schema->value, spec);
  auto metadata = doc.FindMember("metadata");
  if (metadata != doc.MemberEnd()) parse_metadata(metadata->value, spec);

  ModeMembers mode;
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) parse_member(it->name.GetString(), it->value, spec, mode);
  apply_mode_rules(mode, spec);
  apply_cache_rules(mode, spec);
  if (spec.field && spec.has_fill_value) {
    unsupported("'schema.fill_value' with 'field': a field's fill value comes from 'metadata.fill_value'");
  }
  spec.options.zarr_format = spec.zarr_format;
  return spec;
}

// ---- constraints against stored metadata ----------------------------------------------

bool numbers_equal(const Value& a, const Value& b) {
  if (a.IsInt64() && b.IsInt64()) return a.GetInt64() == b.GetInt64();
  if (a.IsUint64() && b.IsUint64()) return a.GetUint64() == b.GetUint64();
  return a.GetDouble() == b.GetDouble();
}

// A constraint holds when every member it gives is in the stored value with
// a matching value (objects), lists match item by item, numbers by value.
bool satisfies(const Value& stored, const Value& wanted) {
  if (wanted.IsNumber() && stored.IsNumber()) return numbers_equal(stored, wanted);
  if (wanted.IsObject()) {
    if (!stored.IsObject()) return false;
    for (auto it = wanted.MemberBegin(); it != wanted.MemberEnd(); ++it) {
      auto found = stored.FindMember(it->name);
      if (found == stored.MemberEnd() || !satisfies(found->value, it->value)) return false;
    }
    return true;
  }
  if (wanted.IsArray()) {
    if (!stored.IsArray() || stored.Size() != wanted.Size()) return false;
    for (rapidjson::SizeType i = 0; i < wanted.Size(); ++i) {
      if (!satisfies(stored[i], wanted[i])) return false;
    }
    return true;
  }
  return stored == wanted;
}

// The TensorStore name of a data type ("uint16" for "<u2" and ">u2").
std::optional<std::string> tensorstore_name(const DataType& type) {
  std::string v2 = type.to_v2_json();
  if (v2.size() > 3 && v2.front() == '"' && v2[1] == '>') {
    v2[1] = '<';
    try {
      return DataType::from_typestr(v2.substr(1, v2.size() - 2), "dtype").v3_name();
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  return type.v3_name();
}

// metadata.chunks with -1 / null: the full extent, as zarr-python's chunks.
void resolve_full_extent_chunks(Value& chunks, const std::vector<uint64_t>& shape) {
  if (!chunks.IsArray()) return;  // the metadata parser names the type error
  if (chunks.Size() != shape.size()) {
    invalid("'metadata.chunks' has " + std::to_string(chunks.Size()) + " entries but the shape " +
            std::to_string(shape.size()));
  }
  for (rapidjson::SizeType i = 0; i < chunks.Size(); ++i) {
    const bool full = chunks[i].IsNull() || (chunks[i].IsInt64() && chunks[i].GetInt64() == -1);
    if (full) chunks[i].SetUint64(std::max<uint64_t>(shape[i], 1));
  }
}

// The rank, shape, data type and chunks the spec's dtype, rank and schema
// constrain: the field's when a field is selected, else the array's.
struct ViewFigures {
  size_t ndim;
  std::vector<uint64_t> shape, chunks;
  const DataType* dtype;
  std::string dtype_name;
};

ViewFigures view_figures(const Array& array, const FieldArray* field) {
  if (field) return {field->ndim(), field->shape(), field->chunks(), &field->field().type, field->data_type_name()};
  return {array.ndim(), array.shape(), array.chunks(), &array.metadata().dtype, array.data_type_name()};
}

void check_against_stored(const SpecRequest& spec, const Array& array, const FieldArray* field) {
  rapidjson::Document stored = json::parse(array.metadata_json(), "stored metadata");
  rapidjson::Document wanted;
  wanted.CopyFrom(spec.metadata, wanted.GetAllocator());
  const std::vector<uint64_t> shape = array.shape();
  const ViewFigures view = view_figures(array, field);
  auto chunks = wanted.FindMember("chunks");
  if (chunks != wanted.MemberEnd()) resolve_full_extent_chunks(chunks->value, shape);

  for (auto it = wanted.MemberBegin(); it != wanted.MemberEnd(); ++it) {
    const std::string field = std::string("metadata.") + it->name.GetString();
    auto found = stored.FindMember(it->name);
    if (found == stored.MemberEnd() && field == "metadata.dimension_separator") {
      // zarr-python leaves the default "." out of .zarray.
      stored.AddMember("dimension_separator", ".", stored.GetAllocator());
      found = stored.FindMember(it->name);
    }
    const std::string stored_text = found == stored.MemberEnd() ? "nothing" : text(found->value);
    if (field == "metadata.dtype" || field == "metadata.data_type") {
      const DataType want = spec.zarr_format == 3 ? DataType::parse_v3(it->value, field)
                                                  : DataType::parse_v2(it->value, field);
      if (!(want == array.metadata().dtype)) contradicts(field, text(it->value), stored_text);
    } else if (found == stored.MemberEnd() || !satisfies(found->value, it->value)) {
      contradicts(field, text(it->value), stored_text);
    }
  }
  if (spec.rank && *spec.rank != view.ndim) {
    contradicts(spec.rank_member, std::to_string(*spec.rank), std::to_string(view.ndim));
  }
  if (spec.shape && *spec.shape != view.shape) {
    contradicts(spec.shape_member, list_text(*spec.shape), list_text(view.shape));
  }
  if (spec.dtype) {
    std::optional<std::string> name = tensorstore_name(*view.dtype);
    if (!name || *name != *spec.dtype) {
      contradicts(spec.dtype_member, json::quote(*spec.dtype), name ? json::quote(*name) : view.dtype_name);
    }
  }
  if (spec.has_fill_value) {
    auto stored_fill = stored.FindMember("fill_value");
    if (stored_fill == stored.MemberEnd() || !satisfies(stored_fill->value, spec.fill_value)) {
      contradicts("schema.fill_value", text(spec.fill_value),
                  stored_fill == stored.MemberEnd() ? "nothing" : text(stored_fill->value));
    }
  }
  const std::vector<uint64_t>& stored_chunks = view.chunks;
  const std::vector<int64_t>& hard = spec.chunk_layout.shape;
  if (!hard.empty()) {
    if (hard.size() != stored_chunks.size()) {
      contradicts("schema.chunk_layout shape", "rank " + std::to_string(hard.size()),
                  "rank " + std::to_string(stored_chunks.size()));
    }
    for (size_t i = 0; i < hard.size(); ++i) {
      const uint64_t want =
          hard[i] == kFullExtent ? std::max<uint64_t>(view.shape[i], 1) : static_cast<uint64_t>(hard[i]);
      if (hard[i] != kChooseChunkSize && want != stored_chunks[i]) {
        contradicts("schema.chunk_layout shape", list_text(hard), list_text(stored_chunks));
      }
    }
  }
}

// ---- the document of a new (or assumed) array ------------------------------------------

std::string v2_dtype_for(const std::string& tensorstore_dtype, const std::string& member) {
  // TensorStore's names are v3's data type names (bfloat16 and the float8
  // types included), which parse_v3 knows.
  rapidjson::Value name(tensorstore_dtype.c_str(), static_cast<rapidjson::SizeType>(tensorstore_dtype.size()));
  try {
    return DataType::parse_v3(name, member).to_v2_json();
  } catch (const Error&) {
    unsupported("'" + member + "' \"" + tensorstore_dtype + "\" is not a data type libzarr has");
  }
}

// -1 full extent, 0 chosen, as choose_chunk_shape takes them; inner_order
// -> v2 "order" ("C" for [0, 1, ...], "F" for [..., 1, 0]).
std::optional<std::string> order_for(const std::optional<std::vector<int64_t>>& inner_order) {
  if (!inner_order || inner_order->empty()) return std::nullopt;
  const size_t n = inner_order->size();
  bool c = true, f = true;
  for (size_t i = 0; i < n; ++i) {
    c = c && (*inner_order)[i] == static_cast<int64_t>(i);
    f = f && (*inner_order)[i] == static_cast<int64_t>(n - 1 - i);
  }
  if (c) return std::string("C");
  if (f) return std::string("F");
  unsupported("'schema.chunk_layout.inner_order': zarr v2 stores chunks in C or F order only");
}

std::string creation_document(const SpecRequest& spec) {
  rapidjson::Document doc;
  doc.CopyFrom(spec.metadata, doc.GetAllocator());
  auto& alloc = doc.GetAllocator();
  const bool v3 = spec.zarr_format == 3;
  auto add = [&](const char* name, Value value) {
    doc.AddMember(Value(name, alloc), value, alloc);
  };

  // With a field, the schema describes the field's view (the array's
  // dimensions and the subarray's): the records' shape and type come from
  // the metadata alone, and the view is checked once the array exists.
  const bool field = spec.field.has_value();
  if (field && !(doc.HasMember("shape") && doc.HasMember("dtype"))) {
    invalid("creating an array with 'field' needs 'metadata.shape' and 'metadata.dtype' (the records)");
  }
  std::vector<uint64_t> shape;
  if (doc.HasMember("shape")) {
    shape = domain_bounds(doc["shape"], "metadata.shape");
    if (!field && spec.shape && *spec.shape != shape) {
      invalid("'metadata.shape' is " + list_text(shape) + " but '" + spec.shape_member + "' is " +
              list_text(*spec.shape));
    }
  } else if (spec.shape) {
    shape = *spec.shape;
    rapidjson::Document parsed = json::parse(list_text(shape), "shape");
    add("shape", Value(parsed, alloc));
  } else {
    invalid("creating an array needs a shape: 'metadata.shape', 'schema.domain' or 'schema.shape'");
  }
  if (!field && spec.rank && *spec.rank != shape.size()) {
    invalid("'" + spec.rank_member + "' is " + std::to_string(*spec.rank) + " but the shape has " +
            std::to_string(shape.size()) + " dimensions");
  }

  // The data type: the metadata's own, or the TensorStore name in host order.
  const char* dtype_key = v3 ? "data_type" : "dtype";
  if (!doc.HasMember(dtype_key)) {
    if (!spec.dtype) invalid(std::string("creating an array needs a data type: 'metadata.") + dtype_key +
                             "', 'dtype' or 'schema.dtype'");
    if (v3) {
      add("data_type", Value(spec.dtype->c_str(), alloc));
    } else {
      rapidjson::Document parsed = json::parse(v2_dtype_for(*spec.dtype, spec.dtype_member), "dtype");
      add("dtype", Value(parsed, alloc));
    }
  }
  const std::string dtype_member = std::string("metadata.") + dtype_key;
  const DataType type = v3 ? DataType::parse_v3(doc[dtype_key], dtype_member) : DataType::parse_v2(doc[dtype_key], dtype_member);
  if (!field && spec.dtype && spec.metadata.HasMember(dtype_key)) {
    std::optional<std::string> name = tensorstore_name(type);
    if (!name || *name != *spec.dtype) invalid("'" + dtype_member + "' and '" + spec.dtype_member + "' differ");
  }

  if (spec.has_fill_value) {
    if (doc.HasMember("fill_value")) {
      if (!satisfies(doc["fill_value"], spec.fill_value)) invalid("'metadata.fill_value' and 'schema.fill_value' differ");
    } else {
      add("fill_value", Value(spec.fill_value, alloc));
    }
  } else if (!v3 && !doc.HasMember("fill_value")) {
    add("fill_value", Value(rapidjson::kNullType));  // TensorStore's default for new zarr arrays
  }

  if (!v3) {
    std::optional<std::string> order = order_for(spec.chunk_layout.inner_order);
    if (order && !doc.HasMember("order")) add("order", Value(order->c_str(), alloc));
  } else if (order_for(spec.chunk_layout.inner_order).value_or("C") != "C") {
    unsupported("'schema.chunk_layout.inner_order' other than C order for zarr3 (give a transpose codec)");
  }

  // The chunk shape: given in the metadata, else chosen from the chunk layout.
  const char* chunks_key = v3 ? "chunk_grid" : "chunks";
  if (!v3 && doc.HasMember("chunks")) {
    resolve_full_extent_chunks(doc["chunks"], shape);
  } else if (!doc.HasMember(chunks_key)) {
    ChunkShapeConstraints constraints;
    constraints.shape = spec.chunk_layout.shape.empty() ? spec.chunk_layout.soft_shape : spec.chunk_layout.shape;
    constraints.aspect_ratio = spec.chunk_layout.aspect_ratio;
    constraints.elements = spec.chunk_layout.elements;
    if (field) {
      // The view's trailing subarray dimensions are never chunked: keep the
      // records' part of the layout.
      auto records_part = [&](auto& v) {
        if (v.size() > shape.size()) v.resize(shape.size());
      };
      records_part(constraints.shape);
      records_part(constraints.aspect_ratio);
    }
    std::vector<uint64_t> chosen = choose_chunk_shape(shape, type.item_size(), constraints);
    rapidjson::Document parsed = json::parse(list_text(chosen), "chunks");
    if (v3) {
      Value configuration(rapidjson::kObjectType);
      configuration.AddMember("chunk_shape", Value(parsed, alloc), alloc);
      Value grid(rapidjson::kObjectType);
      grid.AddMember("name", "regular", alloc);
      grid.AddMember("configuration", configuration, alloc);
      add("chunk_grid", std::move(grid));
    } else {
      add("chunks", Value(parsed, alloc));
    }
  }
  if (v3 && !doc.HasMember("zarr_format")) add("zarr_format", Value(3));
  if (v3 && !doc.HasMember("node_type")) add("node_type", Value("array", alloc));
  return json::to_string(doc);
}

// ---- opening ---------------------------------------------------------------------------

// TensorStore opens read-write; libzarr does too where it can. HTTP stores
// and zip archives that already exist only read, so those open read-only.
NodeLocation resolve_for_open(const std::string& url, bool& writable) {
  writable = url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0;
  if (writable) {
    try {
      return resolve_url(url, StoreAccess::kReadWrite);
    } catch (const Error& e) {
      if (e.code() != ZARR_ERR_READ_ONLY) throw;
      writable = false;
    }
  }
  return resolve_url(url, StoreAccess::kRead);
}

void erase_existing(const std::string& url) {
  NodeLocation loc = resolve_url(url, StoreAccess::kErase);
  try {
    erase_node(*loc.store, loc.path);
  } catch (const Error& e) {
    if (e.code() != ZARR_ERR_NOT_FOUND) throw;  // nothing there: nothing to delete
  }
  release_store(std::move(loc.store));
}

std::unique_ptr<Array> open_existing(const SpecRequest& spec) {
  bool writable = false;
  NodeLocation loc = resolve_for_open(spec.url, writable);
  return Array::open(loc.store, loc.path, writable, spec.options);
}

// The array the spec names: assumed, opened, or (deleted and) created.
std::unique_ptr<Array> open_or_create(const SpecRequest& spec) {
  if (!spec.assume_member.empty()) {
    bool writable = false;
    NodeLocation loc = resolve_for_open(spec.url, writable);
    return Array::assume(loc.store, loc.path, writable, creation_document(spec), spec.options,
                         "'" + spec.assume_member + "'");
  }
  if (spec.delete_existing) erase_existing(spec.url);
  if (spec.open) {
    try {
      return open_existing(spec);
    } catch (const Error& e) {
      if (e.code() != ZARR_ERR_NOT_FOUND || !spec.create) throw;
    }
  }
  const std::string document = creation_document(spec);
  NodeLocation loc = resolve_url(spec.url, StoreAccess::kCreate);
  return Array::create(loc.store, loc.path, document, spec.options);
}

}  // namespace

SpecArray open_spec(const std::string& spec_json) {
  SpecRequest spec = parse_spec(spec_json);
  SpecArray result;
  result.array = open_or_create(spec);
  if (spec.field) result.field = std::make_unique<FieldArray>(*result.array, *spec.field);
  // Created and assumed arrays come from the constraints, but a field's view
  // (and the chunk layout) is only known now: every path is checked.
  check_against_stored(spec, *result.array, result.field.get());
  return result;
}

}  // namespace zarr
