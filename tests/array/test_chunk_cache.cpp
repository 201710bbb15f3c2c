// ChunkCache: least recently used out first, the byte limit, absent chunks,
// and a read that began before a write not putting old bytes back.
#include <gtest/gtest.h>

#include "array/engine/chunk_cache.h"

using zarr::Bytes;
using zarr::ChunkCache;

namespace {

ChunkCache::Entry chunk_of(size_t bytes, uint8_t value) {
  return std::make_shared<const Bytes>(bytes, value);
}

// What one entry of `bytes` under a one-letter key costs (its footprint).
uint64_t cost(ChunkCache& probe, size_t bytes) {
  probe.put("k", chunk_of(bytes, 0), probe.generation());
  const uint64_t used = probe.bytes_used();
  probe.forget_all();
  return used;
}

}  // namespace

TEST(ChunkCache, KeepsUpToTheLimitDroppingTheLeastRecentlyUsed) {
  ChunkCache probe(1 << 20);
  const uint64_t one = cost(probe, 100);
  ChunkCache cache(2 * one);
  cache.put("a", chunk_of(100, 1), cache.generation());
  cache.put("b", chunk_of(100, 2), cache.generation());
  ASSERT_TRUE(cache.find("a"));  // a becomes the most recently used
  cache.put("c", chunk_of(100, 3), cache.generation());
  EXPECT_TRUE(cache.find("a"));
  EXPECT_FALSE(cache.find("b"));
  EXPECT_EQ((**cache.find("c"))[0], 3);
  EXPECT_EQ(cache.chunks_held(), 2u);
  EXPECT_EQ(cache.bytes_used(), 2 * one);
}

TEST(ChunkCache, ReplacingAKeyCountsItOnce) {
  ChunkCache cache(1 << 20);
  cache.put("a", chunk_of(100, 1), cache.generation());
  const uint64_t used = cache.bytes_used();
  cache.put("a", chunk_of(100, 2), cache.generation());
  EXPECT_EQ(cache.bytes_used(), used);
  EXPECT_EQ((**cache.find("a"))[0], 2);
}

TEST(ChunkCache, AnEntryAboveTheLimitIsNotKept) {
  ChunkCache cache(1000);
  cache.put("a", chunk_of(10, 1), cache.generation());
  cache.put("big", chunk_of(5000, 1), cache.generation());
  EXPECT_FALSE(cache.find("big"));
  EXPECT_TRUE(cache.find("a")) << "nothing was evicted for it";
}

TEST(ChunkCache, AbsentChunksAreKeptAndCost) {
  ChunkCache cache(1 << 20);
  cache.put("missing", nullptr, cache.generation());
  std::optional<ChunkCache::Entry> found = cache.find("missing");
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, nullptr);
  EXPECT_GT(cache.bytes_used(), 0u) << "so absent keys cannot grow the cache without bound";
}

TEST(ChunkCache, AReadThatBeganBeforeAWriteDoesNotPutOldBytesBack) {
  ChunkCache cache(1 << 20);
  const uint64_t before_fetch = cache.generation();
  cache.forget("a");  // a write to the chunk lands while the reader fetches
  cache.put("a", chunk_of(10, 1), before_fetch);
  EXPECT_FALSE(cache.find("a"));
  cache.put("a", chunk_of(10, 2), cache.generation());
  EXPECT_TRUE(cache.find("a")) << "a read that began after the write is kept";
}

TEST(ChunkCache, ForgetAllEmptiesIt) {
  ChunkCache cache(1 << 20);
  cache.put("a", chunk_of(10, 1), cache.generation());
  cache.forget_all();
  EXPECT_EQ(cache.chunks_held(), 0u);
  EXPECT_EQ(cache.bytes_used(), 0u);
}
