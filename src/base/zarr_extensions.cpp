#include "base/zarr_extensions.h"

#include <algorithm>

namespace zarr {

namespace {

// As the registry's folders list them (specs/zarr-extensions, main branch).
const std::vector<std::string> kDataTypes = {
    "bfloat16", "bool", "bytes", "complex128", "complex64", "complex_bfloat16", "complex_float16",
    "complex_float32", "complex_float4_e2m1fn", "complex_float64", "complex_float6_e2m3fn",
    "complex_float6_e3m2fn", "complex_float8_e3m4", "complex_float8_e4m3", "complex_float8_e4m3b11fnuz",
    "complex_float8_e4m3fnuz", "complex_float8_e5m2", "complex_float8_e5m2fnuz", "complex_float8_e8m0fnu",
    "fixed_length_utf32", "float16", "float32", "float4_e2m1fn", "float64", "float6_e2m3fn", "float6_e3m2fn",
    "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
    "float8_e8m0fnu", "int16", "int2", "int32", "int4", "int64", "int8", "numpy.datetime64",
    "numpy.timedelta64", "r", "string", "struct", "structured", "uint16", "uint2", "uint32", "uint4",
    "uint64", "uint8"};
const std::vector<std::string> kCodecs = {
    "bitround", "blosc", "bytes", "cast_value", "conditional", "crc32c", "gzip", "n5_default", "packbits",
    "reshape", "scale_offset", "sharding_indexed", "transpose", "vlen-bytes", "vlen-utf8", "zfp", "zstd"};
const std::vector<std::string> kChunkGrids = {"rectilinear", "regular"};
const std::vector<std::string> kChunkKeyEncodings = {"default", "v2"};
const std::vector<std::string> kStorageTransformers = {};

}  // namespace

const char* extension_point_noun(ExtensionPoint point) {
  switch (point) {
    case ExtensionPoint::DataType: return "data type";
    case ExtensionPoint::Codec: return "codec";
    case ExtensionPoint::ChunkGrid: return "chunk grid";
    case ExtensionPoint::ChunkKeyEncoding: return "chunk key encoding";
    case ExtensionPoint::StorageTransformer: break;
  }
  return "storage transformer";
}

const char* extension_point_folder(ExtensionPoint point) {
  switch (point) {
    case ExtensionPoint::DataType: return "data-types";
    case ExtensionPoint::Codec: return "codecs";
    case ExtensionPoint::ChunkGrid: return "chunk-grids";
    case ExtensionPoint::ChunkKeyEncoding: return "chunk-key-encodings";
    case ExtensionPoint::StorageTransformer: break;
  }
  return "storage-transformers";
}

const std::vector<std::string>& registered_extension_names(ExtensionPoint point) {
  switch (point) {
    case ExtensionPoint::DataType: return kDataTypes;
    case ExtensionPoint::Codec: return kCodecs;
    case ExtensionPoint::ChunkGrid: return kChunkGrids;
    case ExtensionPoint::ChunkKeyEncoding: return kChunkKeyEncodings;
    case ExtensionPoint::StorageTransformer: break;
  }
  return kStorageTransformers;
}

std::string registered_but_unimplemented_note(ExtensionPoint point, const std::string& name) {
  // The registry's "r" folder is the family r8, r16, ...; a bare "r" is no type.
  if (point == ExtensionPoint::DataType && name == "r") return "";
  const std::vector<std::string>& names = registered_extension_names(point);
  if (std::find(names.begin(), names.end(), name) == names.end()) return "";
  return "; '" + name + "' is a " + extension_point_noun(point) +
         " of the zarr-extensions registry that libzarr does not implement yet";
}

}  // namespace zarr
