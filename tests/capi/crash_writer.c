/*
 * The writer test_crash_consistency.cpp kills: it rewrites whole chunks of
 * one array and whole shards of another, forever, each write filling its
 * chunk or shard with one new value, until SIGKILL stops it somewhere.
 *
 *   crash_writer CHUNKED_URL SHARDED_URL SEED
 *
 * Both arrays are int32 [256, 256]: CHUNKED_URL in [64, 64] chunks,
 * SHARDED_URL in [128, 128] shards of [32, 32] inner chunks. Values are
 * SEED * 1000000 + a counter, so every write is told apart from the others.
 * Prints "ready" once it has opened both (the test waits for it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <zarr/zarr.h>

static int write_block(zarr_array *a, uint64_t row, uint64_t col, uint64_t size, int32_t value, int32_t *buf) {
  for (uint64_t i = 0; i < size * size; ++i) buf[i] = value;
  const uint64_t start[2] = {row, col}, count[2] = {size, size};
  return zarr_write_region(a, 2, start, count, buf, (size_t)(size * size * sizeof *buf));
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: crash_writer CHUNKED_URL SHARDED_URL SEED\n");
    return 2;
  }
  zarr_array *chunked = NULL, *sharded = NULL;
  if (zarr_open(&chunked, argv[1], "r+") != ZARR_OK || zarr_open(&sharded, argv[2], "r+") != ZARR_OK) {
    fprintf(stderr, "crash_writer: %s\n", zarr_last_error());
    return 1;
  }
  const int32_t base = (int32_t)(atoi(argv[3]) * 1000000);
  static int32_t buf[128 * 128];
  printf("ready\n");
  fflush(stdout);
  srand((unsigned)atoi(argv[3]));
  for (int32_t n = 1;; ++n) {
    const int chunk = rand() % 16, shard = rand() % 4;
    if (write_block(chunked, (uint64_t)(chunk / 4) * 64, (uint64_t)(chunk % 4) * 64, 64, base + n, buf) != ZARR_OK ||
        write_block(sharded, (uint64_t)(shard / 2) * 128, (uint64_t)(shard % 2) * 128, 128, base + n, buf) !=
            ZARR_OK) {
      fprintf(stderr, "crash_writer: %s\n", zarr_last_error());
      return 1;
    }
  }
}
