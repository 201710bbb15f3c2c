#include "guard.h"

extern "C" {

ZARR_API const char* zarr_version_string(void) { return ZARR_VERSION_STRING; }

ZARR_API unsigned zarr_version_number(void) { return ZARR_VERSION_NUMBER; }

}  // extern "C"
