// zarrtool dump URL [--json]: the metadata and attributes of every node of a
// hierarchy, array by array, as `ncdump -h` and `gdalmdiminfo` show a file's
// header: no data is read.
#include <cstdio>
#include <string>
#include <vector>

#include "array_layout.h"
#include "base/json.h"
#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kDumpHelp[] =
    "usage: zarrtool dump URL [--json]\n\n"
    "Print the metadata of the group at URL and of every group and array below it, depth\n"
    "first in name order, as ncdump -h prints a file's header: for each node its path and\n"
    "Zarr format; for an array its data type, shape, dimension names, chunk (and shard)\n"
    "shape, fill value and codecs; then the node's attributes, one per line. No chunk is\n"
    "read. An array URL dumps that array.\n\n"
    "  --json   one JSON object mapping each node's path (\"/\", \"/a\", \"/g/b\") to\n"
    "           {\"node_type\", \"zarr_format\", \"attributes\"} and, for arrays, \"metadata\":\n"
    "           the stored metadata document as zarr_get_metadata gives it\n";

// Writes one node at a time, as text or as members of one JSON object.
class Dumper {
 public:
  explicit Dumper(bool as_json) : as_json_(as_json) {}

  void group(const std::string& path, zarr_group* group) {
    char* attributes = nullptr;
    check(zarr_group_get_attributes(group, &attributes), "cannot read the attributes of " + path);
    const std::string attributes_json = take_json(attributes);
    const int format = zarr_group_format(group);
    if (as_json_) {
      member(path, "{\"node_type\":\"group\",\"zarr_format\":" + std::to_string(format) +
                       ",\"attributes\":" + attributes_json + "}");
      return;
    }
    std::printf("group %s (Zarr v%d)\n", shown(path).c_str(), format);
    print_attributes(attributes_json);
  }

  void array(const std::string& path, zarr_array* array) {
    const std::string attributes_json = array_attributes_json(array);
    if (as_json_) {
      member(path, "{\"node_type\":\"array\",\"zarr_format\":" + std::to_string(zarr_format(array)) +
                       ",\"metadata\":" + array_metadata_json(array) + ",\"attributes\":" + attributes_json + "}");
      return;
    }
    const ArrayLayout layout = read_layout(array);
    std::printf("array %s (Zarr v%d)\n", shown(path).c_str(), layout.zarr_format);
    print_field("data type", display_data_type(array));
    print_field("shape", python_shape(array_shape(array)));
    char* names = nullptr;
    check(zarr_get_dimension_names(array, &names), "cannot read the dimension names of " + path);
    const std::string names_json = take_json(names);
    if (names_json != "null") print_field("dimension names", names_json);
    print_grid(layout);
    print_field("fill value", layout.fill_value_json);
    print_field("codecs", layout.codecs_json);
    print_attributes(attributes_json);
  }

  void finish() const {
    if (as_json_) std::printf("%s}\n", first_ ? "{" : "");
  }

 private:
  void member(const std::string& path, const std::string& value) {
    std::printf("%s%s:%s", first_ ? "{" : ",", json_string(path).c_str(), value.c_str());
    first_ = false;
  }

  static void print_field(const char* name, const std::string& value) {
    std::printf("    %s: %s\n", name, value.c_str());
  }

  // The chunk (and shard) shape; a rectilinear grid's per axis, as its own
  // line says.
  static void print_grid(const ArrayLayout& layout) {
    const GridShapes shapes = grid_shapes(layout.rectilinear_grid_json, layout.storage_shape,
                                          layout.inner_chunk_shape, layout.sharded());
    if (shapes.rectilinear) print_field("chunk grid", "rectilinear");
    print_field("chunk shape", shapes.chunk_shape);
    if (!shapes.shard_shape.empty()) print_field("shard shape", shapes.shard_shape);
  }

  // Each attribute as `name = JSON value`, as ncdump prints `:name = value ;`.
  static void print_attributes(const std::string& attributes_json) {
    const rapidjson::Document attributes = parse_json(attributes_json, "the attributes");
    if (!attributes.IsObject() || attributes.MemberCount() == 0) return;
    std::printf("    attributes:\n");
    for (const auto& attribute : attributes.GetObject()) {
      std::printf("        %s = %s\n", shown(zarr::json::text(attribute.name)).c_str(), to_json(attribute.value).c_str());
    }
  }

  bool as_json_;
  bool first_ = true;
};

std::string child_path(const std::string& path, const std::string& name) {
  return path == "/" ? "/" + name : path + "/" + name;
}

void dump_group(Dumper& dumper, const std::string& url, const std::string& path, zarr_group* group) {
  dumper.group(path, group);
  for (const Child& child : group_children(group, url)) {
    const std::string child_url = join_url(url, child.name);
    if (child.kind == ZARR_NODE_ARRAY) {
      zarr_array* raw = nullptr;
      check(zarr_group_open_array(&raw, group, child.name.c_str(), "r"), "cannot open array " + child_url);
      dumper.array(child_path(path, child.name), ArrayHandle(raw).get());
      continue;
    }
    dump_group(dumper, child_url, child_path(path, child.name), open_child_group(group, child.name, child_url).get());
  }
}

}  // namespace

int run_dump(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kDumpHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{"--json"}, {}});
  require_positionals(args, 1, "zarrtool dump URL [--json]");
  const std::string& url = args.positionals[0];
  Node node = open_node(url, "r");
  Dumper dumper(args.has("--json"));
  if (node.array) {
    dumper.array("/", node.array.get());
  } else {
    dump_group(dumper, url, "/", node.group.get());
  }
  dumper.finish();
  return kExitOk;
}

}  // namespace zarrtool
