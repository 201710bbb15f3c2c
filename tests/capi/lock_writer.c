/*
 * One of the two writer processes of test_process_lock.cpp: it writes its
 * half of a 1-D int32 array in small unaligned runs, so that its writes and
 * the other writer's land in the same chunks at the same time.
 *
 *   lock_writer URL OPTIONS_JSON PARITY SHIFT PASSES
 *
 * Element i lies in run (i + SHIFT) / RUN; the writer whose PARITY (0 or 1)
 * equals the run's parity writes (PARITY + 1) * 1000000 + PASS * 10000 + i
 * into it, one zarr_write_region per run, from the first run to the last,
 * for PASS = 0 .. PASSES - 1: each pass writes new values, so a write lost in
 * the last pass shows as an older pass's value (or the fill value 0).
 * Once the array is open it prints "ready" and waits for a byte on stdin,
 * so the test can start both writers at the same moment. Exit 0 on success, 1 (message on stderr) on a failed call.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <zarr/zarr.h>

enum { RUN = 37 };

static int write_run(zarr_array *a, uint64_t begin, uint64_t end, int parity, int pass) {
  int32_t values[RUN];
  for (uint64_t i = begin; i < end; ++i) values[i - begin] = (int32_t)((parity + 1) * 1000000 + pass * 10000 + i);
  const uint64_t start[1] = {begin}, count[1] = {end - begin};
  return zarr_write_region(a, 1, start, count, values, (size_t)(end - begin) * sizeof values[0]);
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: lock_writer URL OPTIONS_JSON PARITY SHIFT PASSES\n");
    return 2;
  }
  const int parity = atoi(argv[3]);
  const uint64_t shift = (uint64_t)atoi(argv[4]);
  const int passes = atoi(argv[5]);
  zarr_array *a = NULL;
  if (zarr_open_ex(&a, argv[1], "r+", argv[2]) != ZARR_OK) {
    fprintf(stderr, "lock_writer: %s\n", zarr_last_error());
    return 1;
  }
  uint64_t shape[1];
  zarr_shape(a, shape);
  printf("ready\n");
  fflush(stdout);
  char go;
  if (read(STDIN_FILENO, &go, 1) != 1) return 1;
  for (int pass = 0; pass < passes; ++pass) {
    for (uint64_t run = (uint64_t)parity; run * RUN < shape[0] + shift; run += 2) {
      const uint64_t begin = run * RUN > shift ? run * RUN - shift : 0;
      const uint64_t end = (run + 1) * RUN - shift < shape[0] ? (run + 1) * RUN - shift : shape[0];
      if (end > begin && write_run(a, begin, end, parity, pass) != ZARR_OK) {
        fprintf(stderr, "lock_writer: %s\n", zarr_last_error());
        zarr_close(a);
        return 1;
      }
    }
  }
  return zarr_close(a) == ZARR_OK ? 0 : 1;
}
