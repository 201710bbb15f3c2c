// zarrtool create URL --shape S --dtype T [...]: a new, empty array.
#include <cstdio>
#include <string>

#include "array_spec.h"
#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kCreateHelp[] =
    "usage: zarrtool create URL --shape 100,100 --dtype int32 [--chunks 10,10] [--shards 50,50]\n"
    "                       [--codec JSON] [--fill V] [--format 2|3] [--attrs JSON]\n\n"
    "       zarrtool create URL --group [--format 2|3] [--attrs JSON]\n\n"
    "Create an empty array, or with --group a group, at URL (missing parent groups\n"
    "inside an enclosing hierarchy are created).\n\n"
    "  --group       create a group instead of an array\n"
    "  --shape S     extents, comma-separated\n"
    "  --dtype T     data type, v3 name (int32, float64, bool...) or NumPy string (<i4, |u1...)\n"
    "  --chunks C    chunk shape (default: one chunk); with --shards, the inner chunks\n"
    "  --shards S    shard shape (Zarr v3 only): chunks are stored in shards of this shape\n"
    "  --codec JSON  v3: a list is the whole codec chain, an object a compressor after\n"
    "                'bytes', e.g. '{\"name\":\"zstd\",\"configuration\":{\"level\":3}}';\n"
    "                v2: the compressor, e.g. '{\"id\":\"zlib\",\"level\":1}' or null\n"
    "  --fill V      fill value: a JSON value (0, 1.5, true, \"NaN\"); bare words become strings\n"
    "  --format F    Zarr format, 2 or 3 (default 3)\n"
    "  --attrs JSON  attributes, a JSON object\n";

int parse_format(const std::string& text) {
  if (text == "2") return 2;
  if (text == "3") return 3;
  usage_error("--format must be 2 or 3, not '" + text + "'");
}

int run_create_group(const std::string& url, const Args& args, int format) {
  std::string attributes = args.get("--attrs");
  if (!attributes.empty()) parse_json(attributes, "--attrs");
  GroupHandle group = create_group(url, attributes, format);
  check(zarr_group_close(group.release()), "cannot finish writing " + url);
  return kExitOk;
}

}  // namespace

int run_create(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kCreateHelp)) return kExitOk;
  Args args = parse_args(argc, argv,
                         OptionSpec{{"--group"}, {"--shape", "--dtype", "--chunks", "--shards", "--codec", "--fill", "--format",
                                         "--attrs"}});
  require_positionals(args, 1, "zarrtool create URL --shape S --dtype T [options]");
  if (args.has("--group")) return run_create_group(args.positionals[0], args, parse_format(args.get("--format", "3")));
  if (!args.has("--shape") || !args.has("--dtype")) usage_error("create needs --shape and --dtype");
  ArraySpec spec;
  spec.zarr_format = parse_format(args.get("--format", "3"));
  spec.shape = parse_extents(args.get("--shape"), "--shape");
  spec.data_type = args.get("--dtype");
  if (args.has("--chunks")) spec.chunks = parse_extents(args.get("--chunks"), "--chunks");
  if (args.has("--shards")) spec.shards = parse_extents(args.get("--shards"), "--shards");
  spec.codec_json = args.get("--codec");
  if (args.has("--fill")) spec.fill_value_json = fill_value_json(args.get("--fill"));
  if (args.has("--attrs")) {
    parse_json(args.get("--attrs"), "--attrs");
    spec.attributes_json = args.get("--attrs");
  }
  const std::string& url = args.positionals[0];
  std::string document = metadata_document(spec);
  ArrayHandle array = create_array(url, document);
  // v2 attributes live beside the .zarray document, so they are set apart.
  if (spec.zarr_format == 2 && !spec.attributes_json.empty()) {
    check(zarr_set_attributes(array.get(), spec.attributes_json.c_str()), "cannot set attributes of " + url);
  }
  check(zarr_close(array.release()), "cannot finish writing " + url);
  return kExitOk;
}

}  // namespace zarrtool
