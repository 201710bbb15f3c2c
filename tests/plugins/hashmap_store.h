/* The example C store of hashmap_store.c. */
#ifndef ZARR_TESTS_HASHMAP_STORE_H
#define ZARR_TESTS_HASHMAP_STORE_H

#include <stddef.h>

#include <zarr/zarr_plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The store's vtable, under `scheme`. */
zarr_store_vtable hashmap_store_vtable(const char *scheme);

/* Register the store under `scheme` (zarr_store_register's status). */
static inline int hashmap_store_register(const char *scheme) {
  zarr_store_vtable vtable = hashmap_store_vtable(scheme);
  return zarr_store_register(&vtable);
}

/* How many keys the table NAME holds now (0 when no handle has it open). */
size_t hashmap_store_key_count(const char *name);

#ifdef __cplusplus
}
#endif

#endif
