/*
 * libzarr: the C API.
 *
 * Conventions (see docs/c-api.md):
 *  - Every fallible function returns ZARR_OK (0) or a negative ZARR_ERR_* code;
 *    zarr_last_error() then gives this thread's message naming the key, file or
 *    field at fault.
 *  - Handles are opaque; the out-parameter comes first; every close/free accepts NULL.
 *  - Bulk data goes into caller-owned buffers whose size the caller states.
 *  - Strings the library allocates are freed with zarr_free().
 *  - Regions are C-order, contiguous, native byte order unless a strided variant
 *    is used.
 */
#ifndef ZARR_ZARR_H
#define ZARR_ZARR_H

#include <stddef.h>
#include <stdint.h>

#include "zarr/zarr_version.h"

#if defined(_WIN32)
#define ZARR_API __declspec(dllexport)
#else
#define ZARR_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Status codes. Values never change meaning once released.
 * ------------------------------------------------------------------------- */
#define ZARR_OK 0
#define ZARR_ERR_INVALID_ARGUMENT (-1) /* a NULL pointer, bad mode, bad path, wrong ndim */
#define ZARR_ERR_NOT_FOUND (-2)        /* no array or group at the path */
#define ZARR_ERR_EXISTS (-3)           /* a node is already there */
#define ZARR_ERR_INVALID_METADATA (-4) /* malformed JSON, wrong types, bad values */
#define ZARR_ERR_UNSUPPORTED (-5)      /* a codec, data type or feature libzarr lacks */
#define ZARR_ERR_CODEC (-6)            /* a chunk failed to encode or decode */
#define ZARR_ERR_IO (-7)               /* the store failed to read or write */
#define ZARR_ERR_OUT_OF_BOUNDS (-8)    /* a region outside the array's shape */
#define ZARR_ERR_READ_ONLY (-9)        /* a write through a read-only handle */
#define ZARR_ERR_NO_MEMORY (-10)       /* an allocation failed */
#define ZARR_ERR_BUFFER_SIZE (-11)     /* the caller's buffer has the wrong size */
#define ZARR_ERR_INTERNAL (-12)        /* a bug in libzarr: please report it */
#define ZARR_ERR_RANGE (-13)           /* a value does not fit the type it is converted to */

/* Node kinds reported by the group listing functions. */
#define ZARR_NODE_ARRAY 1
#define ZARR_NODE_GROUP 2

typedef struct zarr_array zarr_array;
typedef struct zarr_group zarr_group;
typedef struct zarr_codec zarr_codec;

/* ---------------------------------------------------------------------------
 * Library
 * ------------------------------------------------------------------------- */

/** Version of the library actually loaded, e.g. "0.1.0". Never NULL. */
ZARR_API const char *zarr_version_string(void);

/** Version as MAJOR*10000 + MINOR*100 + PATCH, to compare with ZARR_VERSION_NUMBER. */
ZARR_API unsigned zarr_version_number(void);

/**
 * Set how many threads work on one region read or write (zarr_read_region,
 * zarr_write_region and their strided forms): the calling thread plus n - 1
 * worker threads of one pool the library shares between all handles, which
 * decode, encode and copy different chunks at the same time. Calls already
 * running finish with the threads they started with. Region I/O from several
 * threads at once shares the same workers.
 *
 * @param n  threads per call; 0 restores the default: the environment
 *           variable ZARR_NUM_THREADS when set (1 to 1024), else the
 *           processors this process may run on (its affinity mask);
 *           1 does everything on the calling thread
 * @return ZARR_OK, or ZARR_ERR_INVALID_ARGUMENT when n is above 1024 or
 *         ZARR_NUM_THREADS is not a count (region calls fail the same way
 *         until it is fixed or a count is set).
 */
ZARR_API int zarr_set_thread_count(size_t n);

/** The number of threads that work on one region read or write (see zarr_set_thread_count); at least 1. */
ZARR_API size_t zarr_thread_count(void);

/**
 * This thread's message for the last failing call: names the key, file or field
 * at fault. Never NULL; "" when no call on this thread has failed. Valid until
 * the next failing call on the same thread.
 */
ZARR_API const char *zarr_last_error(void);

/** Short constant name of a status code, e.g. "ZARR_ERR_NOT_FOUND". Never NULL. */
ZARR_API const char *zarr_status_name(int status);

/** Free memory the library allocated for the caller (JSON strings). NULL is fine. */
ZARR_API void zarr_free(void *p);

/* ---------------------------------------------------------------------------
 * Arrays
 * ------------------------------------------------------------------------- */

/**
 * Open an existing array.
 *
 * @param out  receives the handle on success, NULL on failure
 * @param url  the array's location: a filesystem path or file:// URL,
 *             memory://NAME[/path] for an in-process store,
 *             ARCHIVE|zip:[path] for a node in a zip archive, http(s)://HOST/path
 *             (read-only) or s3://BUCKET/prefix (docs/urls.md)
 * @param mode "r" (read only) or "r+" (read and write)
 * @return ZARR_OK, ZARR_ERR_NOT_FOUND when no array is there, ZARR_ERR_INVALID_METADATA
 *         or ZARR_ERR_UNSUPPORTED when its metadata cannot be used.
 *         Legacy Zarr v1 arrays open in mode "r" only.
 */
ZARR_API int zarr_open(zarr_array **out, const char *url, const char *mode);

/**
 * zarr_open with options, a JSON object (NULL or "" for none). Known options:
 *   "write_empty_chunks": bool  store chunks equal to the fill value everywhere
 *                               (default false: such chunks are erased instead)
 *   "zarr_format": 1, 2 or 3    open only that format's metadata (.zarray for 2,
 *                               zarr.json for 3, meta for 1). Without it zarr.json is
 *                               looked for first, so a node with both zarr.json and
 *                               .zarray opens as v3, as in zarr-python 3. Given to
 *                               zarr_create_ex it must match the document's format.
 *   "process_lock_dir": "path"  each chunk read-modify-write also holds an flock(2)
 *                               on <path>/<chunk key>.lock (folders are created), so
 *                               processes on one filesystem may write regions that
 *                               share chunks without losing data (docs/scaling.md).
 *                               ZARR_ERR_IO naming the lock file when it cannot be
 *                               created or locked. Attribute changes
 *                               (zarr_set_attributes, zarr_update_attributes) hold
 *                               <path>/<attributes key>.lock the same way (.zattrs
 *                               for v2, zarr.json for v3).
 *   "store": {...}              options of the store the URL names, e.g.
 *                               {"compression": "deflate"} for a new zip archive
 *                               (docs/stores.md lists each store's options)
 * An unknown option is ZARR_ERR_INVALID_ARGUMENT naming it.
 */
