// zarrtool create URL --shape S --dtype T [...]: a new, empty array.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "array_spec.h"
#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kCreateHelp[] =
    "usage: zarrtool create URL --shape 100,100 --dtype int32 [--chunks 10,10] [--shards 50,50]\n"
    "                       [--chunk-edges E] [--codec JSON] [--fill V] [--format 2|3] [--attrs JSON]\n\n"
    "       zarrtool create URL --group [--format 2|3] [--attrs JSON]\n\n"
    "Create an empty array, or with --group a group, at URL (missing parent groups\n"
    "inside an enclosing hierarchy are created).\n\n"
    "  --group       create a group instead of an array\n"
    "  --shape S     extents, comma-separated\n"
    "  --dtype T     data type: a v3 name or a NumPy typestr, in either format:\n"
    "                bool int8..int64 uint8..uint64 float16 float32 float64 complex64\n"
    "                complex128 (|b1 <i4 <f8 <c16...), bfloat16, int4, float8_e4m3fn...;\n"
    "                strings: '<U6' (v3 fixed_length_utf32), '|S2' (null_terminated_bytes),\n"
    "                '|V4' (raw_bytes), string / variable_length_bytes (v2: |O with a\n"
    "                vlen-utf8 / vlen-bytes object codec); times: '<M8[s]', '<m8[10ms]'\n"
    "                (numpy.datetime64 / numpy.timedelta64, every unit); a v2 field\n"
    "                list for structured types (v2 only). NumPy's spellings as zarr-python\n"
    "                takes them too: i4 f8 u1 b1 ? U6 S4 M8[ns] m8[s] datetime64[ns] str int\n"
    "                float (little endian unless a '>' is written). See docs/dtypes.md\n"
    "  --chunks C    chunk shape (default: one chunk); with --shards, the inner chunks\n"
    "  --shards S    shard shape (Zarr v3 only): chunks are stored in shards of this shape\n"
    "  --chunk-edges E  a rectilinear chunk grid (Zarr v3 only): per axis, separated by ';',\n"
    "                an integer (a regular step) or comma-separated edge lengths, each N\n"
    "                or NxC (C edges of N): '2,3,5;4' or '10x3,5;8'. With --chunks the\n"
    "                edges are shards' holding chunks of that shape (not with --shards)\n"
    "  --codec JSON  v3: a list is the whole codec chain, an object a compressor after\n"
    "                'bytes', e.g. '{\"name\":\"zstd\",\"configuration\":{\"level\":3}}';\n"
    "                v2: the compressor, e.g. '{\"id\":\"zlib\",\"level\":1}' or null\n"
    "  --fill V      fill value: a JSON value (0, 1.5, true, \"NaN\"); bare words become strings\n"
    "  --format F    Zarr format, 2 or 3 (default: the parent group's, else 3); a\n"
    "                node of another format than its parent group is refused\n"
    "  --attrs JSON  attributes, a JSON object\n";

int parse_format(const std::string& text) {
  if (text == "2") return 2;
  if (text == "3") return 3;
  usage_error("--format must be 2 or 3, not '" + text + "'");
}

// The nearest group above URL, when there is one (opened "r+"), and URL's
// path below it: the groups between that do not exist yet are created in its
// format. The climb passes names that are not there yet and stops at a local
// folder that is no group, or after 32 levels; a node below an array is then
// refused by the library (create_parent_groups), which climbs past arrays.
struct Parent {
  GroupHandle group;
  std::string name;
};
std::optional<Parent> parent_group(const std::string& url) {
  std::string at = url, name;
  for (int level = 0; level < 32; ++level) {
    const size_t slash = at.find_last_of("/:");
    if (slash == std::string::npos || slash == 0 || at[slash] == ':' || at[slash - 1] == '/') return std::nullopt;
    name = name.empty() ? at.substr(slash + 1) : at.substr(slash + 1) + "/" + name;
    at = at.substr(0, slash);
    zarr_group* raw = nullptr;
    const std::string parent = store_url(at);
    if (zarr_group_open_ex(&raw, parent.c_str(), "r+", api_options("\"consolidated\":false").c_str()) == ZARR_OK) {
      return Parent{GroupHandle(raw), name};
    }
    std::error_code ec;
    if (at.find("://") == std::string::npos && std::filesystem::exists(at, ec)) return std::nullopt;
  }
  return std::nullopt;
}

