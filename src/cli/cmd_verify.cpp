// zarrtool verify URL: read every stored chunk (or shard) of an array, or of
// every array below a group, and report the missing and the corrupt ones.
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
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
    "The arrays and chunks checked are those stored, each array by its own metadata.\n"
    "A group with consolidated metadata is checked against each node's own metadata:\n"
    "an entry for a node that is gone or differs, or a node it does not list, is stale\n"
    "(nodes it does not list are found only where the store can list).\n"
    "Exit code 4 when a chunk is corrupt or consolidated metadata is stale, 1 when a\n"
    "chunk cannot be read for another reason.\n";

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
  const StorageGrid grid = storage_grid(array, layout);
  Tally tally;
  tally.chunks = chunk_count(grid);
  const std::optional<StoredChunks> stored = stored_chunks(url, array);
  if (stored) {
    for (const auto& index : stored->chunks) {
      verify_chunk(url, array, layout, index, grid.box_of(index), tally);
    }
    tally.missing = tally.chunks - stored->chunks.size();
    tally.stray = stored->stray_keys.size();
    for (const std::string& key : stored->stray_keys) {
      std::printf("%s: stray key: %s\n", shown(url).c_str(), shown(key).c_str());
    }
  } else {
    for_each_chunk(grid, [&](const std::vector<uint64_t>& index, const Box& box) {
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

// One array a group's walk cannot verify (more chunks along an axis than
// zarrtool walks, a listing that fails) is a finding: the walk goes on, so
// that damage in the other arrays is still reported.
int verify_array_or_say_why_not(const std::string& url, zarr_array* array) {
  try {
    return verify_array(url, array);
  } catch (const CliError& e) {
    std::printf("%s: cannot verify: %s\n", shown(url).c_str(), shown(e.what()).c_str());
    return e.code;
  }
}

// What verify walks is what is stored: `own` is the group opened from each
// node's own metadata, whose children are listed where the store can list;
// elsewhere (HTTP) the names come from `listing` (the group as opened, e.g.
// through consolidated metadata) and only those stored are walked, each as
// its own metadata describes it. Entries of consolidated metadata that no
// longer match the store are the consolidated check's findings, not
// missing chunks.
int verify_group(const std::string& url, zarr_group* listing, zarr_group* own) {
  int result = kExitOk;
  const std::optional<std::vector<Child>> stored = group_children_if_listable(own, url);
  for (const auto& [name, listed_kind] : stored ? *stored : group_children(listing, url)) {
    const std::string child_url = join_url(url, name);
    const int kind = stored ? listed_kind : stored_child_kind(own, name, child_url);
    if (kind == ZARR_NODE_GROUP) {
      GroupHandle own_child = open_child_group(own, name, child_url);
      GroupHandle listing_child = stored || listed_kind != kind ? GroupHandle() : open_child_group(listing, name, child_url);
      result = worst(result, verify_group(child_url, listing_child ? listing_child.get() : own_child.get(), own_child.get()));
      continue;
    }
    if (kind != ZARR_NODE_ARRAY) continue;
    zarr_array* raw = nullptr;
    int status = zarr_group_open_array(&raw, own, name.c_str(), "r");
    if (status != ZARR_OK) {  // unreadable metadata is a finding, not the end of the walk
      std::printf("%s: cannot open: %s\n", shown(child_url).c_str(), shown(zarr_last_error()).c_str());
      result = worst(result, exit_code_for(status));
      continue;
    }
    result = worst(result, verify_array_or_say_why_not(child_url, ArrayHandle(raw).get()));
  }
  return result;
}

// ---- consolidated metadata against each node's own ----

std::string group_attributes(zarr_group* group) {
  char* json = nullptr;
  check(zarr_group_get_attributes(group, &json), "cannot read attributes");
  return take_json(json);
}

struct StaleCount {
  uint64_t stale = 0;
  bool unlisted_unchecked = false;  // a store that cannot list hides unlisted nodes
  void report(const std::string& url, const std::string& what) {
    std::printf("%s: stale consolidated metadata: %s\n", shown(url).c_str(), what.c_str());
    ++stale;
  }
};

// Both arrays' metadata and attributes, as each view reads them.
void compare_arrays(const std::string& url, zarr_group* listed, zarr_group* own, const std::string& name,
                    StaleCount& count) {
  zarr_array* a = nullptr;
  zarr_array* b = nullptr;
  if (zarr_group_open_array(&a, listed, name.c_str(), "r") != ZARR_OK) return count.report(url, "its entry cannot be opened");
  ArrayHandle from_listing(a);
  check(zarr_group_open_array(&b, own, name.c_str(), "r"), "cannot open array " + url);
  ArrayHandle from_node(b);
  if (array_metadata_json(a) != array_metadata_json(b)) count.report(url, "its metadata differs from the array's own");
  if (array_attributes_json(a) != array_attributes_json(b)) count.report(url, "its attributes differ from the array's own");
}

// Each entry is checked against what the store holds at its name (the
// node's own metadata); nodes the consolidated metadata does not list are
// found only where the store can list.
void compare_groups(const std::string& url, zarr_group* listed, zarr_group* own, StaleCount& count) {
  if (group_attributes(listed) != group_attributes(own)) count.report(url, "the group's attributes differ");
  std::set<std::string> listed_names;
  for (const Child& c : group_children(listed, url)) {
    listed_names.insert(c.name);
    const std::string child_url = join_url(url, c.name);
    const int stored = stored_child_kind(own, c.name, child_url);
    if (stored == 0) {
      count.report(child_url, "listed, but not in the store");
    } else if (stored != c.kind) {
      count.report(child_url, c.kind == ZARR_NODE_GROUP ? "listed as a group, stored as an array"
                                                        : "listed as an array, stored as a group");
    } else if (c.kind == ZARR_NODE_ARRAY) {
      compare_arrays(child_url, listed, own, c.name, count);
    } else {
      compare_groups(child_url, open_child_group(listed, c.name, child_url).get(),
                     open_child_group(own, c.name, child_url).get(), count);
    }
  }
  const std::optional<std::vector<Child>> own_children = group_children_if_listable(own, url);
  if (!own_children) {
    count.unlisted_unchecked = true;
    return;
  }
  for (const Child& c : *own_children) {
    if (!listed_names.count(c.name)) count.report(join_url(url, c.name), "in the store, but not listed");
  }
}

int verify_consolidated(const std::string& url) {
  if (!has_consolidated_metadata(url)) return kExitOk;
  StaleCount count;
  compare_groups(url, open_group_with(url, true).get(), open_group_with(url, false).get(), count);
  std::printf("%s: consolidated metadata: %llu stale %s%s\n", shown(url).c_str(),
              static_cast<unsigned long long>(count.stale), count.stale == 1 ? "entry" : "entries",
              count.unlisted_unchecked ? " (nodes it does not list cannot be found: the store cannot list)" : "");
  return count.stale ? kExitCorrupt : kExitOk;
}

}  // namespace

int run_verify(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kVerifyHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{});
  require_positionals(args, 1, "zarrtool verify URL");
  const std::string& url = args.positionals[0];
  Node node = open_node(url, "r");
  if (node.array) {
    const int result = verify_array(url, node.array.get());
    if (result != kExitOk) std::fprintf(stderr, "zarrtool: verify %s: problems found\n", shown(url).c_str());
    return result;
  }
  // The walk sees what is stored, whatever metadata view opened the group.
  const bool consolidated = has_consolidated_metadata(url);
  GroupHandle own = consolidated ? open_group_with(url, false) : GroupHandle();
  int result = verify_group(url, node.group.get(), own ? own.get() : node.group.get());
  result = worst(result, verify_consolidated(url));
  if (result != kExitOk) std::fprintf(stderr, "zarrtool: verify %s: problems found\n", shown(url).c_str());
  return result;
}

}  // namespace zarrtool