ZARR_API int zarr_open_ex(zarr_array **out, const char *url, const char *mode,
                          const char *options_json);

/**
 * Create a new array and open it read-write.
 *
 * @param out           receives the handle
 * @param url           where to create it (as zarr_open)
 * @param metadata_json a Zarr v2 .zarray document ("shape" and "dtype" required) or a
 *                      Zarr v3 zarr.json document ("shape" and "data_type" required);
 *                      the rest takes zarr-python's defaults, listed in docs/c-api.md.
 * @return ZARR_OK, ZARR_ERR_EXISTS when an array or group is already at url,
 *         ZARR_ERR_INVALID_METADATA naming the bad field.
 *         Missing parent groups between an enclosing hierarchy and url are created;
 *         an enclosing group of the other Zarr format is ZARR_ERR_INVALID_ARGUMENT
 *         (one hierarchy, one format) and nothing is written.
 */
ZARR_API int zarr_create(zarr_array **out, const char *url, const char *metadata_json);

/** zarr_create with options (see zarr_open_ex). */
ZARR_API int zarr_create_ex(zarr_array **out, const char *url, const char *metadata_json,
                            const char *options_json);

/**
 * Create a new array at url like an open one (zarr-python's zeros_like,
 * ones_like, full_like, empty_like): the same format, shape, data type,
 * chunks, codecs, fill value and dimension names, without its attributes and
 * without its data. Each member of overrides_json (a metadata object in the
 * copied array's format, or NULL) replaces the member of that name, e.g.
 * {"fill_value": 1} for ones_like or {"shape": [10, 10]}; "zarr_format" and
 * "node_type" cannot be overridden. options_json as for zarr_create_ex.
 * A legacy v1 array is copied as v2.
 *
 * @return as zarr_create_ex; ZARR_ERR_INVALID_ARGUMENT when like is NULL or
 *         an override changes the format; ZARR_ERR_INVALID_METADATA when the
 *         overrides are not a JSON object or make the metadata invalid.
 */
ZARR_API int zarr_create_like(zarr_array **out, const char *url, const zarr_array *like,
                              const char *overrides_json, const char *options_json);

/**
 * Open or create an array from a TensorStore zarr driver spec (docs/spec.md): the
 * JSON object TensorStore's ts.open takes, for "driver": "zarr" (Zarr v2) or "zarr3".
 *
 * @param out       receives the handle: read-write, except where libzarr only reads
 *                  (http(s) stores, zip archives that already exist)
 * @param spec_json {"driver": ..., "kvstore": URL or {"driver": "file", "path": ...},
 *                  "path", "metadata", "schema", "dtype", "rank", "open", "create",
 *                  "delete_existing", "assume_metadata", "cache_pool", "field", ...}.
 *                  With "field" (v2 structured types) the handle shows that field
 *                  alone: the array's dimensions then the field's subarray shape;
 *                  reads and writes touch only its bytes of each record;
 *                  zarr_get_metadata and zarr_info still describe the whole array.
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT for a malformed or unknown member or a
 *         combination TensorStore forbids (naming the members);
 *         ZARR_ERR_UNSUPPORTED for a member libzarr does not have (named);
 *         ZARR_ERR_INVALID_METADATA when the stored metadata contradicts a constraint
 *         ("metadata.chunks: spec [10] but stored [20]"); ZARR_ERR_NOT_FOUND when
 *         opening without "create" finds no array; ZARR_ERR_EXISTS when creating
 *         without "open" finds one.
 */
ZARR_API int zarr_open_spec(zarr_array **out, const char *spec_json);

/* ---------------------------------------------------------------------------
 * Creating arrays without JSON: a versioned description (docs/c-api.md,
 * "Creating arrays from a description")
 * ------------------------------------------------------------------------- */

/**
 * The version of zarr_array_desc this header describes: 2 added chunk_edges
 * and chunk_edge_counts. Version 1 (the fields up to order) is still taken.
 */
#define ZARR_ARRAY_DESC_VERSION 2

/**
 * What a new array is, field by field. Initialise with ZARR_ARRAY_DESC_INIT,
 * then set the fields you need: every other field keeps its default. Fields are
 * only ever added at the end, with a new ZARR_ARRAY_DESC_VERSION; a library
 * refuses a version it does not know (a program built against a newer header
 * gets ZARR_ERR_INVALID_ARGUMENT instead of having its new fields ignored), and
 * never reads past the fields of the version given.
 */
typedef struct zarr_array_desc {
    uint32_t version;             /* ZARR_ARRAY_DESC_VERSION */
    int zarr_format;              /* 2 or 3; 0: the enclosing group's format, else 3 */
    const char *data_type;        /* a v3 name ("float32", "string") or a NumPy typestr ("<f4") */
    size_t ndim;                  /* 0 for a 0-d array (one element; shape may be NULL) */
    const uint64_t *shape;        /* ndim extents */
    const uint64_t *chunk_shape;  /* ndim extents (the inner chunks when sharded); NULL:
                                     chosen as zarr_open_spec chooses (about 2^20 elements) */
    const uint64_t *shard_shape;  /* v3 only: ndim extents, multiples of chunk_shape;
                                     NULL: no sharding */
    const char *compressor;       /* a codec's JSON, v2 or v3 form; "" none; NULL: the default */
    const char *fill_value;       /* a JSON value ("0", "NaN", "\"\""); NULL: the default */
    const char *const *dimension_names; /* ndim names (v3: entries may be NULL) or NULL */
    char order;                   /* 'C' or 'F'; 0: 'C' */
    /* Version 2. A rectilinear chunk grid (v3 only), whose chunks (the
       shards when sharded) differ in shape along an axis: NULL for a regular
       grid, else ndim pointers, entry d NULL for a regular step of
       chunk_shape[d] (shard_shape[d] when sharded) along axis d, else the
       chunk_edge_counts[d] edge lengths of axis d in order (each at least 1,
       a multiple of chunk_shape[d] when sharded, together at least shape[d]). */
    const uint64_t *const *chunk_edges;
    const size_t *chunk_edge_counts; /* ndim counts; read only where chunk_edges[d] is not NULL */
} zarr_array_desc;

