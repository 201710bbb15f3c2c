// Making and closing the handles of the C API (array/array_handle.h).
#include "array/array_handle.h"

#include <exception>

#include "array/array.h"
#include "array/field_array.h"
#include "stores/store.h"

namespace zarr {

std::unique_ptr<ArrayHandle> make_handle(std::unique_ptr<Array> array) { return array; }

std::unique_ptr<ArrayHandle> make_handle(std::unique_ptr<Array> array, std::unique_ptr<FieldArray> field) {
  if (!field) return array;
  field->keep_records(std::move(array));
  return field;
}

void close_handle(std::unique_ptr<ArrayHandle> handle) {
  std::shared_ptr<Store> store = handle->array().store();
  std::shared_ptr<Store> chunk_store = handle->array().chunk_store();
  handle.reset();
  // Both stores are released (a zip archive is written then) even when
  // the first fails; the first failure is reported.
  // (release_store flushes a store once its last user lets go: no copy
  // of it may stay here.)
  std::exception_ptr chunk_store_failure;
  if (chunk_store == store) chunk_store.reset();
  if (chunk_store) {
    try {
      release_store(std::move(chunk_store));
    } catch (...) {
      chunk_store_failure = std::current_exception();
    }
  }
  release_store(std::move(store));
  if (chunk_store_failure) std::rethrow_exception(chunk_store_failure);
}

}  // namespace zarr
