/*
 * The main job of libzarr in one program: create a chunked, compressed array
 * on disk, write a region, read it back, and print what the array is.
 *
 *   zarr_demo [PATH]      (default: ./demo.zarr; PATH must not exist yet)
 *
 * Build against an installed libzarr with:
 *   cc demo.c $(pkg-config --cflags --libs zarr) -o zarr_demo
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zarr/zarr.h>

/* Print the failing call and libzarr's message, and exit. */
static void check(int status, const char *what) {
  if (status != ZARR_OK) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, zarr_status_name(status), zarr_last_error());
    exit(1);
  }
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "demo.zarr";
  /* A 1000 x 1000 float64 array in 250 x 250 chunks, zstd-compressed. */
  const char *metadata =
      "{\"zarr_format\": 2, \"shape\": [1000, 1000], \"chunks\": [250, 250],"
      " \"dtype\": \"<f8\", \"compressor\": {\"id\": \"zstd\", \"level\": 3},"
      " \"fill_value\": \"NaN\", \"order\": \"C\", \"filters\": null}";
  zarr_array *array = NULL;
  check(zarr_create(&array, path, metadata), "zarr_create");
  check(zarr_set_attributes(array, "{\"units\": \"K\", \"description\": \"libzarr demo\"}"),
        "zarr_set_attributes");

  /* Write rows 100..399 (all columns): value = row + column / 1000. */
  uint64_t start[2] = {100, 0}, count[2] = {300, 1000};
  size_t n = (size_t)(count[0] * count[1]);
  double *data = malloc(n * sizeof *data);
  for (uint64_t i = 0; i < count[0]; ++i)
    for (uint64_t j = 0; j < count[1]; ++j) data[i * count[1] + j] = (double)(start[0] + i) + j / 1000.0;
  check(zarr_write_region(array, 2, start, count, data, n * sizeof *data), "zarr_write_region");
  zarr_close(array);

  /* Reopen read-only and read a region crossing written and unwritten chunks. */
  check(zarr_open(&array, path, "r"), "zarr_open");
  uint64_t rstart[2] = {98, 998}, rcount[2] = {4, 2};
  double back[8];
  check(zarr_read_region(array, 2, rstart, rcount, back, sizeof back), "zarr_read_region");

  uint64_t shape[2], chunks[2];
  check(zarr_shape(array, shape), "zarr_shape");
  check(zarr_chunk_shape(array, chunks), "zarr_chunk_shape");
  char *attrs = NULL, *meta = NULL;
  check(zarr_get_attributes(array, &attrs), "zarr_get_attributes");
  check(zarr_get_metadata(array, &meta), "zarr_get_metadata");

  printf("libzarr %s\n", zarr_version_string());
  printf("array      : %s (Zarr v%d)\n", path, zarr_format(array));
  printf("data type  : %s, %zu bytes per item\n", zarr_data_type(array), zarr_item_size(array));
  printf("shape      : [%llu, %llu], chunks [%llu, %llu]\n", (unsigned long long)shape[0],
         (unsigned long long)shape[1], (unsigned long long)chunks[0], (unsigned long long)chunks[1]);
  printf("attributes : %s\n", attrs);
  printf("region [98:102, 998:1000] (rows 98-99 never written: NaN fill):\n");
  for (int i = 0; i < 4; ++i) printf("  %10.3f %10.3f\n", back[2 * i], back[2 * i + 1]);
  printf("metadata   :\n%s\n", meta);

  /* Check what was read against what was written. */
  int ok = back[0] != back[0] && back[4] == 100.998 && back[7] == 101.999;
  zarr_free(attrs);
  zarr_free(meta);
  zarr_close(array);
  free(data);
  printf("%s\n", ok ? "round trip OK" : "round trip MISMATCH");
  return ok ? 0 : 1;
}