#define ZARR_ARRAY_DESC_INIT { ZARR_ARRAY_DESC_VERSION, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL }

/**
 * Create an array from a description and open it read-write: the metadata
 * document zarr_create would take is built from desc (defaults in
 * docs/c-api.md: for v3 zarr-python 3's, bytes + zstd level 0 for numeric
 * types, vlen-utf8 for "string"; for v2 zarr-python 2's, Blosc lz4 level 5
 * with byte shuffle). On Zarr v2, dimension_names are written as xarray does,
 * as the attribute "_ARRAY_DIMENSIONS".
 *
 * @param out          receives the handle
 * @param url          where to create it (as zarr_open)
 * @param desc         the description (version ZARR_ARRAY_DESC_VERSION or older)
 * @param options_json as for zarr_create_ex (NULL or "" for none)
 * @return as zarr_create_ex; ZARR_ERR_INVALID_ARGUMENT naming the field of desc
 *         at fault (an unknown version, a NULL shape with ndim > 0, a zero chunk
 *         extent, a shard shape on Zarr v2 or not a multiple of the chunk shape
 *         (naming the axis), a NULL dimension name on Zarr v2, an order other
 *         than 'C' or 'F', compressor or fill_value that is not JSON;
 *         chunk_edges on Zarr v2, without chunk_edge_counts, with a count of
 *         0, an edge of 0, edges short of the extent or, sharded, not a
 *         multiple of the chunk extent, naming the axis and edge);
 *         ZARR_ERR_UNSUPPORTED for an unknown data type.
 */
ZARR_API int zarr_create_from_desc(zarr_array **out, const char *url, const zarr_array_desc *desc,
                                   const char *options_json);

/** zarr_create_from_desc at a path relative to a group (see zarr_group_create_array). */
ZARR_API int zarr_group_create_array_from_desc(zarr_array **out, zarr_group *group, const char *path,
                                               const zarr_array_desc *desc);

/**
 * How a data type is written in a metadata document of zarr_format 2 or 3, as
 * zarr_create_from_desc and zarr_migrate_v2_to_v3 write it (one mapping;
 * docs/dtypes.md has the table). For 3: {"data_type": ..., "serializer": ...},
 * the v3 data type and the array->bytes codec that stores it ("bytes" with
 * the byte order when the type has one, "vlen-utf8" for strings, "vlen-bytes"
 * for byte strings). For 2: {"dtype": ..., "object_codec": ... or null}, the
 * NumPy dtype and the object codec that is an object array's first filter.
 *
 * @param data_type    a v3 name ("int32", "string"), a NumPy typestr ("<U6",
 *                     "|S2", "<M8[s]"), or JSON text of either format's data
 *                     type member (zarr_data_type's result, a v2 field list, a
 *                     v3 {"name": ..., "configuration": ...} object)
 * @param object_codec for a v2 object ("|O") data type, its object codec's JSON
 *                     ({"id": "vlen-utf8"}); NULL or "" otherwise
 * @param json_out     receives the JSON object; release with zarr_free
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT for a NULL or malformed argument or
 *         a format other than 2 and 3; ZARR_ERR_UNSUPPORTED naming the type for an
 *         unknown type and for one the format cannot hold (in v3, structured
 *         types with a subarray field or fields in both byte orders, and the
 *         json2 object codec; "|O" without its object codec).
 */
ZARR_API int zarr_data_type_form(const char *data_type, const char *object_codec, int zarr_format, char **json_out);

/**
 * Close a handle and release its resources. NULL is fine.
 *
 * @return ZARR_OK, or, when this was the last handle on a store with pending
 *         work, what finishing it gave: ZARR_ERR_IO naming the zip archive that
 *         could not be written. The handle is released either way.
 */
ZARR_API int zarr_close(zarr_array *array);

/** Number of dimensions (0 for a 0-d array; 0 when array is NULL). */
ZARR_API size_t zarr_ndim(const zarr_array *array);

/** Write zarr_ndim(array) extents into shape. */
ZARR_API int zarr_shape(const zarr_array *array, uint64_t *shape);

/**
 * Write zarr_ndim(array) chunk extents into chunk_shape. For a rectilinear
 * chunk grid, whose chunks differ in shape, the largest extent of each axis
 * (zarr_chunk_boundaries gives every chunk's).
 */
ZARR_API int zarr_chunk_shape(const zarr_array *array, uint64_t *chunk_shape);

/**
 * The chunk boundaries along one axis, for any chunk grid (regular or
 * rectilinear): where each of the n chunks holding part of the axis begins,
 * then the axis' extent. Chunk i covers [out[i], out[i + 1]) of the array.
 *
 * @param array    open array handle
 * @param axis     below zarr_ndim(array)
 * @param out      capacity entries (may be NULL when capacity is 0)
 * @param capacity entries of out
 * @param count    set to n + 1, the entries needed, also when capacity is
 *                 too small (SIZE_MAX when that does not fit in a size_t)
 * @return ZARR_OK; ZARR_ERR_BUFFER_SIZE when capacity is below *count
 *         (nothing written: call with capacity 0 to size out);
 *         ZARR_ERR_INVALID_ARGUMENT for an axis out of range or a NULL count.
 */
ZARR_API int zarr_chunk_boundaries(const zarr_array *array, size_t axis, uint64_t *out, size_t capacity,
                                   size_t *count);

/**
 * Bytes per element in region buffers; 0 when array is NULL and for arrays of
 * variable-length elements (use zarr_read_region_vlen for those).
 */
ZARR_API size_t zarr_item_size(const zarr_array *array);

/**
 * Data type: the v3 name for simple types ("int16", "float64", "bool", "complex64",
 * and TensorStore's one-byte "int4" and "float8_e4m3fn"-style types, in v2 arrays too)
 * or the v2 dtype JSON otherwise ("\"<M8[ns]\"", "\"|S5\"", "[[\"a\",\"<i4\"]]").
 * Valid while the handle is open. NULL when array is NULL.
 */
ZARR_API const char *zarr_data_type(const zarr_array *array);

/** Zarr format of the stored metadata: 1, 2 or 3. */
ZARR_API int zarr_format(const zarr_array *array);

