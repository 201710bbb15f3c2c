/*
 * One of the two writer processes of test_attributes.cpp: it adds its own
 * attributes to one node, one zarr_update_attributes (or
 * zarr_group_update_attributes) per attribute, while the other writer adds
 * its own to the same node.
 *
 *   attr_writer URL KIND OPTIONS_JSON WRITER COUNT
 *
 * KIND is "array" or "group"; the writer adds "wWRITER_i": i for i = 0 ..
 * COUNT - 1. Once the node is open it prints "ready" and waits for a byte on
 * stdin, so the test can start both writers at the same moment. Exit 0 on
 * success, 1 (message on stderr) on a failed call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zarr/zarr.h>

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: attr_writer URL KIND OPTIONS_JSON WRITER COUNT\n");
    return 2;
  }
  const int is_group = strcmp(argv[2], "group") == 0;
  const int writer = atoi(argv[4]), count = atoi(argv[5]);
  zarr_array *array = NULL;
  zarr_group *group = NULL;
  const int opened = is_group ? zarr_group_open_ex(&group, argv[1], "r+", argv[3])
                              : zarr_open_ex(&array, argv[1], "r+", argv[3]);
  if (opened != ZARR_OK) {
    fprintf(stderr, "attr_writer: %s\n", zarr_last_error());
    return 1;
  }
  printf("ready\n");
  fflush(stdout);
  char go;
  if (read(STDIN_FILENO, &go, 1) != 1) return 1;
  int status = ZARR_OK;
  for (int i = 0; i < count && status == ZARR_OK; ++i) {
    char update[64];
    snprintf(update, sizeof update, "{\"w%d_%d\": %d}", writer, i, i);
    status = is_group ? zarr_group_update_attributes(group, update) : zarr_update_attributes(array, update);
  }
  if (status != ZARR_OK) fprintf(stderr, "attr_writer: %s\n", zarr_last_error());
  const int closed = is_group ? zarr_group_close(group) : zarr_close(array);
  return status == ZARR_OK && closed == ZARR_OK ? 0 : 1;
}
