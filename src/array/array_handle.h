// What a handle of the C API (zarr_array) shows: a whole array (Array), or
// one field of a structured array's records (FieldArray, zarr_open_spec's
// "field"). Both kinds implement this one interface, so the C layer only
// checks arguments and translates errors. One virtual call per region call,
// none per chunk or element.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "dtype/data_type.h"

namespace zarr {

class Array;
class FieldArray;

// A selection other than a box, as the C API describes it (zarr.h):
// orthogonal indices (indices[d][0 .. counts[d] - 1] along axis d), a
// strided hyperslab (start, count, step) or points (npoints x ndim coords).
// The pointers are the caller's, valid for the call.
struct SelectionRequest {
  enum class Kind { Orthogonal, Step, Points };
  Kind kind = Kind::Orthogonal;
  const char* function = "";  // the C function, for messages
  std::vector<const uint64_t*> indices;  // Orthogonal
  std::vector<uint64_t> counts;          // Orthogonal
  std::vector<uint64_t> start, count, step;  // Step
  uint64_t npoints = 0;                      // Points
  const uint64_t* coords = nullptr;          // Points
};

class ArrayHandle {
 public:
  virtual ~ArrayHandle() = default;

  virtual size_t ndim() const = 0;
  virtual std::vector<uint64_t> shape() const = 0;
  virtual std::vector<uint64_t> chunks() const = 0;
  // Bytes per element in region buffers; 0 for variable-length elements.
  virtual size_t item_size() const = 0;
  // v3 name of simple types, else the v2 dtype JSON.
  virtual const std::string& data_type_name() const = 0;
  // The element type; region buffers hold it in native byte order.
  virtual const DataType& data_type() const = 0;
  // What the handle shows, for messages: "array '/a' in file:///d", or
  // "field 'x' of array ...".
  virtual std::string description() const = 0;

  // Region I/O over ndim() dimensions (array/array.h): `strides` are the
  // buffer's byte strides, nullptr for a C-order contiguous buffer of
  // exactly the region's size.
  virtual void read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                           size_t nbytes, const int64_t* strides) = 0;
  virtual void write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                            const void* data, size_t nbytes, const int64_t* strides) = 0;
  // Variable-length elements and append: ZARR_ERR_UNSUPPORTED on a field.
  virtual void read_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                uint64_t* offsets, size_t n_offsets, uint8_t* data, size_t capacity,
                                size_t* data_size) = 0;
  virtual void write_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                 const uint64_t* offsets, size_t n_offsets, const uint8_t* data,
                                 size_t data_size) = 0;
  // Selections (array/array.h): the buffer holds the selection's elements
  // in C order of the selection (points: in point order), exactly.
  virtual void read_selection(const SelectionRequest& request, void* out, size_t nbytes) = 0;
  virtual void write_selection(const SelectionRequest& request, const void* data, size_t nbytes) = 0;
  // A selection's variable-length elements, as read_region_vlen and
  // write_region_vlen (ZARR_ERR_UNSUPPORTED on a field).
  virtual void read_selection_vlen(const SelectionRequest& request, uint64_t* offsets, size_t n_offsets,
                                   uint8_t* data, size_t capacity, size_t* data_size) = 0;
  virtual void write_selection_vlen(const SelectionRequest& request, const uint64_t* offsets, size_t n_offsets,
                                    const uint8_t* data, size_t data_size) = 0;
  virtual void resize(const std::vector<uint64_t>& new_shape) = 0;
  virtual void append(size_t axis, const std::vector<uint64_t>& count, const void* data, size_t nbytes) = 0;

  // The fill value of one element, for a caller's buffer of `nbytes`
  // (ZARR_ERR_BUFFER_SIZE naming the size it takes when they differ);
  // *is_null: the metadata's fill value is null (the bytes are zeros then).
  virtual Bytes fill_value(size_t nbytes, bool* is_null) const = 0;

  // The stored array behind the handle (the records of a field): its
  // metadata, attributes, info and stores.
  virtual Array& array() = 0;
  virtual const Array& array() const = 0;
};

// The handle of an opened array: `field` when given (a view of `array`'s
// records, which it then owns), else `array`.
std::unique_ptr<ArrayHandle> make_handle(std::unique_ptr<Array> array);
std::unique_ptr<ArrayHandle> make_handle(std::unique_ptr<Array> array, std::unique_ptr<FieldArray> field);

// zarr_close: the handle goes, then its stores are released (a zip archive
// is written then), the chunk store too when apart, even when the first
// release fails; the first failure is thrown.
void close_handle(std::unique_ptr<ArrayHandle> handle);

}  // namespace zarr
