// zarrtool info URL [--json]: what an array or group is, how it is stored,
// and how much of it is written. Arrays: zarr_info's JSON, as it is (--json)
// or as zarr-python's `info` table.
#include <cstdio>
#include <string>

#include "array_layout.h"
#include "cli_common.h"
#include "base/json.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kInfoHelp[] =
    "usage: zarrtool info URL [--json]\n\n"
    "Describe the array or group at URL: Zarr format, data type, shape, chunk and shard\n"
    "shape, codecs (with the v2 order, or the v3 transpose), fill value, dimension names,\n"
    "attributes, logical and stored bytes, storage ratio and how many chunks are written\n"
    "out of the total. Stored figures need a store that lists its keys (not HTTP); the\n"
    "storage ratio shows once a chunk is stored. A group: format, attributes, and its\n"
    "members counted and named (arrays, then groups), as zarr-python's group info: those\n"
    "stored, also when the group has consolidated metadata (then 'Consolidated: yes').\n\n"
    "  --json   print one JSON object instead of text\n";

void print_row(const char* label, const std::string& value) { std::printf("%-19s: %s\n", label, value.c_str()); }

std::vector<uint64_t> extents_of(const rapidjson::Value& list) {
  std::vector<uint64_t> out;
  for (const auto& v : list.GetArray()) out.push_back(v.GetUint64());
  return out;
}

std::string text_of(const rapidjson::Value& v) { return v.IsString() ? zarr::json::text(v) : to_json(v); }

// Chunk (and shard) shape. zarr_info gives a rectilinear grid's largest
// edges as "chunks" (or "shards"): its edges per axis are shown instead, from
// its "chunk_grid".
void print_grid_rows(const rapidjson::Document& info, bool sharded) {
  const GridShapes shapes = grid_shapes(info.HasMember("chunk_grid") ? to_json(info["chunk_grid"]) : "",
                                        extents_of(info[sharded ? "shards" : "chunks"]), extents_of(info["chunks"]),
                                        sharded);
  if (shapes.rectilinear) print_row("Chunk grid", "rectilinear");
  print_row("Chunk shape", shapes.chunk_shape);
  if (sharded) print_row("Shard shape", shapes.shard_shape);
}

void print_array_text(const rapidjson::Document& info) {
  print_row("Type", "Array");
  print_row("Zarr format", std::to_string(info["zarr_format"].GetInt()));
  print_row("Data type", text_of(info["data_type"]));
  print_row("Shape", python_shape(extents_of(info["shape"])));
  const bool sharded = info["shards"].IsArray();
  print_grid_rows(info, sharded);
  print_row("Fill value", to_json(info["fill_value"]));
  print_row("Codecs", to_json(info["codecs"]));
  if (!info["dimension_names"].IsNull()) print_row("Dimension names", to_json(info["dimension_names"]));
  print_row("Attributes", to_json(info["attributes"]));
  print_row("Store", shown(zarr::json::text(info["store"])));
  const rapidjson::Value& nbytes = info["nbytes"];
  print_row("No. bytes", nbytes.IsNull() ? "unknown (variable-length elements)" : std::to_string(nbytes.GetUint64()));
  const rapidjson::Value& stored = info["nbytes_stored"];
  if (stored.IsNull()) {
    print_row("No. bytes stored", "unknown (the store cannot list its keys)");
    return;
  }
  print_row("No. bytes stored", std::to_string(stored.GetUint64()));
  // Stored bytes count the metadata too: with no chunk written the ratio
  // would compare the logical size with the metadata's (76.48 for an empty
  // array), so it is shown only once data is stored.
  if (!nbytes.IsNull() && stored.GetUint64() > 0 && info["chunks_initialized"].GetUint64() > 0) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", static_cast<double>(nbytes.GetUint64()) / stored.GetUint64());
    print_row("Storage ratio", ratio);
  }
  print_row(sharded ? "Shards initialized" : "Chunks initialized",
            std::to_string(info["chunks_initialized"].GetUint64()) + "/" +
                std::to_string(info["chunks_total"].GetUint64()));
}

// "a, b, c" of the children of one kind.
std::string names_of(const std::vector<Child>& children, int kind, size_t& count) {
  std::string names;
  count = 0;
  for (const Child& child : children) {
    if (child.kind != kind) continue;
    names += (count++ ? ", " : "") + shown(child.name);
  }
  return names;
}

void print_group(const std::string& url, zarr_group* opened, bool as_json) {
  // The members are what is stored, whatever metadata view opened the group:
  // with consolidated metadata, the store's own listing where it can list
  // (over HTTP, which cannot, the consolidated one).
  const bool consolidated = has_consolidated_metadata(url);
  GroupHandle own = consolidated ? open_group_with(url, false) : GroupHandle();
  zarr_group* group = own && group_children_if_listable(own.get(), url) ? own.get() : opened;
  char* attributes = nullptr;
  check(zarr_group_get_attributes(group, &attributes), "cannot read group attributes");
  std::string attributes_json = take_json(attributes);
  const int format = zarr_group_format(group);
  if (as_json) {
    char* members = nullptr;
    check(zarr_group_list(group, &members), "cannot list group " + url);
    std::printf("{\"node_type\":\"group\",\"zarr_format\":%d,\"attributes\":%s,\"members\":%s,\"consolidated\":%s}\n",
                format, attributes_json.c_str(), take_json(members).c_str(), consolidated ? "true" : "false");
    return;
  }
  const std::vector<Child> children = group_children(group, url);
  size_t arrays = 0, groups = 0;
  const std::string array_names = names_of(children, ZARR_NODE_ARRAY, arrays);
  const std::string group_names = names_of(children, ZARR_NODE_GROUP, groups);
  print_row("Type", "Group");
  print_row("Zarr format", std::to_string(format));
  print_row("Attributes", attributes_json);
  print_row("No. members", std::to_string(children.size()));
  print_row("No. arrays", std::to_string(arrays));
  print_row("No. groups", std::to_string(groups));
  if (arrays) print_row("Arrays", array_names);
  if (groups) print_row("Groups", group_names);
  if (consolidated) print_row("Consolidated", "yes (zarrtool verify checks it against the store)");
}

}  // namespace

int run_info(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kInfoHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{"--json"}, {}});
  require_positionals(args, 1, "zarrtool info URL [--json]");
  const std::string& url = args.positionals[0];
  Node node = open_node(url, "r");
  if (node.group) {
    print_group(url, node.group.get(), args.has("--json"));
    return kExitOk;
  }
  char* info_json = nullptr;
  check(zarr_info(node.array.get(), &info_json), "cannot describe " + url);
  std::string text = take_json(info_json);
  rapidjson::Document info = parse_json(text, "zarr_info of " + url);
  // zarr_info gives the metadata's own member (v3); a v2 array's names are
  // xarray's _ARRAY_DIMENSIONS attribute, as dump shows them.
  if (info["dimension_names"].IsNull()) {
    char* names = nullptr;
    check(zarr_get_dimension_names(node.array.get(), &names), "cannot read the dimension names of " + url);
    const std::string names_json = take_json(names);
    if (names_json != "null") {
      info["dimension_names"].CopyFrom(parse_json(names_json, "dimension names of " + url), info.GetAllocator());
      text = to_json(info);
    }
  }
  if (args.has("--json")) {
    std::printf("%s\n", text.c_str());
  } else {
    print_array_text(info);
  }
  return kExitOk;
}

}  // namespace zarrtool
