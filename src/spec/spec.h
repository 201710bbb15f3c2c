// TensorStore's zarr / zarr3 driver specs (the JSON objects ts.open takes),
// mapped onto libzarr's own opening and creating (docs/spec.md).
#pragma once

#include <memory>
#include <string>

#include "array/array.h"
#include "array/field_array.h"

namespace zarr {

// Open, create, or assume the array a spec describes:
//  - "driver" "zarr" (Zarr v2) or "zarr3" (Zarr v3); "kvstore" a URL in
//    libzarr's syntax or a TensorStore kvstore object, joined with "path";
//  - "open" / "create" / "delete_existing" / "assume_metadata" choose what
//    happens, with TensorStore's rules on which go together;
//  - "metadata", "dtype", "rank" and "schema" are constraints: checked against
//    the stored metadata when opening, completed with defaults when creating.
// Errors name the member at fault: ZARR_ERR_INVALID_ARGUMENT for malformed or
// unknown members and forbidden combinations, ZARR_ERR_UNSUPPORTED for
// members libzarr does not have, ZARR_ERR_INVALID_METADATA for a constraint
// the stored metadata contradicts, ZARR_ERR_NOT_FOUND / ZARR_ERR_EXISTS as
// zarr_open / zarr_create give them.
struct SpecArray {
  std::unique_ptr<Array> array;
  std::unique_ptr<FieldArray> field;  // the spec's "field" of array's records; null without one
};
SpecArray open_spec(const std::string& spec_json);

}  // namespace zarr
