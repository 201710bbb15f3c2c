// zarrtool cp SRC DST [...]: copy an array, one chunk row of the destination
// at a time, converting its format, chunks or codecs on the way.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "array_layout.h"
#include "array_spec.h"
#include "array_walk.h"
#include "cli_common.h"
#include "commands.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace zarrtool {
namespace {

const char kCpHelp[] =
    "usage: zarrtool cp SRC DST [--format 2|3] [--chunks C] [--shards S] [--chunk-edges E]\n"
    "                   [--codec JSON]\n\n"
    "Copy the array at SRC to a new array at DST. Without options the metadata is copied\n"
    "as it is; any option rebuilds it from the source's shape, data type, fill value,\n"
    "attributes and dimension names with the changes asked for (codecs then take\n"
    "zarr_create's defaults unless --codec is given or the format and chunking stay).\n"
    "Every data type converts between the formats as zarr_migrate_v2_to_v3 converts it\n"
    "(docs/dtypes.md); what the target format cannot hold is refused by name.\n"
    "A rectilinear chunk grid is kept (Zarr v3) unless --chunks, --shards or --chunk-edges\n"
    "give another; a copy of one to --format 2 needs --chunks (v2 has regular chunks only).\n"
    "--chunks, --shards and --chunk-edges apply to every array of a group: an array of\n"
    "another rank is refused before anything is written (copy it alone: zarrtool cp\n"
    "ARRAY DST).\n"
    "Data moves one row of destination chunks at a time, so memory stays bounded.\n"
    "Progress goes to stderr when it is a terminal.\n\n"
    "  --format F    Zarr format of the copy, 2 or 3\n"
    "  --chunks C    chunk shape of the copy (inner chunks with --shards or --chunk-edges)\n"
    "  --shards S    shard shape of the copy (Zarr v3)\n"
    "  --chunk-edges E  a rectilinear chunk grid for the copy (Zarr v3), as for zarrtool\n"
    "                create: per axis, separated by ';', a regular step or edge lengths N\n"
    "                or NxC ('2,3,5;4', '10x3,5;8'); with --chunks the edges are the\n"
    "                shards' (not with --shards)\n"
    "  --codec JSON  codecs of the copy, as for zarrtool create\n";

bool changes_requested(const Args& args) {
  return args.has("--format") || args.has("--chunks") || args.has("--shards") || args.has("--chunk-edges") ||
         args.has("--codec");
}

// A v2 object ("|O") array's object codec: its first filter, which says what
// its elements are (vlen-utf8, vlen-bytes, json2); "" for other arrays.
std::string object_codec_of(const ArrayLayout& source, const std::string& data_type) {
  if (source.zarr_format == 3 || data_type != "|O") return "";
  rapidjson::Document codecs = parse_json(source.codecs_json, "the source's codecs");
  return codecs.IsArray() && !codecs.Empty() ? to_json(codecs[0]) : "";
}

// The source's codecs carried over when they still fit the copy.
std::string carried_codecs(const ArrayLayout& source, const ArraySpec& spec, const Args& args) {
  if (args.has("--codec")) return args.get("--codec");
  if (spec.zarr_format != source.zarr_format || source.sharded() || !spec.shards.empty()) return "";
  if (spec.zarr_format == 3) return source.codecs_json;
  // v2: the list is [object codec] filters then compressor; only a lone
  // compressor carries over (the object codec comes with the data type).
  rapidjson::Document codecs = parse_json(source.codecs_json, "the source's codecs");
  const rapidjson::SizeType skipped = spec.object_codec_json.empty() ? 0 : 1;
  return codecs.Size() == skipped + 1 ? to_json(codecs[skipped]) : "";
}

// The dimensions a grid option gives: extents, or --chunk-edges' axes
// (each axis' entry is checked when the array's edges are made).
size_t dimensions_given(const std::string& option, const std::string& text) {
  if (option == "--chunk-edges") return static_cast<size_t>(std::count(text.begin(), text.end(), ';')) + 1;
  return parse_extents(text, option).size();
}

// --chunks, --shards and --chunk-edges give one entry per dimension: an
// array of another rank (a 1-D coordinate in a group of 2-D arrays) is
// refused by name, as its grid cannot be guessed.
void check_rank(const std::string& source_url, size_t ndim, const Args& args) {
  for (const char* option : {"--chunks", "--shards", "--chunk-edges"}) {
    if (!args.has(option)) continue;
    const size_t given = dimensions_given(option, args.get(option));
    if (given == ndim) continue;
    const char* entries = std::string(option) == "--chunk-edges" ? " axes" : " extents";
    throw CliError(kExitUsage, "cannot copy " + source_url + " with " + option + " " + args.get(option) + ": it is " +
                                   std::to_string(ndim) + "-D and " + option + " gives " + std::to_string(given) +
                                   entries + "; copy arrays of another rank one by one (zarrtool cp ARRAY DST " +
                                   option + " ...)");
  }
}

// The copy's grid: --chunk-edges' rectilinear one (--chunks then the inner
// chunks of its shards), else --chunks and --shards, else the source's. A
// rectilinear source keeps its grid, which Zarr v2 cannot hold: a v2 copy of
// it needs --chunks, else it is refused naming the array.
void choose_grid(const ArrayLayout& source, const std::string& source_url, const Args& args, ArraySpec& spec) {
  if (args.has("--chunks")) spec.chunks = parse_extents(args.get("--chunks"), "--chunks");
  if (args.has("--shards")) spec.shards = parse_extents(args.get("--shards"), "--shards");
  if (args.has("--chunk-edges")) {
    spec.chunk_grid_json = chunk_edges_grid_json(args.get("--chunk-edges"), spec.shape.size());
    return;
  }
  const bool keeps_grid = !args.has("--chunks") && !args.has("--shards");
  if (keeps_grid && !source.rectilinear_grid_json.empty()) {
    if (spec.zarr_format == 2) {
      throw CliError(kExitUsage, "cannot copy " + source_url +
                                     " to --format 2: its chunk grid is rectilinear and Zarr v2 has regular chunks "
                                     "only; give --chunks for the copy's chunk shape");
    }
    spec.chunk_grid_json = source.rectilinear_grid_json;
    spec.chunks = source.inner_chunk_shape;  // with the grid, chunks are a shard's inner chunks
    return;
  }
  if (!args.has("--chunks")) spec.chunks = source.sharded() ? source.inner_chunk_shape : source.storage_shape;
}

std::string copy_document(zarr_array* source, const std::string& source_url, const Args& args) {
  if (!changes_requested(args)) return array_metadata_json(source);
  const ArrayLayout layout = read_layout(source);
  ArraySpec spec;
  spec.zarr_format = args.has("--format") ? std::stoi(args.get("--format")) : std::max(2, layout.zarr_format);
  if (spec.zarr_format != 2 && spec.zarr_format != 3) usage_error("--format must be 2 or 3");
  spec.shape = array_shape(source);
  check_rank(source_url, spec.shape.size(), args);
  spec.data_type = display_data_type(source);
  spec.object_codec_json = object_codec_of(layout, spec.data_type);
  choose_grid(layout, source_url, args, spec);
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

ArrayHandle create_copy(zarr_array* source, const std::string& url, const std::string& document, bool* made) {
  ArrayHandle copy = create_array(url, document);
  if (made) *made = true;
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

// Copies every destination chunk (shard, when sharded) as one whole write, on
// as many threads as the machine has cores: each worker takes the next chunk
// number, reads that box from the source and writes it, so memory stays at
// one chunk per thread and no destination chunk is read back and rewritten.
void copy_chunks(zarr_array* source, zarr_array* copy, const std::string& source_url, const std::string& copy_url) {
  const ArrayLayout layout = read_layout(copy);
  const StorageGrid grid = storage_grid(copy, layout);
  const uint64_t total = chunk_count(grid);
  Progress progress("zarrtool cp " + source_url, layout.sharded() ? "shards" : "chunks", total);
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::optional<CliError> first_error;
  auto worker = [&] {
    for (uint64_t i = next++; i < total && !failed; i = next++) {
      try {
        const Box box = chunk_at(grid, i).box;
        const PieceData piece = read_piece(source, box, "cannot read " + source_url);
        write_piece(copy, box, piece, copy_url);
        progress.advance(piece.bytes.size());
      } catch (const CliError& e) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = e;
        failed = true;
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 64));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (first_error) throw *first_error;
}

// ---- the plan: every node's copy made first in memory, before any byte of the destination ----

// A memory store of this process for checking a copy's plan: each array's
// copy document is created there (metadata only, no chunk), so that every
// option the library would refuse is found before the destination exists.
class Plan {
 public:
  explicit Plan(std::string copy_url)
      : root_("memory://zarrtool-cp-plan-" + std::to_string(reinterpret_cast<uintptr_t>(this))),
        copy_url_(std::move(copy_url)) {}
  ~Plan() { zarr_erase(root_.c_str(), nullptr); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  void check_array(const std::string& source_url, const std::string& relative, const Args& args) {
    ArrayHandle source = open_array(source_url, "r");
    std::string document;
    try {
      document = copy_document(source.get(), source_url, args);
    } catch (const CliError& e) {
      if (e.code == kExitUsage) throw;
      throw CliError(e.code, "cannot copy " + source_url + " (nothing was written): " + e.what());
    }
    zarr_array* raw = nullptr;
    const int status = zarr_create(&raw, (relative.empty() ? root_ : root_ + "/" + relative).c_str(), document.c_str());
    ArrayHandle made(raw);
    if (status != ZARR_OK) {
      // The library names where it would have created it: the destination, not this plan.
      std::string why = zarr_last_error();
      for (size_t at = why.find(root_); at != std::string::npos; at = why.find(root_, at + copy_url_.size())) {
        why.replace(at, root_.size(), copy_url_);
      }
      throw CliError(kExitOther, "cannot copy " + source_url + " with these options (nothing was written): " + why);
    }
  }

  void check_group(zarr_group* source, const std::string& source_url, const std::string& relative, const Args& args) {
    for (const auto& [name, kind] : group_children(source, source_url)) {
      const std::string child_source = join_url(source_url, name);
      const std::string child = relative.empty() ? name : relative + "/" + name;
      if (kind == ZARR_NODE_GROUP) {
        check_group(open_child_group(source, name, child_source).get(), child_source, child, args);
      } else {
        check_listed_array(child_source, child, args);
      }
    }
  }

 private:
  // A child the group lists that is not in the store was listed by stale
  // consolidated metadata (another writer erased it): said so, with the way out.
  void check_listed_array(const std::string& source_url, const std::string& relative, const Args& args) {
    try {
      check_array(source_url, relative, args);
    } catch (const CliError& e) {
      if (e.code != kExitMissing) throw;
      throw CliError(kExitMissing, std::string(e.what()) +
                                       " (its group lists it, but it is not in the store: stale consolidated "
                                       "metadata; zarrtool verify reports it, zarrtool consolidate rewrites it, "
                                       "--no-consolidated copies what is stored; nothing was written)");
    }
  }

  std::string root_;
  std::string copy_url_;
};

// `made` (the top node only) is set once the copy exists, so that a copy
// that fails before can leave the destination alone.
void copy_array(const std::string& source_url, const std::string& copy_url, const Args& args, bool* made = nullptr) {
  ArrayHandle source = open_array(source_url, "r");
  ArrayHandle copy = create_copy(source.get(), copy_url, copy_document(source.get(), source_url, args), made);
  copy_chunks(source.get(), copy.get(), source_url, copy_url);
  check(zarr_close(copy.release()), "cannot finish writing " + copy_url);
}

// A group: the group itself (same format unless --format, same attributes),
// then every child, arrays and groups alike, with the same options.
void copy_group(zarr_group* source, const std::string& source_url, const std::string& copy_url, const Args& args,
                bool* made = nullptr) {
  const int format = args.has("--format") ? std::stoi(args.get("--format")) : zarr_group_format(source);
  char* attributes = nullptr;
  check(zarr_group_get_attributes(source, &attributes), "cannot read attributes of " + source_url);
  const std::string attributes_json = take_json(attributes);
  GroupHandle copy = create_group(copy_url, attributes_json, format);
  if (made) *made = true;
  for (const auto& [name, kind] : group_children(source, source_url)) {
    const std::string child_source = join_url(source_url, name), child_copy = join_url(copy_url, name);
    if (kind == ZARR_NODE_GROUP) {
      copy_group(open_child_group(source, name, child_source).get(), child_source, child_copy, args);
    } else {
      copy_array(child_source, child_copy, args);
    }
  }
  check(zarr_group_close(copy.release()), "cannot finish writing " + copy_url);
}

// A copy inside its source would copy itself again and again (a group) or
// land among the source's keys (an array): refused before anything is
// written, comparing where the URLs lead, not their text.
void refuse_copy_into_itself(const std::string& source_url, const std::string& copy_url) {
  const Location source = locate(source_url), copy = locate(copy_url);
  if (is_within(source, copy) && !is_within(copy, source)) {
    // A failed copy is erased with everything below it: the source too.
    usage_error("cannot copy " + source_url + " to " + copy_url + ": that holds the source");
  }
  if (!is_within(copy, source)) return;
  usage_error("cannot copy " + source_url + " to " + copy_url + ": " +
              (copy.segments.size() == source.segments.size() ? "that is the source itself"
                                                              : "that lies inside the source"));
}

// A failed copy is erased with everything below its URL, so a local
// destination must be new or an empty folder: one holding anything else
// (the user's files, a file in the way) would be lost with it. Returns the
// empty folder that was there, to be put back after a failed copy ("" when
// none was).
std::string refuse_occupied_local_destination(const std::string& copy_url) {
  const std::string directory = local_directory(store_url(copy_url));
  std::error_code ec;
  if (directory.empty() || !fs::exists(fs::symlink_status(directory, ec))) return "";
  if (!fs::is_directory(directory, ec)) {
    usage_error("cannot copy to " + copy_url + ": a file is already there");
  }
  if (!fs::is_empty(directory, ec) || ec) {
    usage_error("cannot copy to " + copy_url +
                ": the folder is not empty (a copy goes to a new or empty folder, so that a copy that fails can be "
                "removed without touching anything else)");
  }
  return directory;
}

// The destination must not exist: checked before the copy starts, so that
// removing a failed copy can only remove what the copy made.
void refuse_existing_destination(const std::string& copy_url) {
  const std::string target = store_url(copy_url);
  zarr_array* array = nullptr;
  zarr_group* group = nullptr;
  bool exists = zarr_open_ex(&array, target.c_str(), "r", api_options().c_str()) == ZARR_OK;
  zarr_close(array);
  if (!exists) {
    exists = zarr_group_open_ex(&group, target.c_str(), "r", api_options("\"consolidated\":false").c_str()) == ZARR_OK;
    zarr_group_close(group);
  }
  if (exists) throw CliError(kExitOther, "cannot copy to " + copy_url + ": an array or group is already there");
}

// A copy that failed half-way leaves no partial destination: what it made
// is erased (the destination did not exist: creating it would have failed).
void remove_partial_copy(const std::string& copy_url, const CliError& failure) {
  if (failure.code == kExitUsage) return;  // refused before anything was made
  const int status = zarr_erase(store_url(copy_url).c_str(), api_options().c_str());
  if (status != ZARR_OK && status != ZARR_ERR_NOT_FOUND) {
    std::fprintf(stderr, "zarrtool: could not remove the partial copy %s: %s\n", shown(copy_url).c_str(),
                 shown(zarr_last_error()).c_str());
  }
}

}  // namespace

int run_cp(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kCpHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{}, {"--format", "--chunks", "--shards", "--chunk-edges", "--codec"}});
  require_positionals(args, 2, "zarrtool cp SRC DST [options]");
  if (args.has("--format") && args.get("--format") != "2" && args.get("--format") != "3") {
    usage_error("--format must be 2 or 3");
  }
  const std::string& source_url = args.positionals[0];
  const std::string& copy_url = args.positionals[1];
  Node node = open_node(source_url, "r");
  refuse_copy_into_itself(source_url, copy_url);
  refuse_existing_destination(copy_url);
  const std::string empty_folder = refuse_occupied_local_destination(copy_url);
  {
    Plan plan(copy_url);
    if (node.group) {
      plan.check_group(node.group.get(), source_url, "", args);
    } else {
      plan.check_array(source_url, "", args);
    }
  }
  bool made = false;
  try {
    if (node.group) {
      copy_group(node.group.get(), source_url, copy_url, args, &made);
      // A source read through consolidated metadata gives its copy one too.
      if (has_consolidated_metadata(source_url)) {
        check(zarr_consolidate_metadata(store_url(copy_url).c_str()), "cannot consolidate the copy " + copy_url);
      }
    } else {
      node.array.reset();
      copy_array(source_url, copy_url, args, &made);
    }
  } catch (const CliError& e) {
    if (made) remove_partial_copy(copy_url, e);
    if (!empty_folder.empty()) {
      std::error_code ec;
      fs::create_directories(empty_folder, ec);
    }
    throw;
  }
  return kExitOk;
}

}  // namespace zarrtool
