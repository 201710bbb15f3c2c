/*
 * libzarr: extending the library at run time (see docs/plugins.md).
 *
 * Codecs: a C program, or a shared library found through ZARR_PLUGIN_PATH,
 * registers a bytes->bytes codec with a vtable. It is usable at once in array
 * metadata (v2 "filters"/"compressor" {"id": NAME, ...}; v3 "codecs"
 * {"name": NAME, "configuration": {...}}) and through zarr_codec_create.
 *
 * Stores: a C program (or plugin) registers a key/value store under a URL
 * scheme with a vtable; URLs "SCHEME://NAME[/path]" then reach it from
 * zarr_open, zarr_create, the group functions and every other URL taker
 * (docs/plugins.md#stores).
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

/* ---------------------------------------------------------------------------
 * Stores
 * ------------------------------------------------------------------------- */

/*
 * Where a store callback hands back what it produced. get: call allocate to
 * make the value exactly nbytes long and write it through the pointer it
 * returns (valid until the next allocate; a value never allocated is empty).
 * list: call add_key once per key (a NUL-terminated full key); it returns 0,
 * or non-zero when the callback should stop and return ZARR_ERR_NO_MEMORY.
 * set_error gives the message zarr_last_error() reports when the callback
 * fails (libzarr prefixes the store's URL and the key).
 */
typedef struct zarr_store_output {
  void *context; /* libzarr's; pass it back */
  void *(*allocate)(void *context, size_t nbytes); /* NULL: out of memory */
  int (*add_key)(void *context, const char *key);
  void (*set_error)(void *context, const char *message);
} zarr_store_output;

/* A get's length meaning "to the end of the value". */
#define ZARR_STORE_TO_END UINT64_MAX

/*
 * A key/value store (the abstract store of the Zarr v3 spec). Keys are
 * '/'-separated UTF-8 strings that libzarr has already checked: non-empty,
 * no leading, trailing or doubled '/', no "." or ".." segments. Values are
 * bytes of any length, including 0.
 *
 * Every callback but open, get and close may be NULL: without set and erase
 * the store is read-only (writes fail with ZARR_ERR_READ_ONLY); without list
 * it cannot list (hierarchies open through consolidated metadata, as over
 * HTTP); without erase_prefix libzarr lists the prefix and erases each key;
 * without flush there is nothing to finish.
 *
 * Callbacks return ZARR_OK or a ZARR_ERR_* code (normally ZARR_ERR_IO, with
 * a message through set_error; any other value is taken as ZARR_ERR_IO) and are
 * called from any number of threads at once, on one store as on several: a
 * store that cannot take that must lock itself.
 */
typedef struct zarr_store_vtable {
  /* sizeof(zarr_store_vtable) as the program was compiled, and
   * ZARR_PLUGIN_ABI_VERSION then. */
  uint32_t struct_size;
  uint32_t abi_version;

  /* The URL scheme ("kv" for kv://NAME/path): lower-case letters, digits,
   * '+', '-' and '.', starting with a letter; not a built-in scheme (file,
   * memory, http, https, s3) nor "zip". */
  const char *scheme;
  /* Handed back to open unchanged. */
  void *user_data;

  /*
   * Open the store NAME (what follows "SCHEME://" up to the first '/'; the
   * rest of the URL is the node's path inside the store). options_json is the
   * "store" member of the _ex functions' options, a JSON object ("{}" when
   * none). writable is 1 when the caller opens for writing ("r+" or create).
   * Set *store (handed to the other callbacks) and return ZARR_OK, or fail
   * (ZARR_ERR_NOT_FOUND for no such store, ZARR_ERR_INVALID_ARGUMENT for bad
   * options...). Called once per open or create; the store is closed when
   * its last handle is.
   */
  int (*open)(void *user_data, const char *name, const char *options_json, int writable, void **store,
              const zarr_store_output *out);

  /*
   * Read key's value, or part of it: the bytes [offset, offset + length)
   * clipped to the value (an offset past the end gives an empty value), or,
   * when from_end is non-zero, the last `length` bytes (all of a shorter
   * value; offset is 0). length ZARR_STORE_TO_END means to the end. libzarr
   * bounds every read: it asks for a whole value as offset 0, length
   * limit + 1, and refuses an out->allocate of more than that (docs/plugins.md).
   * Return ZARR_OK with the bytes through out->allocate, or
   * ZARR_ERR_NOT_FOUND when the key is absent (not an error).
   */
  int (*get)(void *store, const char *key, uint64_t offset, uint64_t length, int from_end,
             const zarr_store_output *out);

  /* Store a whole value, replacing any: readers see the old value or the
   * new one, never a mix. */
  int (*set)(void *store, const char *key, const void *value, size_t nbytes, const zarr_store_output *out);
  /* Remove a key; an absent key is not an error. */
  int (*erase)(void *store, const char *key, const zarr_store_output *out);
  /* Remove every key starting with prefix ("" is every key). */
  int (*erase_prefix)(void *store, const char *prefix, const zarr_store_output *out);
  /* Every key starting with prefix ("" is every key), in any order, through
   * out->add_key. */
  int (*list)(void *store, const char *prefix, const zarr_store_output *out);
  /* Finish work held back (libzarr calls it before close, and when the last
   * handle on the store is closed; its failure is what zarr_close returns). */
  int (*flush)(void *store, const zarr_store_output *out);

  /* Release the store (never called with NULL). */
  void (*close)(void *store);
} zarr_store_vtable;

/*
 * Register a store under its URL scheme. libzarr copies the vtable (and the
 * scheme), so it may live on the stack. Registering a scheme again replaces
 * the earlier store for URLs opened afterwards (open handles keep theirs).
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT naming the field for a NULL
 *         vtable, a NULL open, get or close, a bad or built-in scheme, a
 *         struct_size smaller than version 1's; ZARR_ERR_UNSUPPORTED for an
 *         abi_version this libzarr does not know.
 */
ZARR_API int zarr_store_register(const zarr_store_vtable *vtable);

/* ---------------------------------------------------------------------------
 * Plugin libraries
 * ------------------------------------------------------------------------- */

/*
 * The entry point every plugin library exports. libzarr calls it once, right
 * after loading the library, with its own ZARR_PLUGIN_ABI_VERSION; the plugin
 * returns ZARR_ERR_UNSUPPORTED when it needs a newer one, else registers its
 * codecs with zarr_codec_register (and stores with zarr_store_register) and
 * returns ZARR_OK (or the first error).
 */
typedef int (*zarr_plugin_init_fn)(uint32_t abi_version);
#define ZARR_PLUGIN_INIT_SYMBOL "zarr_plugin_init"

#ifdef __cplusplus
}
#endif

#endif /* ZARR_ZARR_PLUGIN_H */
