// The spec front end, part 1: the spec document read into a SpecRequest,
// every member checked and none ignored (docs/spec.md).
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "grid/chunk_shape.h"
#include "spec/spec_request.h"

namespace zarr::spec_detail {

// Every string of a spec names something (a path, URL, driver, type,
// field): a NUL inside is refused rather than read as its end.
std::string get_text(const Value& v, const std::string& name) {
  if (!v.IsString()) invalid("'" + name + "' must be a string, got " + text(v));
  return json::nul_free_text(v, "spec: '" + name + "'");
}

// Members of an object that are neither known nor unsupported are a mistake
// (a typo must not be ignored); unsupported ones are named as such.
void check_members(const Value& object, const std::string& where, const std::set<std::string>& known,
                   const std::set<std::string>& unsupported_members) {
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
    const std::string name = json::text(it->name);
    const std::string full = where.empty() ? name : where + "." + name;
    if (unsupported_members.count(name)) unsupported("member " + json::quote(full) + " is not supported by libzarr");
    if (!known.count(name)) invalid(json::unknown("member", full));
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

namespace {

bool get_flag(const Value& v, const std::string& name) {
  if (!v.IsBool()) invalid("'" + name + "' must be true or false, got " + text(v));
  return v.GetBool();
}

const Value& require_object(const Value& v, const std::string& name) {
  if (!v.IsObject()) invalid("'" + name + "' must be an object, got " + text(v));
  return v;
}

void set_rank(SpecRequest& spec, size_t rank, const std::string& member) {
  if (spec.rank && *spec.rank != rank) {
    invalid("'" + spec.rank_member + "' says rank " + std::to_string(*spec.rank) + " but '" + member + "' says " +
            std::to_string(rank));
  }
  spec.rank = rank;
  spec.rank_member = member;
}

// A "rank" member of the schema or its parts: 0 to 32 (TensorStore's kMaxRank).
size_t rank_of(const Value& v, const std::string& member) {
  if (!v.IsUint() || v.GetUint() > 32) invalid("'" + member + "' must be 0 to 32");
  return v.GetUint();
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
    const std::string name = json::text(it->name);
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
    const std::string name = json::text(it->name);
    const std::string full = where + "." + name;
    if (name == "rank") {
      set_rank(spec, rank_of(it->value, full), full);
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
    const std::string name = json::text(it->name);
    const std::string full = where + "." + name;
    if (name == "rank") {
      set_rank(spec, rank_of(it->value, full), full);
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
    const std::string name = json::text(it->name);
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
    const std::string name = json::text(it->name);
    const std::string full = "schema." + name;
    if (name == "rank") {
      set_rank(spec, rank_of(it->value, full), full);
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
    if (json::text(v) == "cache_pool") return 0;
    unsupported("'cache_pool' " + text(v) + ": context resource references are not supported");
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
    if (json::text(v) == "data_copy_concurrency") return 0;
    unsupported("'data_copy_concurrency' " + text(v) + ": context resource references are not supported");
  }
  return thread_limit_option(v, "spec");
}

// TensorStore's CacheRevalidationBound: true, false, "open", or a time.
// Returns whether it asks to recheck on every read (true).
bool parse_recheck(const Value& v, const std::string& member, bool& time_bound) {
  if (v.IsBool()) return v.GetBool();
  if (v.IsString() && json::text(v) == "open") return false;
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
    if (!given->value.IsString() || json::text(given->value) != separator) {
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
        const std::string name = json::text(it->name);
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
  // TensorStore's zarr3 driver has none of these; libzarr takes "field" for
  // v3 struct arrays as for v2 structured ones.
  known.insert("field");
  if (zarr_format == 2) known.insert({"metadata_key", "key_encoding"});
  check_members(doc, "", known, {"context", "transform", "metadata_cache_pool", "fill_missing_data_reads"});
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

}  // namespace

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
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) parse_member(json::text(it->name), it->value, spec, mode);
  apply_mode_rules(mode, spec);
  apply_cache_rules(mode, spec);
  if (spec.field && spec.has_fill_value) {
    unsupported("'schema.fill_value' with 'field': a field's fill value comes from 'metadata.fill_value'");
  }
  spec.options.zarr_format = spec.zarr_format;
  return spec;
}

}  // namespace zarr::spec_detail
