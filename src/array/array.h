// An open array: metadata plus the store it lives in. Reads and writes of
// regions go grid -> store -> codec chain -> caller's buffer.
//
// Thread safety: any number of threads may read and write regions at once.
// Writes to one chunk are serialised by a per-chunk lock (read-modify-write
// under the lock) shared by every handle of the process on that store, so
// even overlapping regions written through separate handles never lose data. Resize and
// attribute changes take the handle's lock exclusively, and then the lock of
// the node's attributes (shared by every handle on the store, see
// metadata/node_attributes.h).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "array/array_handle.h"
#include "array/array_options.h"
#include "metadata/array_metadata.h"
#include "metadata/node_attributes.h"
#include "stores/store.h"

namespace zarr {

class ChunkEngine;
class Selection;

// The Zarr format a metadata document given to zarr_create describes: 3 when
// it says zarr_format 3 or uses v3 member names (data_type, node_type), else 2.
int metadata_document_format(const std::string& metadata_json, const std::string& where);

class Array final : public ArrayHandle {
 public:
  ~Array() override;
  static std::unique_ptr<Array> open(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                     const ArrayOptions& options);
  static std::unique_ptr<Array> create(std::shared_ptr<Store> store, const std::string& path,
                                       const std::string& metadata_json, const ArrayOptions& options);
  // TensorStore's assume_metadata (zarr_open_spec): the array `metadata_json`
  // describes, completed with zarr_create's defaults, neither read from nor
  // written to the store (which need not hold it). Changes of the stored
  // metadata (resize, append, v3 attributes) are then ZARR_ERR_UNSUPPORTED
  // naming `reason`, since they would overwrite a document never read.
  static std::unique_ptr<Array> assume(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                       const std::string& metadata_json, const ArrayOptions& options,
                                       const std::string& reason);

  // The handle's interface (array/array_handle.h).
  size_t ndim() const override { return meta_.ndim(); }
  std::vector<uint64_t> shape() const override;
  std::vector<uint64_t> chunks() const override { return meta_.chunks; }
  size_t item_size() const override;
  const std::string& data_type_name() const override { return data_type_name_; }
  const DataType& data_type() const override { return meta_.dtype; }
  std::string description() const override;
  Bytes fill_value(size_t nbytes, bool* is_null) const override;
  Array& array() override { return *this; }
  const Array& array() const override { return *this; }

  int zarr_format() const { return meta_.zarr_format; }
  const ArrayMetadata& metadata() const { return meta_; }
  const std::shared_ptr<Store>& store() const { return store_; }
  const std::string& path() const { return path_; }  // the node's, in store()
  // Where the chunks are: store() unless opened with "chunk_store".
  const std::shared_ptr<Store>& chunk_store() const;

