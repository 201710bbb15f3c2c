/*
 * libzarr: extending the library at run time (see docs/plugins.md).
 *
 * Codecs: a C program, or a shared library found through ZARR_PLUGIN_PATH,
 * registers a bytes->bytes codec with a vtable. It is usable at once in array
 * metadata (v2 "filters"/"compressor" {"id": NAME, ...}; v3 "codecs"
 * {"name": NAME, "configuration": {...}}) and through zarr_codec_create.
 *
 * Versioning: a vtable starts with its own size and the ABI version it was
 * written for. Fields are only ever appended, so libzarr reads the fields a
 * plugin's struct_size covers and nothing past them.
 */
#ifndef ZARR_ZARR_PLUGIN_H
#define ZARR_ZARR_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "zarr/zarr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The plugin ABI this header describes. */
#define ZARR_PLUGIN_ABI_VERSION 1

/* ---------------------------------------------------------------------------
 * Codecs
 * ------------------------------------------------------------------------- */

/*
 * Where a codec callback writes its result. Call allocate to make the output
 * exactly nbytes long (again to grow or shrink it: the first bytes are kept)
 * and write through the pointer it returns, valid until the next allocate.
 * The result is what the output holds when the callback returns ZARR_OK.
 * set_error gives the message zarr_last_error() reports when the callback
 * fails (the codec's name is prefixed).
 */
typedef struct zarr_codec_output {
  void *context; /* libzarr's; pass it back */
  void *(*allocate)(void *context, size_t nbytes); /* NULL: out of memory */
  void (*set_error)(void *context, const char *message);
} zarr_codec_output;

typedef struct zarr_codec_vtable {
  /* sizeof(zarr_codec_vtable) as the plugin was compiled, and
   * ZARR_PLUGIN_ABI_VERSION then. */
  uint32_t struct_size;
  uint32_t abi_version;

  /* The codec's v2 id and v3 name ("rle8"): letters, digits, '.', '_', '-'. */
  const char *name;
  /* Handed back to create unchanged. */
  void *user_data;

  /*
   * Make an instance from the configuration, a JSON object in the v2 form
   * ({"id": NAME, parameters...}; a v3 "configuration" is turned into it).
   * item_size is the size of the array's elements (1 outside an array).
   * Return ZARR_OK and set *instance, or a ZARR_ERR_* code (normally
   * ZARR_ERR_INVALID_METADATA) with a message in error (error_size bytes,
   * NUL-terminated).
   */
  int (*create)(void *user_data, const char *config_json, size_t item_size, void **instance, char *error,
                size_t error_size);

  /* Encode or decode nbytes at in. expected_nbytes is the decoded size the
   * array implies (0: unknown). Return ZARR_OK or a ZARR_ERR_* code (normally
   * ZARR_ERR_CODEC). Called from any number of threads at once. */
  int (*encode)(void *instance, const void *in, size_t nbytes, const zarr_codec_output *out);
  int (*decode)(void *instance, const void *in, size_t nbytes, size_t expected_nbytes,
                const zarr_codec_output *out);

  /* Release an instance (never called with NULL). */
  void (*destroy)(void *instance);
} zarr_codec_vtable;

/*
 * Register a codec. libzarr copies the vtable (and the name), so it may live on
 * the stack. Registering a name again replaces the earlier codec for arrays
 * opened afterwards, built-in codecs included.
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT naming the field for a NULL
 *         vtable, callback or name, a bad name, a struct_size smaller than
 *         version 1's; ZARR_ERR_UNSUPPORTED for an abi_version this libzarr
 *         does not know.
 */
ZARR_API int zarr_codec_register(const zarr_codec_vtable *vtable);

/*
 * The entry point every plugin library exports. libzarr calls it once, right
 * after loading the library, with its own ZARR_PLUGIN_ABI_VERSION; the plugin
 * returns ZARR_ERR_UNSUPPORTED when it needs a newer one, else registers its
 * codecs with zarr_codec_register and returns ZARR_OK (or the first error).
 */
typedef int (*zarr_plugin_init_fn)(uint32_t abi_version);
#define ZARR_PLUGIN_INIT_SYMBOL "zarr_plugin_init"

#ifdef __cplusplus
}
#endif

#endif /* ZARR_ZARR_PLUGIN_H */
