/*
 * An example libzarr store written in C: "hashmap", an in-process key/value
 * store over a chained hash table. URLs hashmap://NAME[/path] reach it; every
 * open of one NAME shares its table until the last handle on it is closed.
 * It stands for a store a program brings of its own (a database, an object
 * store of its own): docs/plugins.md#stores walks through it.
 *
 * Call hashmap_store_register() (hashmap_store.h) from a program that links
 * it in, or build it
 * as a shared library with -DHASHMAP_PLUGIN_ENTRY and put its folder in
 * ZARR_PLUGIN_PATH:
 *   cc -shared -fPIC -DHASHMAP_PLUGIN_ENTRY hashmap_store.c -o libhashmap.so \
 *      $(pkg-config --cflags --libs zarr) -lpthread
 *
 * It leaves erase_prefix and flush NULL: libzarr then erases a prefix key by
 * key through list and erase, and there is nothing to flush.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zarr/zarr_plugin.h>

#include "hashmap_store.h"

#define BUCKETS 1024

typedef struct entry {
  char *key;
  unsigned char *value;
  size_t size;
  struct entry *next;
} entry;

/* One named table. Callbacks run on many threads at once: a read-write lock
 * lets readers share it. */
typedef struct table {
  char *name;
  int users; /* open handles; guarded by tables_lock */
  pthread_rwlock_t lock;
  entry *buckets[BUCKETS];
  struct table *next;
} table;

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static table *tables;

static size_t bucket_of(const char *key) {
  size_t h = 1469598103934665603u; /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)key; *p; ++p) h = (h ^ *p) * 1099511628211u;
  return h % BUCKETS;
}

static entry *find_entry(table *t, const char *key) {
  for (entry *e = t->buckets[bucket_of(key)]; e; e = e->next) {
    if (strcmp(e->key, key) == 0) return e;
  }
  return NULL;
}

static int fail(const zarr_store_output *out, int status, const char *message) {
  out->set_error(out->context, message);
  return status;
}

/* ---- the callbacks ------------------------------------------------------ */

static int hashmap_open(void *user_data, const char *name, const char *options_json, int writable, void **store,
                        const zarr_store_output *out) {
  (void)user_data;
  (void)writable;
  /* A store with options parses options_json and refuses unknown ones. */
  if (strcmp(options_json, "{}") != 0) {
    return fail(out, ZARR_ERR_INVALID_ARGUMENT, "the hashmap store takes no options");
  }
  pthread_mutex_lock(&tables_lock);
  table *t = tables;
  while (t && strcmp(t->name, name) != 0) t = t->next;
  if (!t) {
    t = calloc(1, sizeof *t);
    if (t) t->name = strdup(name);
    if (!t || !t->name) {
      if (t) free(t);
      pthread_mutex_unlock(&tables_lock);
      return fail(out, ZARR_ERR_NO_MEMORY, "out of memory");
    }
    pthread_rwlock_init(&t->lock, NULL);
    t->next = tables;
    tables = t;
  }
  t->users++;
  pthread_mutex_unlock(&tables_lock);
  *store = t;
  return ZARR_OK;
}

static int hashmap_get(void *store, const char *key, uint64_t offset, uint64_t length, int from_end,
                       const zarr_store_output *out) {
  table *t = store;
  pthread_rwlock_rdlock(&t->lock);
  entry *e = find_entry(t, key);
  if (!e) {
    pthread_rwlock_unlock(&t->lock);
    return ZARR_ERR_NOT_FOUND;
  }
  /* The part asked for, clipped to the value. */
  uint64_t begin, end;
  if (from_end) {
    begin = length >= e->size ? 0 : e->size - length;
    end = e->size;
  } else {
    begin = offset < e->size ? offset : e->size;
    end = length >= e->size - begin ? e->size : begin + length;
  }
  int status = ZARR_OK;
  void *dst = out->allocate(out->context, (size_t)(end - begin));
  if (!dst) {
    status = ZARR_ERR_NO_MEMORY;
  } else if (end > begin) {
    memcpy(dst, e->value + begin, (size_t)(end - begin));
  }
  pthread_rwlock_unlock(&t->lock);
  return status;
}

