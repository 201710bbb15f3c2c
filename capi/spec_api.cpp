// zarr_open_spec: TensorStore zarr driver specs (the mapping lives in spec/spec.cpp).
#include "array/field_array.h"
#include "guard.h"
#include "spec/spec.h"

using zarr::capi::guarded;
using zarr::capi::require;

extern "C" {

ZARR_API int zarr_open_spec(zarr_array** out, const char* spec_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    zarr::SpecArray opened = zarr::open_spec(require(spec_json, "spec_json"));
    *out = new zarr_array{zarr::make_handle(std::move(opened.array), std::move(opened.field)), {}};
  });
}

}  // extern "C"
