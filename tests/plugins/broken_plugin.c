/* Plugins that fail on purpose, one way per build (see meson.build):
 * INIT_FAILS: zarr_plugin_init returns an error without registering;
 * WRONG_ABI: it registers a vtable of an ABI version libzarr does not know;
 * NO_ENTRY: it does not export zarr_plugin_init at all. */
#include <string.h>

#include <zarr/zarr_plugin.h>

#if defined(INIT_FAILS)
__attribute__((visibility("default"))) int zarr_plugin_init(uint32_t abi_version) {
  (void)abi_version;
  return ZARR_ERR_UNSUPPORTED;
}
#elif defined(WRONG_ABI)
static int never_create(void *u, const char *c, size_t i, void **inst, char *e, size_t n) {
  (void)u, (void)c, (void)i, (void)inst, (void)e, (void)n;
  return ZARR_ERR_INTERNAL;
}
static int never_encode(void *inst, const void *in, size_t n, const zarr_codec_output *out) {
  (void)inst, (void)in, (void)n, (void)out;
  return ZARR_ERR_INTERNAL;
}
static int never_decode(void *inst, const void *in, size_t n, size_t e, const zarr_codec_output *out) {
  (void)inst, (void)in, (void)n, (void)e, (void)out;
  return ZARR_ERR_INTERNAL;
}
static void never_destroy(void *inst) { (void)inst; }
__attribute__((visibility("default"))) int zarr_plugin_init(uint32_t abi_version) {
  (void)abi_version;
  zarr_codec_vtable vtable;
  memset(&vtable, 0, sizeof vtable);
  vtable.struct_size = sizeof vtable;
  vtable.abi_version = 99;
  vtable.name = "from-the-future";
  vtable.create = never_create;
  vtable.encode = never_encode;
  vtable.decode = never_decode;
  vtable.destroy = never_destroy;
  return zarr_codec_register(&vtable);
}
#else
__attribute__((visibility("default"))) int not_the_entry_point(void) { return 0; }
#endif
