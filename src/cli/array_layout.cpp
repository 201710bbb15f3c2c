#include "array_layout.h"

#include <filesystem>
#include <optional>
#include <utility>

#include "array_walk.h"
#include "cli_common.h"
#include "base/json.h"

namespace fs = std::filesystem;

namespace zarrtool {

std::string ArrayLayout::chunk_key(const std::vector<uint64_t>& index) const {
  if (index.empty()) return scalar_key;
  std::string key = key_prefix;
  for (size_t d = 0; d < index.size(); ++d) {
    if (d) key += key_separator;
    key += std::to_string(index[d]);
  }
  return key;
}

static std::vector<uint64_t> extents_of(const rapidjson::Value& list) {
  std::vector<uint64_t> extents;
  if (!list.IsArray()) return extents;
  for (const auto& item : list.GetArray()) extents.push_back(item.IsUint64() ? item.GetUint64() : 0);
  return extents;
}

static const rapidjson::Value* member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// v2 (and v1): chunks, dimension_separator, filters + compressor as one list.
static void read_v2_layout(const rapidjson::Document& doc, ArrayLayout& layout) {
  if (const auto* chunks = member(doc, "chunks")) layout.storage_shape = extents_of(*chunks);
  if (const auto* sep = member(doc, "dimension_separator"); sep && sep->IsString()) {
    layout.key_separator = zarr::json::text(*sep);
  }
  rapidjson::Document codecs(rapidjson::kArrayType);
  auto& alloc = codecs.GetAllocator();
  if (const auto* filters = member(doc, "filters"); filters && filters->IsArray()) {
    for (const auto& f : filters->GetArray()) codecs.PushBack(rapidjson::Value(f, alloc), alloc);
  }
  if (const auto* compressor = member(doc, "compressor"); compressor && compressor->IsObject()) {
    codecs.PushBack(rapidjson::Value(*compressor, alloc), alloc);
  }
  layout.codecs_json = to_json(codecs);
}

static void read_v3_key_encoding(const rapidjson::Value& encoding, ArrayLayout& layout) {
  const auto* name = member(encoding, "name");
  const bool v2_keys = name && name->IsString() && zarr::json::text(*name) == "v2";
  layout.key_separator = v2_keys ? "." : "/";
  if (const auto* config = member(encoding, "configuration")) {
    if (const auto* sep = member(*config, "separator"); sep && sep->IsString()) layout.key_separator = zarr::json::text(*sep);
  }
  layout.key_prefix = v2_keys ? "" : "c" + layout.key_separator;
  layout.scalar_key = v2_keys ? "0" : "c";
}

static void read_v3_layout(const rapidjson::Document& doc, ArrayLayout& layout) {
  if (const auto* grid = member(doc, "chunk_grid")) {
    const auto* name = member(*grid, "name");
    if (name && name->IsString() && zarr::json::text(*name) == "rectilinear") layout.rectilinear_grid_json = to_json(*grid);
    if (const auto* config = member(*grid, "configuration")) {
      if (const auto* shape = member(*config, "chunk_shape")) layout.storage_shape = extents_of(*shape);
    }
  }
  if (const auto* encoding = member(doc, "chunk_key_encoding")) read_v3_key_encoding(*encoding, layout);
  if (const auto* codecs = member(doc, "codecs"); codecs && codecs->IsArray()) {
    layout.codecs_json = to_json(*codecs);
    // A sharded array names sharding_indexed as its array->bytes codec.
    for (const auto& codec : codecs->GetArray()) {
      const auto* name = member(codec, "name");
      if (!name || !name->IsString() || zarr::json::text(*name) != "sharding_indexed") continue;
      if (const auto* config = member(codec, "configuration")) {
        if (const auto* inner = member(*config, "chunk_shape")) layout.inner_chunk_shape = extents_of(*inner);
      }
    }
  }
}

ArrayLayout read_layout(const zarr_array* array) {
  ArrayLayout layout;
  layout.zarr_format = zarr_format(array);
  rapidjson::Document doc = parse_json(array_metadata_json(array), "the array's metadata");
  if (const auto* fill = member(doc, "fill_value")) layout.fill_value_json = to_json(*fill);
  if (layout.zarr_format == 3) {
    read_v3_layout(doc, layout);
  } else {
    read_v2_layout(doc, layout);
  }
  if (layout.storage_shape.size() != zarr_ndim(array)) layout.storage_shape = array_chunk_shape(array);
  return layout;
}

namespace {

// One axis' chunk_shapes entry as runs of equal edges: [[2, 2], 1, 1, 5]
// gives (2, 2), (1, 2), (5, 1). A count that would pass 2^64 - 1 starts a
// new run.
std::vector<std::pair<uint64_t, uint64_t>> edge_runs(const rapidjson::Value& axis) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  for (const auto& item : axis.GetArray()) {
    const bool is_run = item.IsArray() && item.Size() == 2;
    const uint64_t edge = is_run ? item[0].GetUint64() : item.GetUint64();
    const uint64_t count = is_run ? item[1].GetUint64() : 1;
    if (!runs.empty() && runs.back().first == edge && runs.back().second <= UINT64_MAX - count) {
      runs.back().second += count;
    } else {
      runs.emplace_back(edge, count);
    }
  }
  return runs;
}

std::string axis_edges_text(const rapidjson::Value& axis) {
  if (axis.IsUint64()) return std::to_string(axis.GetUint64());
  std::string text = "[";
  for (const auto& [edge, count] : edge_runs(axis)) {
    if (text.size() > 1) text += ", ";
    text += std::to_string(edge) + (count > 1 ? "x" + std::to_string(count) : "");
  }
  return text + "]";
}

}  // namespace

