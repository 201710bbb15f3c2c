// zarrtool verify URL: read every stored chunk (or shard) of an array, or of
// every array below a group, and report the missing and the corrupt ones.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "array_layout.h"
#include "array_walk.h"
#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kVerifyHelp[] =
    "usage: zarrtool verify URL\n\n"
    "Read and decode every chunk (every shard of a sharded array) of the array at URL,\n"
    "or of every array below the group at URL. Prints each corrupt chunk and a summary\n"
    "line per array. Missing chunks (read as the fill value) are counted, not errors;\n"
    "they are told apart on filesystem stores only.\n"
    "Exit code 4 when a chunk is corrupt, 1 when one cannot be read for another reason.\n";

struct Tally {
  uint64_t chunks = 0, missing = 0, corrupt = 0, unreadable = 0;
};

// Worst exit code across everything verified.
int worst(int a, int b) {
  if (a == kExitCorrupt || b == kExitCorrupt) return kExitCorrupt;
  return a != kExitOk ? a : b;
}

bool chunk_missing(const std::string& dir, const ArrayLayout& layout, const std::vector<uint64_t>& index) {
  if (dir.empty()) return false;  // unknown off the filesystem: the read decides
  std::error_code ec;
  return !std::filesystem::exists(std::filesystem::path(dir) / layout.chunk_key(index), ec);
}

int verify_array(const std::string& url, zarr_array* array) {
  const ArrayLayout layout = read_layout(array);
  const std::string dir = local_directory(url);
  Tally tally;
  for_each_chunk(array_shape(array), layout.storage_shape, [&](const std::vector<uint64_t>& index, const Box& box) {
    ++tally.chunks;
    if (chunk_missing(dir, layout, index)) {
      ++tally.missing;
      return;
    }
    try {
      read_piece(array, box, "chunk " + layout.chunk_key(index));
    } catch (const CliError& e) {
      ++(e.code == kExitCorrupt ? tally.corrupt : tally.unreadable);
      std::printf("%s: %s: %s\n", url.c_str(), e.code == kExitCorrupt ? "corrupt" : "unreadable", e.what());
    }
  });
  std::printf("%s: %llu chunks, %llu missing, %llu corrupt, %llu unreadable\n", url.c_str(),
              static_cast<unsigned long long>(tally.chunks), static_cast<unsigned long long>(tally.missing),
              static_cast<unsigned long long>(tally.corrupt), static_cast<unsigned long long>(tally.unreadable));
  if (tally.corrupt) return kExitCorrupt;
  return tally.unreadable ? kExitOther : kExitOk;
}

int verify_group(const std::string& url, zarr_group* group) {
  size_t count = 0;
  check(zarr_group_child_count(group, &count), "cannot list group " + url);
  // Copy the listing first: opening children may refresh it.
  std::vector<std::pair<std::string, int>> children;
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    int kind = 0;
    check(zarr_group_child(group, i, &name, &kind), "cannot list group " + url);
    children.emplace_back(name, kind);
  }
  int result = kExitOk;
  for (const auto& [name, kind] : children) {
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
      std::printf("%s: cannot open: %s\n", child_url.c_str(), zarr_last_error());
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
  if (result != kExitOk) std::fprintf(stderr, "zarrtool: verify %s: problems found\n", url.c_str());
  return result;
}

}  // namespace zarrtool