/**
 * Read a hyper-rectangular region into a caller-owned buffer.
 *
 * @param array  open array handle
 * @param ndim   must equal zarr_ndim(array)
 * @param start  ndim start coordinates, in elements (may be NULL when ndim is 0)
 * @param count  ndim extents, in elements
 * @param out    C-order destination, native byte order
 * @param nbytes size of out in bytes; must equal product(count) * zarr_item_size(array)
 * @return ZARR_OK or a negative ZARR_ERR_* code; details from zarr_last_error().
 *         Chunks never written read as the fill value (zeros when it is null).
 */
ZARR_API int zarr_read_region(zarr_array *array, size_t ndim, const uint64_t *start,
                              const uint64_t *count, void *out, size_t nbytes);

/**
 * Write a hyper-rectangular region from a caller-owned buffer. Chunks that end up
 * equal to the fill value everywhere are erased rather than stored (see
 * "write_empty_chunks"). Each chunk is written atomically.
 *
 * Parameters as zarr_read_region; data is C-order, native byte order.
 * @return ZARR_OK, ZARR_ERR_READ_ONLY for a handle opened "r", ZARR_ERR_OUT_OF_BOUNDS,
 *         ZARR_ERR_BUFFER_SIZE, ...
 */
ZARR_API int zarr_write_region(zarr_array *array, size_t ndim, const uint64_t *start,
                               const uint64_t *count, const void *data, size_t nbytes);

/**
 * Read a region into a buffer laid out by byte strides (Fortran column-major
 * arrays, sub-views). Element (i0, i1, ...) of the region goes to
 * (char *)out + sum(i_k * byte_strides[k]). Every element must lie within
 * [out, out + nbytes): out is element (0, 0, ...), so a negative stride is
 * refused (ZARR_ERR_BUFFER_SIZE) unless that dimension's count is 1.
 *
 * @param byte_strides ndim strides in bytes
 * @param nbytes       size of the buffer starting at out
 */
ZARR_API int zarr_read_region_strided(zarr_array *array, size_t ndim, const uint64_t *start,
                                      const uint64_t *count, const int64_t *byte_strides,
                                      void *out, size_t nbytes);

/**
 * Read a region of an array of variable-length elements (v3 "string" and
 * variable-length bytes; v2 object arrays with vlen-utf8, vlen-bytes or json2),
 * for which zarr_item_size() is 0. Element i of the region, in C order, is
 * data[offsets[i] .. offsets[i + 1]) (UTF-8 text for strings, not
 * NUL-terminated): one buffer for all elements, no per-element allocation.
 *
 * @param offsets    product(count) + 1 entries, written on success
 * @param n_offsets  must equal product(count) + 1
 * @param data       destination of the elements' bytes (may be NULL when capacity is 0)
 * @param capacity   size of data in bytes
 * @param data_size  set to the bytes the region's elements need, also on
 *                   ZARR_ERR_BUFFER_SIZE: call once with capacity 0 to size the buffer
 * Unwritten elements read as the fill value (v2 object arrays: "").
 */
ZARR_API int zarr_read_region_vlen(zarr_array *array, size_t ndim, const uint64_t *start,
                                   const uint64_t *count, uint64_t *offsets, size_t n_offsets,
                                   void *data, size_t capacity, size_t *data_size);

/**
 * Write a region of variable-length elements: element i (C order) is
 * data[offsets[i] .. offsets[i + 1]). offsets must not decrease and must stay
 * within data_size.
 */
ZARR_API int zarr_write_region_vlen(zarr_array *array, size_t ndim, const uint64_t *start,
                                    const uint64_t *count, const uint64_t *offsets, size_t n_offsets,
                                    const void *data, size_t data_size);

/** Write counterpart of zarr_read_region_strided. */
ZARR_API int zarr_write_region_strided(zarr_array *array, size_t ndim, const uint64_t *start,
                                       const uint64_t *count, const int64_t *byte_strides,
                                       const void *data, size_t nbytes);

/**
 * Read an orthogonal (outer) selection, as NumPy's and zarr-python's oindex:
 * along axis d, the indices indices[d][0 .. counts[d]-1], in any order,
 * repeats allowed. Element (i0, i1, ...) of the selection is the array's
 * element (indices[0][i0], indices[1][i1], ...). Each chunk the selection
 * touches is fetched and decoded at most once per call (of a sharded array,
 * only the inner chunks the chunk's picks span), chunks in parallel as for
 * zarr_read_region.
 *
 * @param array   open array handle (fixed-size elements)
 * @param ndim    must equal zarr_ndim(array)
 * @param indices ndim pointers to index lists (indices[d] may be NULL when counts[d] is 0)
 * @param counts  ndim list lengths
 * @param out     destination: counts[0] x ... x counts[ndim-1] elements in C order,
 *                native byte order
 * @param nbytes  size of out in bytes; must equal product(counts) * zarr_item_size(array)
 * @return ZARR_OK; ZARR_ERR_OUT_OF_BOUNDS naming the axis and the index outside the
 *         shape; ZARR_ERR_BUFFER_SIZE naming the size needed; ZARR_ERR_UNSUPPORTED for
 *         variable-length elements (use zarr_read_orthogonal_vlen); ... Chunks never
 *         written read as the fill value.
 */
ZARR_API int zarr_read_orthogonal(zarr_array *array, size_t ndim, const uint64_t *const *indices,
                                  const uint64_t *counts, void *out, size_t nbytes);

/**
 * Write an orthogonal selection (parameters as zarr_read_orthogonal; in holds the
 * selection's elements in C order). Each touched chunk is read (unless every element of
 * it is written), modified and written once, under its lock, as by zarr_write_region.
 * Where the same element is written twice in one call (a repeated index), the last
 * value in selection order (C order of the selection) wins. Nothing is written when an
 * argument is refused.
 */
ZARR_API int zarr_write_orthogonal(zarr_array *array, size_t ndim, const uint64_t *const *indices,
                                   const uint64_t *counts, const void *in, size_t nbytes);

/**
 * Read a point (coordinate) selection, as zarr-python's vindex with one index array
 * per axis: npoints points; coords holds npoints x ndim indices, point after point
 * (point p is (coords[p*ndim], ..., coords[p*ndim + ndim-1])). Each chunk the points
 * touch is fetched and decoded at most once per call, whatever the order of the points.
 *
 * @param coords  npoints x ndim indices (may be NULL when npoints or ndim is 0)
 * @param out     npoints elements, in the order of the points
 * @param nbytes  must equal npoints * zarr_item_size(array)
 * @return as zarr_read_orthogonal; ZARR_ERR_OUT_OF_BOUNDS names the point, axis and index.
 */
