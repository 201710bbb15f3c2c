// zarrtool info URL [--json]: what an array or group is, how it is stored,
// and how much of it is written.
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <string>

#include "array_layout.h"
#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kInfoHelp[] =
    "usage: zarrtool info URL [--json]\n\n"
    "Describe the array or group at URL: Zarr format, data type, shape, chunk and shard\n"
    "shape, codecs, fill value, dimension names, attributes, logical and stored bytes\n"
    "and how many chunks are written. Stored bytes and written chunks are known for\n"
    "filesystem stores only.\n\n"
    "  --json   print one JSON object instead of text\n";

// Everything info reports about an array, gathered once for both outputs.
struct ArrayFacts {
  int zarr_format = 0;
  std::string data_type_json;  // JSON: "int32" or the v2 dtype document
  std::string data_type_text;
  std::vector<uint64_t> shape;
  ArrayLayout layout;
  std::string dimension_names_json;
  std::string attributes_json;
  bool nbytes_known = false;  // not for variable-length elements
  uint64_t nbytes = 0;
  StorageStats stored;

  std::vector<uint64_t> chunk_shape() const { return layout.sharded() ? layout.inner_chunk_shape : layout.storage_shape; }
};

ArrayFacts gather_array_facts(const std::string& url, const zarr_array* array) {
  ArrayFacts facts;
  facts.zarr_format = zarr_format(array);
  std::string type = zarr_data_type(array);
  const bool type_is_json = !type.empty() && (type[0] == '"' || type[0] == '[' || type[0] == '{');
  facts.data_type_json = type_is_json ? type : json_string(type);
  facts.data_type_text = display_data_type(array);
  facts.shape = array_shape(array);
  facts.layout = read_layout(array);
  char* names = nullptr;
  check(zarr_get_dimension_names(array, &names), "cannot read dimension names");
  facts.dimension_names_json = take_json(names);
  facts.attributes_json = array_attributes_json(array);
  facts.nbytes_known = zarr_item_size(array) > 0;
  facts.nbytes = product(facts.shape) * zarr_item_size(array);
  facts.stored = storage_stats(url, array, facts.layout);
  return facts;
}

std::string ratio_text(const ArrayFacts& f) {
  if (!f.nbytes_known || !f.stored.known || f.stored.bytes_stored == 0) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(f.nbytes) / f.stored.bytes_stored);
  return text;
}

std::string or_null(bool known, const std::string& value) { return known && !value.empty() ? value : "null"; }

void print_array_json(const ArrayFacts& f) {
  const bool stored = f.stored.known;
  std::printf(
      "{\"node_type\":\"array\",\"zarr_format\":%d,\"shape\":%s,\"data_type\":%s,\"chunks\":%s,"
      "\"shards\":%s,\"fill_value\":%s,\"codecs\":%s,\"dimension_names\":%s,\"attributes\":%s,"
      "\"nbytes\":%s,\"nbytes_stored\":%s,\"storage_ratio\":%s,\"chunks_initialized\":%s,\"chunks_total\":%s}\n",
      f.zarr_format, json_extents(f.shape).c_str(), f.data_type_json.c_str(), json_extents(f.chunk_shape()).c_str(),
      f.layout.sharded() ? json_extents(f.layout.storage_shape).c_str() : "null", f.layout.fill_value_json.c_str(),
      f.layout.codecs_json.c_str(), f.dimension_names_json.c_str(), f.attributes_json.c_str(),
      or_null(f.nbytes_known, std::to_string(f.nbytes)).c_str(),
      or_null(stored, std::to_string(f.stored.bytes_stored)).c_str(), or_null(true, ratio_text(f)).c_str(),
      or_null(stored, std::to_string(f.stored.objects_present)).c_str(),
      std::to_string(f.stored.known ? f.stored.objects_total : 0).c_str());
}

void print_row(const char* label, const std::string& value) { std::printf("%-19s: %s\n", label, value.c_str()); }

void print_array_text(const ArrayFacts& f) {
  print_row("Type", "Array");
  print_row("Zarr format", std::to_string(f.zarr_format));
  print_row("Data type", f.data_type_text);
  print_row("Shape", python_shape(f.shape));
  print_row("Chunk shape", python_shape(f.chunk_shape()));
  if (f.layout.sharded()) print_row("Shard shape", python_shape(f.layout.storage_shape));
  print_row("Fill value", f.layout.fill_value_json);
  print_row("Codecs", f.layout.codecs_json);
  if (f.dimension_names_json != "null") print_row("Dimension names", f.dimension_names_json);
  print_row("Attributes", f.attributes_json);
  print_row("No. bytes", f.nbytes_known ? std::to_string(f.nbytes) : "unknown (variable-length elements)");
  if (!f.stored.known) {
    print_row("No. bytes stored", "unknown (not a filesystem store)");
    return;
  }
  print_row("No. bytes stored", std::to_string(f.stored.bytes_stored));
  if (!ratio_text(f).empty()) print_row("Storage ratio", ratio_text(f));
  const char* unit = f.layout.sharded() ? "Shards initialized" : "Chunks initialized";
  print_row(unit, std::to_string(f.stored.objects_present) + "/" + std::to_string(f.stored.objects_total));
}

// The C API has no zarr_group_format(): on a filesystem the metadata file
// name tells; elsewhere the format is reported as unknown (0 / null).
int local_group_format(const std::string& url) {
  std::string dir = local_directory(url);
  if (dir.empty()) return 0;
  if (std::filesystem::exists(std::filesystem::path(dir) / "zarr.json")) return 3;
  if (std::filesystem::exists(std::filesystem::path(dir) / ".zgroup")) return 2;
  return 0;
}

void print_group(const std::string& url, zarr_group* group, bool as_json) {
  char* attributes = nullptr;
  check(zarr_group_get_attributes(group, &attributes), "cannot read group attributes");
  std::string attributes_json = take_json(attributes);
  char* members = nullptr;
  check(zarr_group_list(group, &members), "cannot list group " + url);
  std::string members_json = take_json(members);
  const int format = local_group_format(url);
  if (as_json) {
    std::printf("{\"node_type\":\"group\",\"zarr_format\":%s,\"attributes\":%s,\"members\":%s}\n",
                format ? std::to_string(format).c_str() : "null", attributes_json.c_str(), members_json.c_str());
    return;
  }
  print_row("Type", "Group");
  print_row("Zarr format", format ? std::to_string(format) : "unknown");
  print_row("Attributes", attributes_json);
  print_row("Members", members_json);
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
  ArrayFacts facts = gather_array_facts(url, node.array.get());
  if (args.has("--json")) {
    print_array_json(facts);
  } else {
    print_array_text(facts);
  }
  return kExitOk;
}

}  // namespace zarrtool
