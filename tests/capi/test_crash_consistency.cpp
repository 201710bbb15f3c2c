// A writer killed with SIGKILL at random moments, again and again, while it
// rewrites whole chunks and whole shards on the filesystem store: afterwards
// every chunk and shard reads as exactly one write's value (or the fill
// value), never a mix and never an error, and the temporary files a kill
// leaves behind are not keys (docs/reliability.md).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

constexpr int kKills = 20;

// Both arrays are Zarr v3 (one hierarchy holds one format): whole chunks, and
// shards whose inner chunks are rewritten together.
const char kChunked[] =
    R"({"zarr_format": 3, "node_type": "array", "shape": [256, 256], "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [64, 64]}},
        "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}}, "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]})";

const char kSharded[] =
    R"({"zarr_format": 3, "node_type": "array", "shape": [256, 256], "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [128, 128]}},
        "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
        "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [32, 32],
          "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
          "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
          "index_location": "end"}}]})";

// Starts crash_writer, waits until it has opened the arrays, lets it write
// for `run`, then kills it. True when SIGKILL is what ended it.
bool run_and_kill(const std::string& chunked, const std::string& sharded, int seed, std::chrono::milliseconds run) {
  int ready[2];
  if (pipe(ready) != 0) return false;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(ready[1], STDOUT_FILENO);
    close(ready[0]);
    const std::string seed_text = std::to_string(seed);
    execl(CRASH_WRITER, CRASH_WRITER, chunked.c_str(), sharded.c_str(), seed_text.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(ready[1]);
  char line[8] = {0};
  const ssize_t got = read(ready[0], line, sizeof line - 1);
  close(ready[0]);
  if (got > 0) std::this_thread::sleep_for(run);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  return got > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

// The values seen in each square block of `size` of a [256, 256] array; a
// block holding more than one value was torn.
std::vector<std::set<int32_t>> block_values(const std::string& url, uint64_t size) {
  ArrayPtr a = open_array(url, "r");
  std::vector<std::set<int32_t>> blocks;
  if (!a.get()) return blocks;
  const std::vector<int32_t> all = read_all<int32_t>(a);
  const uint64_t per_row = 256 / size;
  blocks.resize(per_row * per_row);
  for (uint64_t r = 0; r < 256; ++r) {
    for (uint64_t c = 0; c < 256; ++c) blocks[(r / size) * per_row + c / size].insert(all[r * 256 + c]);
  }
  return blocks;
}

TEST(CrashConsistency, KilledWritersLeaveEveryChunkAndShardWhole) {
  TempDir dir;
  const std::string chunked = dir / "root/chunked", sharded = dir / "root/sharded";
  GroupPtr root;
  ASSERT_OK(zarr_group_create(root.out(), (dir / "root").c_str(), nullptr));
  create_array(chunked, kChunked);
  create_array(sharded, kSharded);

  std::mt19937 rng(20261123);
  int killed = 0;
  std::set<int32_t> seen_values;
  for (int kill_number = 1; kill_number <= kKills; ++kill_number) {
    const auto run = std::chrono::milliseconds(5 + rng() % 60);
    ASSERT_TRUE(run_and_kill(chunked, sharded, kill_number, run)) << "the writer did not start or died on its own";
    ++killed;
    for (const auto& [url, size] : {std::pair<std::string, uint64_t>{chunked, 64}, {sharded, 128}}) {
      SCOPED_TRACE(url + " after kill " + std::to_string(kill_number));
      const std::vector<std::set<int32_t>> blocks = block_values(url, size);
      ASSERT_FALSE(blocks.empty()) << "the array no longer opens: " << zarr_last_error();
      for (size_t b = 0; b < blocks.size(); ++b) {
        EXPECT_EQ(blocks[b].size(), 1u) << "block " << b << " mixes writes";
        const int32_t value = *blocks[b].begin();
        EXPECT_TRUE(value == 0 || (value / 1000000 >= 1 && value / 1000000 <= kill_number)) << value;
        seen_values.insert(value);
      }
    }
  }
  EXPECT_EQ(killed, kKills);
  EXPECT_GT(seen_values.size(), 10u) << "the writers wrote too little for the test to mean anything";

  // Temporary files a kill left behind are not keys: the hierarchy lists,
  // consolidates and reopens as if they were not there.
  size_t leftovers = 0;
  for (const std::string& file : list_files(dir / "root")) leftovers += file.find(".zarr-tmp.") != std::string::npos;
  RecordProperty("temporary_files_left_by_kills", static_cast<int>(leftovers));
  GroupPtr listed;
  ASSERT_OK(zarr_group_open(listed.out(), (dir / "root").c_str(), "r"));
  EXPECT_EQ(child_names(listed), (std::vector<std::string>{"chunked", "sharded"}));
  ASSERT_OK(zarr_consolidate_metadata((dir / "root").c_str()));
  EXPECT_EQ(block_values(sharded, 128).size(), 4u);
}

}  // namespace