ZARR_API int zarr_read_points(zarr_array *array, size_t ndim, uint64_t npoints,
                              const uint64_t *coords, void *out, size_t nbytes);

/**
 * Write a point selection (parameters as zarr_read_points; in holds npoints elements in
 * the order of the points). Each touched chunk is read, modified and written once under
 * its lock. Where a point is given twice, the later one's value wins.
 */
ZARR_API int zarr_write_points(zarr_array *array, size_t ndim, uint64_t npoints,
                               const uint64_t *coords, const void *in, size_t nbytes);

/**
 * Read a strided hyperslab, as netCDF's nc_get_vars: count[d] elements along axis d,
 * starting at start[d], every step[d]-th (element i of axis d is start[d] + i * step[d]).
 * Each chunk touched is fetched and decoded at most once per call.
 *
 * @param start   ndim start coordinates
 * @param count   ndim element counts
 * @param step    ndim steps, each at least 1 (0 is ZARR_ERR_INVALID_ARGUMENT)
 * @param out     product(count) elements in C order
 * @param nbytes  must equal product(count) * zarr_item_size(array)
 * @return as zarr_read_orthogonal; ZARR_ERR_OUT_OF_BOUNDS names the axis and the last
 *         index, which must lie inside the shape (start + (count-1) * step, computed
 *         without wrapping).
 */
ZARR_API int zarr_read_region_step(zarr_array *array, size_t ndim, const uint64_t *start,
                                   const uint64_t *count, const uint64_t *step, void *out,
                                   size_t nbytes);

/**
 * Write a strided hyperslab (parameters as zarr_read_region_step; in holds product(count)
 * elements in C order), each touched chunk read, modified and written once under its lock.
 */
ZARR_API int zarr_write_region_step(zarr_array *array, size_t ndim, const uint64_t *start,
                                    const uint64_t *count, const uint64_t *step, const void *in,
                                    size_t nbytes);

/**
 * Read a region with every element converted to data_type, as netCDF's typed
 * reads (nc_get_vara_double) convert: between the numeric types bool, int4,
 * int8..int64, uint8..uint64, float16, bfloat16, float32, float64, the float8
 * types, complex64 and complex128, in any pair (the array's and the caller's).
 *  - Integers convert exactly within the target's range; bool holds 0 and 1.
 *  - Floats to integers truncate toward zero (-0.5 reads as 0, also into an
 *    unsigned type); NaN, infinities and values whose truncation lies outside
 *    the target's range are ZARR_ERR_RANGE.
 *  - To a float type values round to nearest (ties to even); a finite value
 *    that rounds beyond the target's largest finite value (1e39 to float32,
 *    70000 to float16) is ZARR_ERR_RANGE; NaN and infinities pass where the
 *    target has them (infinity into a float8 type without one is RANGE).
 *  - Real to complex gets an imaginary part of 0. Complex to real keeps the
 *    real part when the imaginary part is 0; a nonzero imaginary part is
 *    ZARR_ERR_RANGE (NumPy would drop it silently).
 * Chunks never written read as the fill value, converted as any element (a
 * NaN fill value read as an integer type is ZARR_ERR_RANGE).
 *
 * @param data_type the caller's element type: a Zarr v3 name ("float64",
 *                  "int16", "bool", "complex64", "bfloat16") or a NumPy typestr
 *                  in native byte order ("<f8", "|u1")
 * @param out       product(count) elements of data_type, C order, native byte order
 * @param nbytes    must equal product(count) * the size of data_type
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT naming an unknown data_type;
 *         ZARR_ERR_UNSUPPORTED naming both types when either is not numeric
 *         (strings, structured types, datetimes); ZARR_ERR_BUFFER_SIZE naming
 *         the size needed; ZARR_ERR_RANGE naming the first element (its index
 *         in the region, its coordinates and its value) that data_type cannot
 *         represent: out then holds the elements before it converted, the
 *         rest of out is unspecified. Otherwise as zarr_read_region.
 */
ZARR_API int zarr_read_region_as(zarr_array *array, size_t ndim, const uint64_t *start,
                                 const uint64_t *count, const char *data_type, void *out,
                                 size_t nbytes);

/**
 * Write a region from elements of data_type, each converted to the array's
 * type by the rules of zarr_read_region_as. Every element is converted before
 * any chunk is written: on ZARR_ERR_RANGE (naming the first element the
 * array's type cannot represent, e.g. 300 into uint8 or NaN into int32)
 * nothing is written.
 *
 * @param in      product(count) elements of data_type, C order, native byte order
 * @param nbytes  must equal product(count) * the size of data_type
 * @return as zarr_read_region_as, and as zarr_write_region.
 */
ZARR_API int zarr_write_region_as(zarr_array *array, size_t ndim, const uint64_t *start,
                                  const uint64_t *count, const char *data_type, const void *in,
                                  size_t nbytes);

/**
 * Read an orthogonal selection of an array of variable-length elements (parameters of
 * the selection as zarr_read_orthogonal; output as zarr_read_region_vlen): element i of
 * the selection, in C order of the selection, is data[offsets[i] .. offsets[i + 1]).
 * Each chunk the selection touches is fetched and decoded at most once per call (of a
 * sharded array, only the inner chunks the chunk's picks span), each held to the store
 * option "max_value_bytes" as by zarr_read_region_vlen. The _vlen write forms follow
 * (zarr_write_orthogonal_vlen, ...).
 *
 * @param offsets    product(counts) + 1 entries, written on success
 * @param n_offsets  must equal product(counts) + 1
 * @param data       destination of the elements' bytes (may be NULL when capacity is 0)
 * @param capacity   size of data in bytes
 * @param data_size  if not NULL, set to the bytes the elements need, also on
 *                   ZARR_ERR_BUFFER_SIZE (call with capacity 0 to learn the size)
 * @return ZARR_OK; ZARR_ERR_OUT_OF_BOUNDS naming the axis and the index outside the
 *         shape; ZARR_ERR_BUFFER_SIZE when n_offsets is not the selection's elements + 1
 *         (naming the count needed) or capacity is below the bytes needed (nothing
 *         written but *data_size); ZARR_ERR_INVALID_ARGUMENT for fixed-size elements
 *         (use zarr_read_orthogonal). Chunks never written read as the fill value.
 */