std::string rectilinear_shape_text(const std::string& chunk_grid_json) {
  const rapidjson::Document grid = parse_json(chunk_grid_json, "the chunk grid");
  const rapidjson::Value& axes = grid["configuration"]["chunk_shapes"];
  std::string text = "(";
  for (const auto& axis : axes.GetArray()) {
    if (text.size() > 1) text += ", ";
    text += axis_edges_text(axis);
  }
  return text + (axes.Size() == 1 ? ",)" : ")");
}

GridShapes grid_shapes(const std::string& chunk_grid_json, const std::vector<uint64_t>& storage_shape,
                       const std::vector<uint64_t>& inner_chunk_shape, bool sharded) {
  GridShapes shapes;
  shapes.rectilinear = !chunk_grid_json.empty();
  const std::string storage = shapes.rectilinear ? rectilinear_shape_text(chunk_grid_json) : python_shape(storage_shape);
  shapes.chunk_shape = sharded ? python_shape(inner_chunk_shape) : storage;
  if (sharded) shapes.shard_shape = storage;
  return shapes;
}

std::optional<std::vector<uint64_t>> axis_boundaries(zarr_array* array, size_t axis, size_t* chunks) {
  const std::string what = "cannot read the chunk boundaries of axis " + std::to_string(axis);
  size_t count = 0;
  const int status = zarr_chunk_boundaries(array, axis, nullptr, 0, &count);
  if (status != ZARR_ERR_BUFFER_SIZE) check(status, what);
  *chunks = count - 1;
  if (count - 1 > kMaxWalkedChunks) return std::nullopt;
  std::vector<uint64_t> bounds(count);
  check(zarr_chunk_boundaries(array, axis, bounds.data(), bounds.size(), &count), what);
  return bounds;
}

StorageGrid storage_grid(zarr_array* array, const ArrayLayout& layout) {
  StorageGrid grid{array_shape(array), layout.storage_shape, {}};
  if (layout.rectilinear_grid_json.empty()) return grid;
  for (size_t d = 0; d < grid.ndim(); ++d) {
    size_t chunks = 0;
    std::optional<std::vector<uint64_t>> bounds = axis_boundaries(array, d, &chunks);
    if (!bounds) {
      throw CliError(kExitOther, "axis " + std::to_string(d) + " has " +
                                     (chunks == SIZE_MAX - 1 ? std::string("2^64 or more") : std::to_string(chunks)) +
                                     " chunks, more than zarrtool walks (" + std::to_string(kMaxWalkedChunks) + ")");
    }
    grid.boundaries.push_back(std::move(*bounds));
  }
  return grid;
}

}  // namespace zarrtool
