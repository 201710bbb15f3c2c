/*
 * An example libzarr codec plugin: "rle8", a byte-wise run-length codec.
 * Encoded data is (count, value) byte pairs, count 1 to 255. It compresses
 * masks, label images and other data with long runs of equal bytes.
 *
 * Build it as a shared library linked with libzarr:
 *   cc -shared -fPIC rle8_plugin.c -o librle8.so $(pkg-config --cflags --libs zarr)
 * and put its folder in ZARR_PLUGIN_PATH; or call rle8_register() from a
 * program that links it in. docs/plugins.md walks through this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zarr/zarr_plugin.h>

/* One instance per codec in an array's metadata. rle8 has no parameters, so
 * there is nothing to keep; a real codec keeps its parsed configuration. */
typedef struct rle8_instance {
  int unused;
} rle8_instance;

static int rle8_create(void *user_data, const char *config_json, size_t item_size, void **instance, char *error,
                       size_t error_size) {
  (void)user_data;
  (void)item_size;
  /* A codec with parameters parses config_json here and refuses bad ones
   * with ZARR_ERR_INVALID_METADATA and a message naming the field. */
  if (strstr(config_json, "\"configuration_error\"")) {
    snprintf(error, error_size, "field 'configuration_error' is not a parameter of rle8");
    return ZARR_ERR_INVALID_METADATA;
  }
  *instance = calloc(1, sizeof(rle8_instance));
  if (!*instance) {
    snprintf(error, error_size, "out of memory");
    return ZARR_ERR_NO_MEMORY;
  }
  return ZARR_OK;
}

static int rle8_encode(void *instance, const void *in, size_t nbytes, const zarr_codec_output *out) {
  (void)instance;
  const unsigned char *src = (const unsigned char *)in;
  /* Worst case: every byte its own run, two bytes each. */
  unsigned char *dst = (unsigned char *)out->allocate(out->context, 2 * nbytes);
  if (!dst && nbytes > 0) return ZARR_ERR_NO_MEMORY;
  size_t used = 0;
  for (size_t i = 0; i < nbytes;) {
    size_t run = 1;
    while (i + run < nbytes && run < 255 && src[i + run] == src[i]) ++run;
    dst[used++] = (unsigned char)run;
    dst[used++] = src[i];
    i += run;
  }
  out->allocate(out->context, used); /* shrink to what was written */
  return ZARR_OK;
}

static int rle8_decode(void *instance, const void *in, size_t nbytes, size_t expected_nbytes,
                       const zarr_codec_output *out) {
  (void)instance;
  const unsigned char *src = (const unsigned char *)in;
  if (nbytes % 2 != 0) {
    out->set_error(out->context, "corrupt input: odd length, not (count, value) pairs");
    return ZARR_ERR_CODEC;
  }
  size_t total = 0;
  for (size_t i = 0; i < nbytes; i += 2) {
    if (src[i] == 0) {
      out->set_error(out->context, "corrupt input: a run of length 0");
      return ZARR_ERR_CODEC;
    }
    total += src[i];
  }
  if (expected_nbytes != 0 && total != expected_nbytes) {
    out->set_error(out->context, "corrupt input: the runs do not add up to the chunk's size");
    return ZARR_ERR_CODEC;
  }
  unsigned char *dst = (unsigned char *)out->allocate(out->context, total);
  if (!dst && total > 0) return ZARR_ERR_NO_MEMORY;
  for (size_t i = 0; i < nbytes; i += 2) {
    memset(dst, src[i + 1], src[i]);
    dst += src[i];
  }
  return ZARR_OK;
}

static void rle8_destroy(void *instance) { free(instance); }

/* Register the codec under `name` ("rle8" when loaded as a plugin). */
int rle8_register(const char *name) {
  zarr_codec_vtable vtable;
  memset(&vtable, 0, sizeof vtable);
  vtable.struct_size = sizeof vtable;
  vtable.abi_version = ZARR_PLUGIN_ABI_VERSION;
  vtable.name = name;
  vtable.create = rle8_create;
  vtable.encode = rle8_encode;
  vtable.decode = rle8_decode;
  vtable.destroy = rle8_destroy;
  return zarr_codec_register(&vtable);
}

/* The entry point libzarr calls after loading the library from ZARR_PLUGIN_PATH. */
__attribute__((visibility("default"))) int zarr_plugin_init(uint32_t abi_version) {
  if (abi_version < 1) return ZARR_ERR_UNSUPPORTED;
  return rle8_register("rle8");
}