ZARR_API int zarr_read_orthogonal_vlen(zarr_array *array, size_t ndim,
                                       const uint64_t *const *indices, const uint64_t *counts,
                                       uint64_t *offsets, size_t n_offsets, void *data,
                                       size_t capacity, size_t *data_size);

/**
 * Read a point selection of an array of variable-length elements (points as
 * zarr_read_points; output and errors as zarr_read_orthogonal_vlen): element p, in the
 * order of the points, is data[offsets[p] .. offsets[p + 1]); n_offsets must equal
 * npoints + 1.
 */
ZARR_API int zarr_read_points_vlen(zarr_array *array, size_t ndim, uint64_t npoints,
                                   const uint64_t *coords, uint64_t *offsets, size_t n_offsets,
                                   void *data, size_t capacity, size_t *data_size);

/**
 * Read a strided hyperslab of an array of variable-length elements (start, count, step
 * as zarr_read_region_step; output and errors as zarr_read_orthogonal_vlen): n_offsets
 * must equal product(count) + 1.
 */
ZARR_API int zarr_read_region_step_vlen(zarr_array *array, size_t ndim, const uint64_t *start,
                                        const uint64_t *count, const uint64_t *step,
                                        uint64_t *offsets, size_t n_offsets, void *data,
                                        size_t capacity, size_t *data_size);

/**
 * Write an orthogonal selection of an array of variable-length elements (parameters of
 * the selection as zarr_write_orthogonal; elements as zarr_write_region_vlen takes them):
 * element i of the selection, in C order of the selection, is data[offsets[i] ..
 * offsets[i + 1]), bytes as they are (no UTF-8 check, as zarr_write_region_vlen).
 * Each touched chunk is read (unless every element of it is written), decoded, modified,
 * encoded and written once, under its lock, chunks in parallel; each chunk is written
 * whole or not at all. Where the same element is written twice in one call (a repeated
 * index), the last value in selection order wins. Nothing is written when an argument
 * is refused.
 *
 * @param offsets    product(counts) + 1 entries that do not decrease and stay within data_size
 * @param n_offsets  must equal product(counts) + 1
 * @param data       the elements' bytes (may be NULL when data_size is 0)
 * @param data_size  size of data in bytes
 * @return ZARR_OK; ZARR_ERR_READ_ONLY for a handle opened "r"; ZARR_ERR_OUT_OF_BOUNDS
 *         naming the axis and the index outside the shape; ZARR_ERR_BUFFER_SIZE when
 *         n_offsets is not the selection's elements + 1 (naming the count needed);
 *         ZARR_ERR_INVALID_ARGUMENT naming the first offset that decreases or passes
 *         data_size, or for fixed-size elements (use zarr_write_orthogonal).
 */
ZARR_API int zarr_write_orthogonal_vlen(zarr_array *array, size_t ndim,
                                        const uint64_t *const *indices, const uint64_t *counts,
                                        const uint64_t *offsets, size_t n_offsets, const void *data,
                                        size_t data_size);

/**
 * Write a point selection of an array of variable-length elements (points as
 * zarr_write_points; elements and errors as zarr_write_orthogonal_vlen): element p, in
 * the order of the points, is data[offsets[p] .. offsets[p + 1]); n_offsets must equal
 * npoints + 1. Where a point is given twice, the later one's value wins.
 */
ZARR_API int zarr_write_points_vlen(zarr_array *array, size_t ndim, uint64_t npoints,
                                    const uint64_t *coords, const uint64_t *offsets,
                                    size_t n_offsets, const void *data, size_t data_size);

/**
 * Write a strided hyperslab of an array of variable-length elements (start, count, step
 * as zarr_write_region_step; elements and errors as zarr_write_orthogonal_vlen):
 * n_offsets must equal product(count) + 1.
 */
ZARR_API int zarr_write_region_step_vlen(zarr_array *array, size_t ndim, const uint64_t *start,
                                         const uint64_t *count, const uint64_t *step,
                                         const uint64_t *offsets, size_t n_offsets,
                                         const void *data, size_t data_size);

/**
 * Change the array's shape. Chunks wholly outside the new shape are erased;
 * data inside it is kept. Needs a writable handle.
 */
ZARR_API int zarr_resize(zarr_array *array, size_t ndim, const uint64_t *shape);

/**
 * Grow the array along axis by count[axis] and write data (C-order, native byte
 * order, shape count) into the new part. count must equal the array's shape on
 * every other axis.
 */
ZARR_API int zarr_append(zarr_array *array, size_t axis, size_t ndim, const uint64_t *count,
                         const void *data, size_t nbytes);

/** The stored metadata document (.zarray or zarr.json) as JSON. Free with zarr_free. */
ZARR_API int zarr_get_metadata(const zarr_array *array, char **json_out);

/**
 * What zarr-python's `info` reports, as a JSON object (free with zarr_free):
 * "node_type" ("array"), "zarr_format", "data_type", "shape", "chunks" (for a
 * sharded array the inner chunks), "shards" (the shard shape, or null),
 * "codecs" (v3: the codecs list; v2: {"order", "filters", "compressor"}),
 * "fill_value", "dimension_names", "attributes", "nbytes" (logical bytes; null
 * for variable-length elements), "nbytes_stored" (every key of the array,
 * metadata included) and "chunks_initialized" (chunk keys present; both null
 * on stores that cannot list, such as HTTP), "chunks_total", "store", "path",
 * "chunk_store" (null, or where the chunks are when opened with the
 * "chunk_store" option), "cache_pool" (null, or {"total_bytes_limit",
 * "bytes_used", "chunks_held"}
 * of the handle's cache of decoded chunks). Members may be added in later versions. It lists the array's keys: on
 * remote stores that is one listing, plus a read per key where sizes are not
 * listed.
 */
ZARR_API int zarr_info(const zarr_array *array, char **json_out);

/**
 * The array's stored keys, sorted out, as a JSON object (free with zarr_free):
 * {"chunks": [[0, 0], [0, 1], ...], "stray_keys": ["notes.txt", ...]}.
 * "chunks" are the grid indices of the chunks (shards, for a sharded array)
 * that are stored, in the store's key order; "stray_keys" every other key
 * under the array that is not its metadata: chunk keys outside the grid (left
 * by a shrink), foreign files. A chunk not listed reads as the fill value.
 * ZARR_ERR_UNSUPPORTED on stores that cannot list their keys (HTTP).
 */
