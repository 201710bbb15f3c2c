// zarrtool verify URL: read every stored chunk (or shard) of an array, or of
// every array below a group, and report the missing and the corrupt ones.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "array_layout.h"
#include "array_walk.h"
#include "cli_common.h"
#include "base/json.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kVerifyHelp[] =
    "usage: zarrtool verify URL\n\n"
    "Read and decode every stored chunk (every shard of a sharded array) of the array at\n"
    "URL, or of every array below the group at URL; checksums (crc32c, adler32, ...) are\n"
    "checked as the chunks decode. Prints each corrupt chunk, each stray key (a key under\n"
    "an array that is neither its metadata nor a chunk of its grid) and a summary line per\n"
    "array. Missing chunks read as the fill value: counted, not errors. On stores that\n"
    "cannot list their keys (HTTP) every chunk of the grid is read and missing ones are\n"
    "not told apart.\n"
    "Exit code 4 when a chunk is corrupt, 1 when one cannot be read for another reason.\n";

struct Tally {
  uint64_t chunks = 0, missing = 0, corrupt = 0, unreadable = 0, stray = 0;
};

// Worst exit code across everything verified.
int worst(int a, int b) {
  if (a == kExitCorrupt || b == kExitCorrupt) return kExitCorrupt;
  return a != kExitOk ? a : b;
}

// What the store holds of the array: the stored chunks' grid indices and the
// stray keys; nullopt when the store cannot list (every chunk is then read).
struct StoredChunks {
  std::vector<std::vector<uint64_t>> chunks;
  std::vector<std::string> stray_keys;
};

std::optional<StoredChunks> stored_chunks(const std::string& url, const zarr_array* array) {
  char* text = nullptr;
  const int status = zarr_stored_chunks(array, &text);
  if (status == ZARR_ERR_UNSUPPORTED) return std::nullopt;
  check(status, "cannot list the chunks of " + url);
  const rapidjson::Document doc = parse_json(take_json(text), "zarr_stored_chunks of " + url);
  StoredChunks stored;
  for (const auto& index : doc["chunks"].GetArray()) {
    std::vector<uint64_t> coords;
    for (const auto& i : index.GetArray()) coords.push_back(i.GetUint64());
    stored.chunks.push_back(std::move(coords));
  }
  for (const auto& key : doc["stray_keys"].GetArray()) stored.stray_keys.emplace_back(zarr::json::text(key));
  return stored;
}

Box box_of(const std::vector<uint64_t>& index, const std::vector<uint64_t>& shape, const std::vector<uint64_t>& grid) {
  Box box{std::vector<uint64_t>(shape.size()), std::vector<uint64_t>(shape.size())};
  for (size_t d = 0; d < shape.size(); ++d) {
    box.start[d] = index[d] * grid[d];
    box.count[d] = std::min(grid[d], shape[d] - box.start[d]);
  }
  return box;
}

void verify_chunk(const std::string& url, zarr_array* array, const ArrayLayout& layout,
                  const std::vector<uint64_t>& index, const Box& box, Tally& tally) {
  try {
    read_piece(array, box, (layout.sharded() ? "shard " : "chunk ") + layout.chunk_key(index));
  } catch (const CliError& e) {
    ++(e.code == kExitCorrupt ? tally.corrupt : tally.unreadable);
    std::printf("%s: %s: %s\n", shown(url).c_str(), e.code == kExitCorrupt ? "corrupt" : "unreadable",
                shown(e.what()).c_str());
  }
}

int verify_array(const std::string& url, zarr_array* array) {
  const ArrayLayout layout = read_layout(array);
  const std::vector<uint64_t> shape = array_shape(array);
  Tally tally;
  tally.chunks = chunk_count(shape, layout.storage_shape);
  const std::optional<StoredChunks> stored = stored_chunks(url, array);
  if (stored) {
    for (const auto& index : stored->chunks) {
      verify_chunk(url, array, layout, index, box_of(index, shape, layout.storage_shape), tally);
    }
    tally.missing = tally.chunks - stored->chunks.size();
    tally.stray = stored->stray_keys.size();
    for (const std::string& key : stored->stray_keys) {
      std::printf("%s: stray key: %s\n", shown(url).c_str(), shown(key).c_str());
    }
  } else {
    for_each_chunk(shape, layout.storage_shape, [&](const std::vector<uint64_t>& index, const Box& box) {
      verify_chunk(url, array, layout, index, box, tally);
    });
  }
  std::printf("%s: %llu %s, %s missing, %llu corrupt, %llu unreadable, %llu stray keys\n", shown(url).c_str(),
              static_cast<unsigned long long>(tally.chunks), layout.sharded() ? "shards" : "chunks",
              stored ? std::to_string(tally.missing).c_str() : "unknown",
              static_cast<unsigned long long>(tally.corrupt), static_cast<unsigned long long>(tally.unreadable),
              static_cast<unsigned long long>(tally.stray));
  if (tally.corrupt) return kExitCorrupt;
  return tally.unreadable ? kExitOther : kExitOk;
}

int verify_group(const std::string& url, zarr_group* group) {
  int result = kExitOk;
  for (const auto& [name, kind] : group_children(group, url)) {
    const std::string child_url = join_url(url, name);
    if (kind == ZARR_NODE_GROUP) {
      zarr_group* raw = nullptr;
      check(zarr_group_open_group(&raw, group, name.c_str()), "cannot open group " + child_url);
      result = worst(result, verify_group(child_url, GroupHandle(raw).get()));
      continue;
    }
    zarr_array* raw = nullptr;
    int status = zarr_group_open_array(&raw, group, name.c_str(), "r");
    if (status != ZARR_OK) {  // unreadable metadata is a finding, not the end of the walk
      std::printf("%s: cannot open: %s\n", shown(child_url).c_str(), shown(zarr_last_error()).c_str());
      result = worst(result, exit_code_for(status));
      continue;
    }
    result = worst(result, verify_array(child_url, ArrayHandle(raw).get()));
  }
  return result;
}

}  // namespace

int run_verify(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kVerifyHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{});
  require_positionals(args, 1, "zarrtool verify URL");
  const std::string& url = args.positionals[0];
  Node node = open_node(url, "r");
  int result = node.array ? verify_array(url, node.array.get()) : verify_group(url, node.group.get());
  if (result != kExitOk) std::fprintf(stderr, "zarrtool: verify %s: problems found\n", shown(url).c_str());
  return result;
}

}  // namespace zarrtool
