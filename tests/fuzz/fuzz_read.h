// Shared by the C API fuzz targets: read a small corner of an opened array
// (what a user's first read does), bounded so a huge declared shape or item
// size costs nothing, and the scratch file path of this process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "zarr/zarr.h"

namespace fuzz {

// Reads up to 4 elements per dimension from the origin; errors are ignored
// (they are the expected outcome of most inputs).
void read_corner(zarr_array* array);

// /dev/shm/libzarr-fuzz-<pid>-<name>: one per process, rewritten per input,
// removed when the process exits.
std::string scratch_path(const std::string& name);
void write_file(const std::string& path, const uint8_t* data, size_t size);

}  // namespace fuzz