  // Region I/O. `strides` are the buffer's byte strides (nullptr: C-order
  // contiguous, and then nbytes must equal the region's byte size exactly).
  void read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                   size_t nbytes, const int64_t* strides) override;
  void write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const void* data,
                    size_t nbytes, const int64_t* strides) override;

  // Variable-length elements (strings, bytes): element i of the region (C
  // order) is data[offsets[i], offsets[i + 1]); offsets has product(count)+1
  // entries. Reading sets *data_size to the bytes needed and fails with
  // ZARR_ERR_BUFFER_SIZE when capacity is smaller (nothing else is written).
  void read_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, uint64_t* offsets,
                        size_t n_offsets, uint8_t* data, size_t capacity, size_t* data_size) override;
  void write_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                         const uint64_t* offsets, size_t n_offsets, const uint8_t* data, size_t data_size) override;

  // Orthogonal, strided and point selections (array/engine/selection.h):
  // an index outside the shape is ZARR_ERR_OUT_OF_BOUNDS naming the axis
  // and the index, a buffer of another size than the selection's
  // ZARR_ERR_BUFFER_SIZE naming the size needed; each chunk touched is
  // read (and written) once. Variable-length elements: ZARR_ERR_UNSUPPORTED.
  void read_selection(const SelectionRequest& request, void* out, size_t nbytes) override;
  void write_selection(const SelectionRequest& request, const void* data, size_t nbytes) override;
  // Variable-length elements of a selection, as read_region_vlen gives a
  // region's; fixed-size elements: ZARR_ERR_INVALID_ARGUMENT.
  void read_selection_vlen(const SelectionRequest& request, uint64_t* offsets, size_t n_offsets, uint8_t* data,
                           size_t capacity, size_t* data_size) override;
  // And written, as write_region_vlen writes a region's: element i of the
  // selection is data[offsets[i], offsets[i + 1]); a repeated element keeps
  // the later value.
  void write_selection_vlen(const SelectionRequest& request, const uint64_t* offsets, size_t n_offsets,
                            const uint8_t* data, size_t data_size) override;

  void resize(const std::vector<uint64_t>& new_shape) override;
  void append(size_t axis, const std::vector<uint64_t>& count, const void* data, size_t nbytes) override;

  std::string metadata_json() const;
  // The metadata document of a new array like this one (zarr_create_like):
  // this array's metadata without its attributes (a v1 array's in v2 form),
  // with each member of `overrides_json` (an object, may be "") replacing
  // the member of that name (array/array_like.cpp).
  std::string metadata_like(const std::string& overrides_json) const;
  // What zarr-python's `info` prints, as a JSON object: zarr_format,
  // data_type, shape, chunks, shards (null unless sharded), codecs,
  // fill_value, dimension_names, attributes, nbytes, nbytes_stored and
  // chunks_initialized (null on stores that cannot list), chunks_total,
  // store, path, chunk_store (null unless apart), cache_pool (null, or its limit, bytes used and chunks
  // held) (array/array_info.cpp).
  std::string info_json() const;
  // The stored keys under the array, sorted out: {"chunks": [[grid index],
  // ...]} for chunk keys inside the grid, "stray_keys" for every other key
  // that is not the array's metadata (chunk keys outside the grid, foreign
  // files). ZARR_ERR_UNSUPPORTED on stores that cannot list (array/array_info.cpp).
  std::string stored_chunks_json() const;
  // zarr_chunk_boundaries (include/zarr/zarr.h): the n chunk starts along
  // `axis` and its extent into out, *count = n + 1 (array/array_info.cpp).
  void chunk_boundaries(size_t axis, uint64_t* out, size_t capacity, size_t* count) const;
  // v3 dimension_names: empty when absent; an entry is nullopt when null.
  // v1/v2: xarray's attribute _ARRAY_DIMENSIONS when it is a list of ndim
  // strings, else empty.
  std::vector<std::optional<std::string>> dimension_names() const;
  // The attributes as this handle read them (once, or as its last change
  // wrote them), and one attribute's JSON value from them (ZARR_ERR_NOT_FOUND
  // naming the key when absent).
  std::string attributes_json() const;
  std::string attribute(const std::string& key) const;
  // Read-modify-writes of the stored attributes under the node's lock
  // (metadata/node_attributes.h): every attribute replaced, or the members
  // of a JSON object merged in (a null member removes its key).
  void set_attributes(const std::string& json);
  void update_attributes(const std::string& json_object);

 private:
  Array(std::shared_ptr<Store> store, std::string path, bool writable, ArrayOptions options,
        ArrayMetadata meta);

  void require_writable(const char* operation) const;
  void check_bounds(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) const;
  // ZARR_ERR_INVALID_ARGUMENT unless a rectilinear grid's edges reach
  // new_shape (array_resize.cpp).
  void check_grid_reaches(const std::vector<uint64_t>& new_shape) const;
  // A region validated against the shape, and the caller's buffer against it.
  struct CheckedRegion {
    std::vector<int64_t> strides;  // the buffer's byte strides
    uint64_t bytes;                // the region's elements times the item size
  };
  // The selection a request describes, checked against the shape (and its
  // size against the buffer's nbytes); under the shape lock.
  std::unique_ptr<Selection> checked_selection(const SelectionRequest& request, size_t nbytes) const;
  // The same for a variable-length read, its offsets' n_offsets against it.
  std::unique_ptr<Selection> checked_vlen_selection(const SelectionRequest& request, size_t n_offsets) const;
  // The caller's variable-length elements (n of them, element i is
  // data[offsets[i], offsets[i + 1])), ZARR_ERR_INVALID_ARGUMENT unless the
  // offsets rise inside data; and a checked selection of them written, a
  // failed allocation naming `count` (array/array_vlen.cpp).
  static std::vector<std::string_view> element_views(const std::string& where, const uint64_t* offsets, uint64_t n,
                                                     const uint8_t* data, size_t data_size);
  void write_vlen(const Selection& selection, const std::string& where, const uint64_t* offsets,
                  const uint8_t* data, size_t data_size, const std::vector<uint64_t>& count);
  // The selection a request describes, of item_size-byte elements, checked against the shape.
  std::unique_ptr<Selection> built_selection(const SelectionRequest& request, size_t item_size,
                                             const std::string& where) const;
  CheckedRegion check_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, size_t nbytes,
                             const int64_t* strides) const;
  // Runs a region read or write (`body`); a failed allocation becomes
  // ZARR_ERR_NO_MEMORY naming the array, the region and the chunk size.
  template <typename Body>
  void naming_out_of_memory(const char* operation, const std::vector<uint64_t>& count, Body&& body) const {
    try {
      body();
    } catch (const std::bad_alloc&) {
      fail_out_of_memory(operation, count);
    }
  }
  [[noreturn]] void fail_out_of_memory(const char* operation, const std::vector<uint64_t>& count) const;
  std::string serialized_metadata() const;
  // ZARR_ERR_UNSUPPORTED when the metadata was assumed (assume()), not read.
  void require_metadata_read() const;
  // The metadata document as meta_ holds it (a new array's).
  void write_metadata_document();
  // A changed document of an existing array (resize): a v3 zarr.json keeps
  // the stored attributes, under their lock.
  void write_metadata();
  AttributesNode attributes_node() const;
  void change_attributes(const AttributesChange& change);

  std::shared_ptr<Store> store_;  // the metadata's
  std::string path_;
  bool writable_;
  ArrayOptions options_;
  ArrayMetadata meta_;
  std::string data_type_name_;
  std::string legacy_metadata_;  // the "meta" document of a v1 array
  mutable std::shared_mutex shape_mutex_;   // shared for region I/O, exclusive for resize
  // v1/v2 attributes (.zattrs, attrs) as first read: like the metadata, they
  // are read once per handle (v3 keeps them in meta_).
  mutable std::mutex attributes_mutex_;
  mutable std::optional<std::string> attributes_;
  // The read/write engine over meta_ and the chunk store
  // (array/engine/chunk_engine.h).
  std::unique_ptr<ChunkEngine> engine_;
  // Set by assume(): why the stored metadata must not be written.
  std::optional<std::string> metadata_assumed_;
};

}  // namespace zarr