static int hashmap_set(void *store, const char *key, const void *value, size_t nbytes,
                       const zarr_store_output *out) {
  table *t = store;
  /* Copy before locking, so writers hold the lock briefly. */
  unsigned char *copy = malloc(nbytes ? nbytes : 1);
  if (!copy) return fail(out, ZARR_ERR_NO_MEMORY, "out of memory");
  if (nbytes) memcpy(copy, value, nbytes);
  pthread_rwlock_wrlock(&t->lock);
  entry *e = find_entry(t, key);
  if (!e) {
    e = calloc(1, sizeof *e);
    if (e) e->key = strdup(key);
    if (!e || !e->key) {
      pthread_rwlock_unlock(&t->lock);
      free(e);
      free(copy);
      return fail(out, ZARR_ERR_NO_MEMORY, "out of memory");
    }
    size_t b = bucket_of(key);
    e->next = t->buckets[b];
    t->buckets[b] = e;
  }
  free(e->value);
  e->value = copy;
  e->size = nbytes;
  pthread_rwlock_unlock(&t->lock);
  return ZARR_OK;
}

static int hashmap_erase(void *store, const char *key, const zarr_store_output *out) {
  (void)out;
  table *t = store;
  pthread_rwlock_wrlock(&t->lock);
  for (entry **link = &t->buckets[bucket_of(key)]; *link; link = &(*link)->next) {
    entry *e = *link;
    if (strcmp(e->key, key) != 0) continue;
    *link = e->next;
    free(e->key);
    free(e->value);
    free(e);
    break;
  }
  pthread_rwlock_unlock(&t->lock);
  return ZARR_OK; /* an absent key is not an error */
}

static int hashmap_list(void *store, const char *prefix, const zarr_store_output *out) {
  table *t = store;
  size_t prefix_len = strlen(prefix);
  int status = ZARR_OK;
  pthread_rwlock_rdlock(&t->lock);
  for (size_t b = 0; b < BUCKETS && status == ZARR_OK; ++b) {
    for (entry *e = t->buckets[b]; e && status == ZARR_OK; e = e->next) {
      if (strncmp(e->key, prefix, prefix_len) == 0 && out->add_key(out->context, e->key) != 0) {
        status = ZARR_ERR_NO_MEMORY;
      }
    }
  }
  pthread_rwlock_unlock(&t->lock);
  return status;
}

static void free_table(table *t) {
  for (size_t b = 0; b < BUCKETS; ++b) {
    for (entry *e = t->buckets[b], *next; e; e = next) {
      next = e->next;
      free(e->key);
      free(e->value);
      free(e);
    }
  }
  pthread_rwlock_destroy(&t->lock);
  free(t->name);
  free(t);
}

/* The last handle on a name frees its table, as libzarr's memory:// does. */
static void hashmap_close(void *store) {
  table *t = store;
  pthread_mutex_lock(&tables_lock);
  if (--t->users == 0) {
    for (table **link = &tables; *link; link = &(*link)->next) {
      if (*link == t) {
        *link = t->next;
        break;
      }
    }
    free_table(t);
  }
  pthread_mutex_unlock(&tables_lock);
}

/* ---- registration -------------------------------------------------------- */

zarr_store_vtable hashmap_store_vtable(const char *scheme) {
  zarr_store_vtable vtable;
  memset(&vtable, 0, sizeof vtable); /* callbacks left out stay NULL */
  vtable.struct_size = sizeof vtable;
  vtable.abi_version = ZARR_PLUGIN_ABI_VERSION;
  vtable.scheme = scheme;
  vtable.open = hashmap_open;
  vtable.get = hashmap_get;
  vtable.set = hashmap_set;
  vtable.erase = hashmap_erase;
  vtable.list = hashmap_list;
  vtable.close = hashmap_close;
  return vtable;
}

size_t hashmap_store_key_count(const char *name) {
  size_t count = 0;
  pthread_mutex_lock(&tables_lock);
  for (table *t = tables; t; t = t->next) {
    if (strcmp(t->name, name) != 0) continue;
    pthread_rwlock_rdlock(&t->lock);
    for (size_t b = 0; b < BUCKETS; ++b) {
      for (entry *e = t->buckets[b]; e; e = e->next) ++count;
    }
    pthread_rwlock_unlock(&t->lock);
  }
  pthread_mutex_unlock(&tables_lock);
  return count;
}

#ifdef HASHMAP_PLUGIN_ENTRY
/* Loaded from ZARR_PLUGIN_PATH: register under the scheme the build chose. */
#ifndef HASHMAP_PLUGIN_SCHEME
#define HASHMAP_PLUGIN_SCHEME "hashmap"
#endif
__attribute__((visibility("default"))) int zarr_plugin_init(uint32_t abi_version) {
  if (abi_version < ZARR_PLUGIN_ABI_VERSION) return ZARR_ERR_UNSUPPORTED;
  return hashmap_store_register(HASHMAP_PLUGIN_SCHEME);
}
#endif
