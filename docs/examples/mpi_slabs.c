/*
 * Scaling out with MPI (docs/scaling.md): every rank writes its own slab of
 * rows of one array, chunk-aligned so that no two ranks ever write the same
 * chunk and no lock is needed, on any store (filesystem or S3).
 *
 *   mpirun -np N mpi_slabs URL [OPTIONS_JSON]
 *
 * Rank 0 creates a Zarr v2 int32 array [N * 64, 256] in [64, 256] chunks at
 * URL (which must not exist yet); after a barrier every rank opens it and
 * writes rows [64 * rank, 64 * rank + 64), element (r, c) = r * 1000 + c;
 * after another barrier every rank reads the whole array back and checks
 * every element. OPTIONS_JSON goes to zarr_create_ex and zarr_open_ex, e.g.
 *   mpi_slabs s3://bucket/a.zarr '{"store": {"endpoint": "http://127.0.0.1:9000"}}'
 * Exit status 0 when every rank read what the ranks wrote, 1 otherwise.
 *
 * Build against an installed libzarr with:
 *   mpicc mpi_slabs.c $(pkg-config --cflags --libs zarr) -o mpi_slabs
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <zarr/zarr.h>

enum { SLAB_ROWS = 64, COLUMNS = 256 };

/* Report a failed call with libzarr's message and stop every rank. */
static void check(int status, const char *what, int rank) {
  if (status != ZARR_OK) {
    fprintf(stderr, "rank %d: %s failed: %s (%s)\n", rank, what, zarr_status_name(status), zarr_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static int32_t value_at(uint64_t row, uint64_t column) { return (int32_t)(row * 1000 + column); }

static void create_array(const char *url, const char *options, int ranks, int rank) {
  char metadata[256];
  snprintf(metadata, sizeof metadata,
           "{\"zarr_format\": 2, \"shape\": [%d, %d], \"chunks\": [%d, %d], \"dtype\": \"<i4\","
           " \"compressor\": {\"id\": \"zstd\", \"level\": 1}, \"fill_value\": -1, \"order\": \"C\","
           " \"filters\": null}",
           ranks * SLAB_ROWS, COLUMNS, SLAB_ROWS, COLUMNS);
  zarr_array *array = NULL;
  check(zarr_create_ex(&array, url, metadata, options), "zarr_create_ex", rank);
  check(zarr_close(array), "zarr_close", rank);
}

/* This rank's rows: whole chunks, so no other rank touches them. */
static void write_slab(zarr_array *array, int rank) {
  static int32_t slab[SLAB_ROWS * COLUMNS];
  const uint64_t first_row = (uint64_t)rank * SLAB_ROWS;
  for (uint64_t r = 0; r < SLAB_ROWS; ++r)
    for (uint64_t c = 0; c < COLUMNS; ++c) slab[r * COLUMNS + c] = value_at(first_row + r, c);
  const uint64_t start[2] = {first_row, 0}, count[2] = {SLAB_ROWS, COLUMNS};
  check(zarr_write_region(array, 2, start, count, slab, sizeof slab), "zarr_write_region", rank);
}

/* Read the whole array; the number of elements that differ from what their rank wrote. */
static uint64_t count_mismatches(zarr_array *array, int ranks, int rank) {
  const uint64_t rows = (uint64_t)ranks * SLAB_ROWS;
  int32_t *all = malloc((size_t)rows * COLUMNS * sizeof *all);
  if (!all) check(ZARR_ERR_NO_MEMORY, "malloc", rank);
  const uint64_t start[2] = {0, 0}, count[2] = {rows, COLUMNS};
  check(zarr_read_region(array, 2, start, count, all, (size_t)rows * COLUMNS * sizeof *all), "zarr_read_region",
        rank);
  uint64_t mismatches = 0;
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < COLUMNS; ++c) mismatches += all[r * COLUMNS + c] != value_at(r, c);
  free(all);
  return mismatches;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 2 || argc > 3) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N mpi_slabs URL [OPTIONS_JSON]\n");
    MPI_Finalize();
    return 2;
  }
  const char *url = argv[1], *options = argc > 2 ? argv[2] : NULL;

  /* The metadata is written once, by one rank, before any other opens it. */
  if (rank == 0) create_array(url, options, ranks, rank);
  MPI_Barrier(MPI_COMM_WORLD);

  zarr_array *array = NULL;
  check(zarr_open_ex(&array, url, "r+", options), "zarr_open_ex", rank);
  write_slab(array, rank);
  MPI_Barrier(MPI_COMM_WORLD); /* every slab is stored before anyone reads */

  const uint64_t mismatches = count_mismatches(array, ranks, rank);
  check(zarr_close(array), "zarr_close", rank);
  if (mismatches) fprintf(stderr, "rank %d: %" PRIu64 " elements differ from what was written\n", rank, mismatches);

  int failed = mismatches != 0, any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (rank == 0 && !any_failed) printf("mpi_slabs: %d ranks wrote and read back %s\n", ranks, url);
  MPI_Finalize();
  return any_failed ? 1 : 0;
}