ZARR_API int zarr_stored_chunks(const zarr_array *array, char **json_out);

/**
 * The v3 dimension_names as a JSON list of strings and nulls, one per dimension,
 * or "null" when the array has none. On v1 and v2 arrays: xarray's attribute
 * _ARRAY_DIMENSIONS when it is a list of one string per dimension, else "null".
 * Free with zarr_free.
 */
ZARR_API int zarr_get_dimension_names(const zarr_array *array, char **json_out);

/** The array's attributes as a JSON object ("{}" when none). Free with zarr_free. */
ZARR_API int zarr_get_attributes(const zarr_array *array, char **json_out);

/** Replace the array's attributes with a JSON object. Needs a writable handle. */
ZARR_API int zarr_set_attributes(zarr_array *array, const char *json);

/**
 * Raw fill value: zarr_item_size(array) bytes in native byte order into out.
 * A handle zarr_open_spec opened with a "field" gives the field's bytes of the
 * record fill value instead: every element of the field's subarray, C order
 * (zarr_item_size(array) times the subarray's element count).
 * @param is_null set to 1 when the metadata's fill_value is null (out then zeroed)
 */
ZARR_API int zarr_fill_value(const zarr_array *array, void *out, size_t nbytes, int *is_null);

/**
 * Migrate a legacy Zarr v1 array (keys "meta" and "attrs") to Zarr v2 in place:
 * writes .zarray and .zattrs and removes meta and attrs. Chunk keys are the same
 * in both versions, so no chunk is touched.
 * @return ZARR_ERR_NOT_FOUND when url holds no v1 array.
 */
ZARR_API int zarr_migrate_v1_to_v2(const char *url);

/**
 * Convert a Zarr v2 array, or a v2 group and everything below it, to Zarr v3 in
 * place, as `zarr migrate v3` does: each node gets a zarr.json (chunk key
 * encoding "v2", so every chunk keeps its key and bytes; attributes move inside)
 * and loses its .zarray/.zgroup/.zattrs. Every node is checked before anything
 * is written: one that v3 cannot express (structured data types, json2 object
 * arrays) is ZARR_ERR_UNSUPPORTED naming it, and nothing changes. A node
 * below a v2 group is ZARR_ERR_INVALID_ARGUMENT (one hierarchy has one format:
 * migrate from the root group). A group with consolidated metadata (.zmetadata)
 * has it in the v3 form afterwards (its zarr.json's consolidated_metadata).
 */
ZARR_API int zarr_migrate_v2_to_v3(const char *url);

/* ---------------------------------------------------------------------------
 * Groups
 * ------------------------------------------------------------------------- */

/** Open an existing group ("r" or "r+"). ZARR_ERR_NOT_FOUND when none is there. */
ZARR_API int zarr_group_open(zarr_group **out, const char *url, const char *mode);

/**
 * zarr_group_open with options, a JSON object (NULL or "" for none):
 *   "consolidated": true    take every metadata document of the hierarchy from its
 *                           consolidated metadata (.zmetadata, or the v3 root's
 *                           "consolidated_metadata"), never listing the store;
 *                           ZARR_ERR_NOT_FOUND when there is none; mode "r" only
 *   "consolidated": false   ignore consolidated metadata
 *   "process_lock_dir": "path"  attribute changes (zarr_group_set_attributes,
 *                           zarr_group_update_attributes) also hold an flock(2) on
 *                           <path>/<attributes key>.lock, as zarr_open_ex's option;
 *                           groups opened or created through the handle inherit it
 *   "store": {...}          options of the store the URL names (see zarr_open_ex)
 * Without "consolidated", a group opened "r" uses consolidated metadata when present
 * (as zarr-python 3 does); "r+" never does.
 */
ZARR_API int zarr_group_open_ex(zarr_group **out, const char *url, const char *mode,
                                const char *options_json);

/**
 * Erase the array or group at url and everything below it (chunks, children,
 * attributes), as zarr-python's rmdir. ZARR_ERR_NOT_FOUND when no array or
 * group is at url (nothing is erased then); ZARR_ERR_READ_ONLY on stores that
 * cannot erase (HTTP, an existing zip archive). options_json: the store options
 * of zarr_open_ex (may be NULL). Handles open on the erased node must not be
 * used afterwards. Consolidated metadata above the node loses its entries
 * (docs/c-api.md#consolidated-metadata).
 */
ZARR_API int zarr_erase(const char *url, const char *options_json);

/** Zarr format of a group's metadata: 2 or 3 (0 when group is NULL). */
ZARR_API int zarr_group_format(const zarr_group *group);

/**
 * Record the metadata of every node below the group at url in one place, as
 * zarr-python's consolidate_metadata does: v2 groups get a .zmetadata key, v3
 * groups a "consolidated_metadata" member in their zarr.json. libzarr's own
 * changes keep it in step afterwards (docs/c-api.md#consolidated-metadata); run
 * it again after another writer changed the hierarchy.
 */
ZARR_API int zarr_consolidate_metadata(const char *url);

/**
 * Create a group (and missing parent groups in an enclosing hierarchy) and open it
 * read-write. attributes_json may be NULL. ZARR_ERR_EXISTS when a node is there.
 * Its format is that of the nearest enclosing group, else Zarr v3 (a new root), as
 * in zarr-python 3; zarr_group_create_ex chooses it.
 */
ZARR_API int zarr_group_create(zarr_group **out, const char *url, const char *attributes_json);

/**
 * zarr_group_create with options, a JSON object (NULL or "" for none):
 *   "zarr_format": 2 or 3   the format of the new group and of the missing parent
 *                           groups created with it (default: the enclosing
 *                           group's, else 3); another format than an enclosing
 *                           group's is ZARR_ERR_INVALID_ARGUMENT
 *   "store": {...}          options of the store the URL names (see zarr_open_ex)
 * Arrays and groups created below a group take its format.
 */
ZARR_API int zarr_group_create_ex(zarr_group **out, const char *url, const char *attributes_json,
                                  const char *options_json);

/** Close a group handle. NULL is fine. Returns as zarr_close does. */
ZARR_API int zarr_group_close(zarr_group *group);

/**
 * List the group's direct children, sorted by name, as JSON:
 * [{"name": "a", "kind": "array"}, {"name": "g", "kind": "group"}]. Free with zarr_free.
 */
