/* docs/c-api.md's example: a sharded Zarr v3 float32 array created, written and read
 * back with no JSON. Exit status 0 when the values read are those written. */
#include <stdio.h>
#include <zarr/zarr.h>

int main(void) {
  uint64_t shape[2] = {1024, 1024}, chunks[2] = {64, 64}, shards[2] = {512, 512};
  zarr_array_desc desc = ZARR_ARRAY_DESC_INIT;  /* v3, zstd level 0: zarr-python 3's defaults */
  desc.data_type = "float32";
  desc.ndim = 2;
  desc.shape = shape;
  desc.chunk_shape = chunks;  /* 64 x 64 chunks inside 512 x 512 shards */
  desc.shard_shape = shards;
  zarr_array *array = NULL;
  float in[4] = {1, 2, 3, 4}, out[4] = {0};
  uint64_t start[2] = {511, 511}, count[2] = {2, 2};  /* across four shards */
  int status = zarr_create_from_desc(&array, "memory://example/sharded", &desc, NULL);
  if (status == ZARR_OK) status = zarr_write_region(array, 2, start, count, in, sizeof in);
  if (status == ZARR_OK) status = zarr_read_region(array, 2, start, count, out, sizeof out);
  if (status != ZARR_OK) fprintf(stderr, "%s: %s\n", zarr_status_name(status), zarr_last_error());
  zarr_close(array);
  printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
  return status == ZARR_OK && out[3] == 4 ? 0 : 1;
}
