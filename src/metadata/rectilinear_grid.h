// The zarr-extensions "rectilinear" chunk grid in zarr.json
// (specs/zarr-extensions/chunk-grids/rectilinear): its configuration read
// into one AxisEdges per dimension, and written back.
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "grid/axis_edges.h"

namespace zarr {

// `configuration` is {"kind": "inline", "chunk_shapes": [...]}, one entry
// per dimension of `shape`: a positive integer (a regular step), or a list
// of positive integers (edge lengths) and [value, count] pairs (runs), whose
// edges reach the extent. ZARR_ERR_INVALID_METADATA naming `fw` and the
// item at fault; another kind is ZARR_ERR_UNSUPPORTED.
std::vector<AxisEdges> parse_rectilinear_grid(const rapidjson::Value* configuration, const std::vector<uint64_t>& shape,
                                              const std::string& fw);

// The chunk_grid object as compact JSON: each axis as it was read (an
// integer, or its runs with count 1 written as bare edge lengths).
std::string rectilinear_grid_json(const std::vector<AxisEdges>& axes);

}  // namespace zarr