// --format, else the parent group's format (one hierarchy, one format), else
// v3 for a new root, as zarr-python 3.
int format_for(const std::optional<Parent>& parent, const Args& args) {
  if (args.has("--format")) return parse_format(args.get("--format"));
  return parent ? zarr_group_format(parent->group.get()) : 3;
}

// --attrs, checked to be a JSON object before anything is written (v2
// attributes are set after the array exists, so a late refusal left the
// array and the groups made on the way behind); "" when not given.
std::string attributes_option(const Args& args) {
  const std::string attributes = args.get("--attrs");
  if (!attributes.empty() && !parse_json(attributes, "--attrs").IsObject()) {
    usage_error("--attrs must be a JSON object, got " + attributes);
  }
  return attributes;
}

int run_create_group(const std::string& url, const Args& args) {
  const std::string attributes = attributes_option(args);
  const int format = format_for(parent_group(url), args);
  // A group of the other format than an enclosing one is refused by the
  // library (refuse_format_mixing), with nothing written.
  GroupHandle group = create_group(url, attributes, format);
  check(zarr_group_close(group.release()), "cannot finish writing " + url);
  return kExitOk;
}

// Through the parent group when there is one, which refuses a node of
// another format than its own.
ArrayHandle create_array_at(const std::string& url, const std::optional<Parent>& parent, const std::string& document) {
  if (!parent) return create_array(url, document);
  zarr_array* raw = nullptr;
  check(zarr_group_create_array(&raw, parent->group.get(), parent->name.c_str(), document.c_str()),
        "cannot create array " + url);
  return ArrayHandle(raw);
}

// --dtype in NumPy's spelling when the library takes that (numpy_style_dtype),
// else as given, so that a refusal names the type as the user wrote it.
std::string data_type_named(const std::string& text, int format) {
  const std::string numpy = numpy_style_dtype(text);
  if (numpy == text) return text;
  char* form = nullptr;
  if (zarr_data_type_form(numpy.c_str(), "", format, &form) != ZARR_OK) return text;
  zarr_free(form);
  return numpy;
}

}  // namespace

int run_create(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kCreateHelp)) return kExitOk;
  Args args = parse_args(argc, argv,
                         OptionSpec{{"--group"}, {"--shape", "--dtype", "--chunks", "--shards", "--chunk-edges", "--codec", "--fill",
                                         "--format", "--attrs"}});
  require_positionals(args, 1, "zarrtool create URL --shape S --dtype T [options]");
  if (args.has("--group")) return run_create_group(args.positionals[0], args);
  if (!args.has("--shape") || !args.has("--dtype")) usage_error("create needs --shape and --dtype");
  ArraySpec spec;
  const std::optional<Parent> parent = parent_group(args.positionals[0]);
  spec.zarr_format = format_for(parent, args);
  spec.shape = parse_extents(args.get("--shape"), "--shape");
  spec.data_type = data_type_named(args.get("--dtype"), spec.zarr_format);
  if (args.has("--chunks")) spec.chunks = parse_extents(args.get("--chunks"), "--chunks");
  if (args.has("--shards")) spec.shards = parse_extents(args.get("--shards"), "--shards");
  if (args.has("--chunk-edges")) spec.chunk_grid_json = chunk_edges_grid_json(args.get("--chunk-edges"), spec.shape.size());
  spec.codec_json = args.get("--codec");
  if (args.has("--fill")) spec.fill_value_json = fill_value_json(args.get("--fill"));
  spec.attributes_json = attributes_option(args);
  const std::string& url = args.positionals[0];
  std::string document = metadata_document(spec);
  ArrayHandle array = create_array_at(url, parent, document);
  // v2 attributes live beside the .zarray document, so they are set apart.
  if (spec.zarr_format == 2 && !spec.attributes_json.empty()) {
    check(zarr_set_attributes(array.get(), spec.attributes_json.c_str()), "cannot set attributes of " + url);
  }
  check(zarr_close(array.release()), "cannot finish writing " + url);
  return kExitOk;
}

}  // namespace zarrtool