ZARR_API int zarr_group_list(zarr_group *group, char **json_out);

/**
 * Number of direct children; lists them afresh (sorted by name) into the group's
 * listing, which zarr_group_child indexes into until the next call.
 */
ZARR_API int zarr_group_child_count(zarr_group *group, size_t *count);

/**
 * Name and kind (ZARR_NODE_ARRAY or ZARR_NODE_GROUP) of child i of the last listing.
 * *name stays valid until the next listing or close.
 */
ZARR_API int zarr_group_child(zarr_group *group, size_t i, const char **name, int *kind);

/** Open the array at a path relative to the group ("a", "sub/b"). */
ZARR_API int zarr_group_open_array(zarr_array **out, zarr_group *group, const char *path,
                                   const char *mode);

/** Create an array at a relative path, with parent groups as needed (see zarr_create). */
ZARR_API int zarr_group_create_array(zarr_array **out, zarr_group *group, const char *path,
                                     const char *metadata_json);

/** Open the group at a relative path. The handle inherits the parent's mode. */
ZARR_API int zarr_group_open_group(zarr_group **out, zarr_group *group, const char *path);

/** Create a group at a relative path, with parent groups as needed. */
ZARR_API int zarr_group_create_group(zarr_group **out, zarr_group *group, const char *path,
                                     const char *attributes_json);

/** The group's attributes as a JSON object. Free with zarr_free. */
ZARR_API int zarr_group_get_attributes(const zarr_group *group, char **json_out);

/** Replace the group's attributes with a JSON object. Needs a writable handle. */
ZARR_API int zarr_group_set_attributes(zarr_group *group, const char *json);

/* ---------------------------------------------------------------------------
 * Attributes by key (arrays and groups)
 *
 * The get calls read the attributes as zarr_get_attributes and
 * zarr_group_get_attributes do: as this handle read them (once per handle, as
 * zarr-python's cached attributes) or as its last change wrote them. The
 * update calls read the attributes as stored, not this handle's copy, merge,
 * and write back, all under the node's lock: a mutex shared by every handle of
 * the process on that store and node and, with the "process_lock_dir" option,
 * a lock file, so writers of different keys lose nothing of each other's
 * (docs/reliability.md). zarr_set_attributes and zarr_group_set_attributes take
 * the same lock. v2 attributes live in .zattrs, v3 attributes in the
 * "attributes" member of zarr.json (the rest of it written back unchanged).
 * Consolidated metadata above the node is kept in step.
 * ------------------------------------------------------------------------- */

/**
 * The JSON value of one attribute. Free with zarr_free.
 *
 * @param key  the attribute's name; NULL or "" is ZARR_ERR_INVALID_ARGUMENT
 * @return ZARR_OK, or ZARR_ERR_NOT_FOUND naming the key when there is no such attribute.
 */
ZARR_API int zarr_get_attribute(const zarr_array *array, const char *key, char **json_out);
/** zarr_get_attribute for a group. */
ZARR_API int zarr_group_get_attribute(const zarr_group *group, const char *key, char **json_out);

/**
 * Merge a JSON object into the stored attributes: each member replaces the
 * attribute of its name, a member whose value is null removes it, other
 * attributes are kept. Needs a writable handle (else ZARR_ERR_READ_ONLY).
 *
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT when json_object is NULL, is JSON but
 *         not an object (the message says what it is) or has a member name holding
 *         a NUL byte ("\u0000"); ZARR_ERR_INVALID_METADATA when it is not JSON, or
 *         when the stored attributes are not an object (naming the key);
 *         ZARR_ERR_UNSUPPORTED for a v3 array opened with assumed metadata.
 */
ZARR_API int zarr_update_attributes(zarr_array *array, const char *json_object);
/** zarr_update_attributes for a group. */
ZARR_API int zarr_group_update_attributes(zarr_group *group, const char *json_object);

/* ---------------------------------------------------------------------------
 * Codecs on plain buffers (as numcodecs offers them). See docs/codecs.md.
 * ------------------------------------------------------------------------- */

/**
 * Create a codec from its configuration: the v2 (numcodecs) form
 * {"id": "zstd", "level": 3} or the v3 form {"name": "zstd", "configuration":
 * {"level": 3, "checksum": false}} (also "numcodecs.<id>" names). Every
 * bytes->bytes codec works (compressors, checksums, codecs plugins registered),
 * and the numcodecs filters whose configuration names their dtype (delta,
 * fixedscaleoffset, quantize, astype, categorize, packbits, shuffle with its
 * elementsize). blosc's typesize is 1 unless the v3 form gives "typesize".
 *
 * @return ZARR_OK; ZARR_ERR_INVALID_ARGUMENT for a NULL argument or JSON that
 *         is not a codec configuration; ZARR_ERR_INVALID_METADATA naming the
 *         codec and field for a bad parameter; ZARR_ERR_UNSUPPORTED for an
 *         unknown codec (after trying ZARR_PLUGIN_PATH) or one that needs an
 *         array (bytes, transpose, sharding_indexed, vlen-*, json2, bitround).
 * A codec handle may be used by several threads at once.
 */
ZARR_API int zarr_codec_create(zarr_codec **out, const char *config_json);

/**
 * Encode nbytes at in. *out receives a new buffer (free with zarr_free) of
 * *out_nbytes bytes; on failure *out is NULL and *out_nbytes 0.
 */
ZARR_API int zarr_codec_encode(zarr_codec *codec, const void *in, size_t nbytes, void **out,
                               size_t *out_nbytes);

/**
 * Decode nbytes at in, as zarr_codec_encode. Corrupt or truncated input is
 * ZARR_ERR_CODEC naming the codec; nothing is allocated then.
 */
ZARR_API int zarr_codec_decode(zarr_codec *codec, const void *in, size_t nbytes, void **out,
                               size_t *out_nbytes);

/**
 * The codec's complete configuration in the v2 form with defaults filled in,
 * as numcodecs' get_config() gives it. Free with zarr_free.
 */
ZARR_API int zarr_codec_config(const zarr_codec *codec, char **json_out);

/** Free a codec handle. NULL is fine. Buffers it returned stay valid. */
ZARR_API void zarr_codec_free(zarr_codec *codec);

#ifdef __cplusplus
}
#endif

#endif /* ZARR_ZARR_H */
