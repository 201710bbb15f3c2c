// zarrtool cp SRC DST [...]: copy an array, one chunk row of the destination
// at a time, converting its format, chunks or codecs on the way.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "array_layout.h"
#include "array_spec.h"
#include "array_walk.h"
#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kCpHelp[] =
    "usage: zarrtool cp SRC DST [--format 2|3] [--chunks C] [--shards S] [--codec JSON]\n\n"
    "Copy the array at SRC to a new array at DST. Without options the metadata is copied\n"
    "as it is; any option rebuilds it from the source's shape, data type, fill value,\n"
    "attributes and dimension names with the changes asked for (codecs then take\n"
    "zarr_create's defaults unless --codec is given or the format and chunking stay).\n"
    "Data moves one row of destination chunks at a time, so memory stays bounded.\n"
    "Progress goes to stderr when it is a terminal.\n\n"
    "  --format F    Zarr format of the copy, 2 or 3\n"
    "  --chunks C    chunk shape of the copy (inner chunks with --shards)\n"
    "  --shards S    shard shape of the copy (Zarr v3)\n"
    "  --codec JSON  codecs of the copy, as for zarrtool create\n";

bool changes_requested(const Args& args) {
  return args.has("--format") || args.has("--chunks") || args.has("--shards") || args.has("--codec");
}

// The source's codecs carried over when they still fit the copy.
std::string carried_codecs(const ArrayLayout& source, const ArraySpec& spec, const Args& args) {
  if (args.has("--codec")) return args.get("--codec");
  if (spec.zarr_format != source.zarr_format || source.sharded() || !spec.shards.empty()) return "";
  if (spec.zarr_format == 3) return source.codecs_json;
  // v2: the list is filters then compressor; only a lone compressor carries over.
  rapidjson::Document codecs = parse_json(source.codecs_json, "the source's codecs");
  return codecs.Size() == 1 ? to_json(codecs[0]) : "";
}

std::string copy_document(zarr_array* source, const Args& args) {
  if (!changes_requested(args)) return array_metadata_json(source);
  const ArrayLayout layout = read_layout(source);
  ArraySpec spec;
  spec.zarr_format = args.has("--format") ? std::stoi(args.get("--format")) : std::max(2, layout.zarr_format);
  if (spec.zarr_format != 2 && spec.zarr_format != 3) usage_error("--format must be 2 or 3");
  spec.shape = array_shape(source);
  spec.data_type = display_data_type(source);
  spec.chunks = args.has("--chunks") ? parse_extents(args.get("--chunks"), "--chunks")
                                     : (layout.sharded() ? layout.inner_chunk_shape : layout.storage_shape);
  if (args.has("--shards")) spec.shards = parse_extents(args.get("--shards"), "--shards");
  spec.codec_json = carried_codecs(layout, spec, args);
  // A null fill value means "the type's zero" to v3 and "none" to v2: leave it
  // to the library's default.
  if (layout.fill_value_json != "null") spec.fill_value_json = layout.fill_value_json;
  spec.attributes_json = array_attributes_json(source);
  char* names = nullptr;
  check(zarr_get_dimension_names(source, &names), "cannot read dimension names");
  spec.dimension_names_json = take_json(names);
  return metadata_document(spec);
}

ArrayHandle create_copy(zarr_array* source, const std::string& url, const std::string& document) {
  zarr_array* raw = nullptr;
  check(zarr_create(&raw, url.c_str(), document.c_str()), "cannot create array " + url);
  ArrayHandle copy(raw);
  // A v2 document holds no attributes; a v3 one already carries them.
  if (zarr_format(copy.get()) == 2) {
    check(zarr_set_attributes(copy.get(), array_attributes_json(source).c_str()), "cannot set attributes of " + url);
  }
  return copy;
}

void write_piece(zarr_array* array, const Box& box, const PieceData& piece, const std::string& url) {
  const size_t ndim = box.count.size();
  int status = piece.item_size
                   ? zarr_write_region(array, ndim, box.start.data(), box.count.data(), piece.bytes.data(),
                                       piece.bytes.size())
                   : zarr_write_region_vlen(array, ndim, box.start.data(), box.count.data(), piece.offsets.data(),
                                            piece.offsets.size(), piece.bytes.data(), piece.bytes.size());
  check(status, "cannot write " + url + " " + box_text(box));
}

}  // namespace

int run_cp(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kCpHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{}, {"--format", "--chunks", "--shards", "--codec"}});
  require_positionals(args, 2, "zarrtool cp SRC DST [options]");
  const std::string& source_url = args.positionals[0];
  const std::string& copy_url = args.positionals[1];
  ArrayHandle source = open_array(source_url, "r");
  ArrayHandle copy = create_copy(source.get(), copy_url, copy_document(source.get(), args));

  const std::vector<uint64_t> shape = array_shape(source.get());
  const ArrayLayout copy_layout = read_layout(copy.get());
  const bool show_progress = isatty(STDERR_FILENO);
  Box whole{std::vector<uint64_t>(shape.size(), 0), shape};
  if (product(shape) != 0 || shape.empty()) {
    for_each_chunk_row(whole, shape.empty() ? 1 : copy_layout.storage_shape[0], [&](const Box& box) {
      write_piece(copy.get(), box, read_piece(source.get(), box, "cannot read " + source_url), copy_url);
      if (show_progress && !shape.empty()) {
        std::fprintf(stderr, "\rzarrtool cp: %llu/%llu rows", static_cast<unsigned long long>(box.start[0] + box.count[0]),
                     static_cast<unsigned long long>(shape[0]));
      }
    });
  }
  if (show_progress) std::fputc('\n', stderr);
  check(zarr_close(copy.release()), "cannot finish writing " + copy_url);
  return kExitOk;
}

}  // namespace zarrtool
