#include "metadata/v2_metadata.h"


#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "codecs/array_codecs.h"
#include "codecs/vlen_codecs.h"
#include "zarr_config.h"

namespace zarr {

namespace {

// zarr-python's default compressor (Blosc lz4, level 5, byte shuffle), used
// when a document given to zarr_create leaves "compressor" out. Builds
// without blosc default to no compressor.
const char* default_compressor_json() {
#if ZARR_HAVE_BLOSC
  return R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0})";
#else
  return "null";
#endif
}

std::shared_ptr<const BytesCodec> parse_compressor(const rapidjson::Value& v, const ChunkRepr& repr,
                                                   const std::string& where) {
  if (v.IsNull()) return nullptr;
  if (!v.IsObject()) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'compressor' must be an object or null");
  try {
    return make_bytes_codec(v, repr);
  } catch (const Error& e) {
    fail(e.code(), where + ": field 'compressor': " + e.what());
  }
}

std::vector<std::shared_ptr<const BytesCodec>> parse_filters(const rapidjson::Value& v, rapidjson::SizeType skip,
                                                             const ChunkRepr& repr, const std::string& where) {
  std::vector<std::shared_ptr<const BytesCodec>> filters;
  if (v.IsNull()) return filters;
  if (!v.IsArray()) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'filters' must be a list or null");
  for (rapidjson::SizeType i = skip; i < v.Size(); ++i) {
    const std::string field = where + ": field 'filters' item " + std::to_string(i);
    if (!v[i].IsObject()) fail(ZARR_ERR_INVALID_METADATA, field + " must be an object");
    try {
      filters.push_back(make_bytes_codec(v[i], repr));
    } catch (const Error& e) {
      fail(e.code(), field + ": " + e.what());
    }
  }
  return filters;
}

char parse_choice(const rapidjson::Value* v, const char* field, const std::string& allowed, char dflt,
                  const std::string& where) {
  if (!v || v->IsNull()) return dflt;
  std::string s = json::get_string(*v, field, where);
  if (s.size() != 1 || allowed.find(s[0]) == std::string::npos) {
    std::string options;
    for (char c : allowed) options += std::string(options.empty() ? "" : " or ") + "\"" + c + "\"";
    fail(ZARR_ERR_INVALID_METADATA,
         where + ": field '" + field + "' must be " + options + ", got " + json::quote(s));
  }
  return s[0];
}

// v2 as a codec chain: "order" F is a transpose, the dtype's byte order the
// bytes codec, then the filters and the compressor.
CodecChain v2_codec_chain(const ArrayMetadata& meta) {
  std::vector<std::shared_ptr<const ArrayToArrayCodec>> layout;
  if (meta.order == 'F' && meta.ndim() > 1) layout.push_back(make_transpose_codec(fortran_order(meta.ndim()), meta.ndim()));
  std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes = meta.v2_filters;
  if (meta.v2_compressor) bytes_to_bytes.push_back(meta.v2_compressor);
  std::shared_ptr<const ArrayToBytesCodec> elements;
  if (!meta.v2_object_codec.empty()) {
    rapidjson::Document codec = json::parse(meta.v2_object_codec, "object codec");
    std::string id = json::text(codec["id"]);
    elements = id == "json2" ? vlen::make_json2_codec(codec) : vlen::make_vlen_codec(id);
  } else {
    elements = make_bytes_layout_codec(meta.dtype, std::nullopt);
  }
  return CodecChain(layout, elements, bytes_to_bytes, meta.chunk_repr());
}

// An object array's elements are stored by its first filter, the object
// codec, which becomes the chain's array->bytes codec. Returns how many
// entries of the filter list it took (0 or 1).
rapidjson::SizeType take_object_codec(ArrayMetadata& meta, const rapidjson::Value& filters, const std::string& where) {
  if (meta.dtype.kind() != DTypeKind::Object) return 0;
  const rapidjson::Value* first = filters.IsArray() && !filters.Empty() ? &filters[0] : nullptr;
  const rapidjson::Value* id = first ? json::find(*first, "id") : nullptr;
  const std::string name = id && id->IsString() ? json::text(*id) : "";
  if (!vlen::is_object_codec(name)) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": field 'filters': object arrays (\"|O\") need an object codec "
                                       "(vlen-utf8, vlen-bytes or json2) as their first filter" +
                                       (name.empty() ? std::string() : ", not '" + name + "'"));
  }
  if (meta.order == 'F' && meta.ndim() > 1) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": object arrays in order \"F\" are not supported");
  }
  meta.v2_object_codec = json::to_string(*first);
  return 1;
}

// The compressor and filters (zarr-python 2's defaults when the create form
// gives none), and the chain they make.
void parse_codecs(const rapidjson::Value& doc, ArrayMetadata& meta, bool defaults, const std::string& where) {
  // Filters such as bitround see the chunk as numpy would: an array of the dtype.
  std::string typestr = meta.dtype.fields().empty() ? meta.dtype.to_v2_json() : "";
  if (typestr.size() >= 2 && typestr.front() == '"') typestr = typestr.substr(1, typestr.size() - 2);
  ChunkRepr repr{meta.dtype.item_size(), meta.chunk_bytes(), typestr};
  rapidjson::Document default_compressor;
  const rapidjson::Value* compressor = json::find(doc, "compressor");
  if (!compressor) {
    if (!defaults) json::require(doc, "compressor", where);
    default_compressor.Parse(default_compressor_json());
    compressor = &default_compressor;
  }
  const rapidjson::Value* filters = json::find(doc, "filters");
  // A compressor with no filter before it receives the chunk itself, as an
  // array of the chunk's shape in zarr-python (zfpy compresses that shape).
  ChunkRepr compressor_repr = repr;
  const bool unfiltered = !filters || filters->IsNull() || (filters->IsArray() && filters->Empty());
  if (unfiltered && (meta.order == 'C' || meta.ndim() <= 1)) compressor_repr.shape = meta.chunks;
  meta.v2_compressor = parse_compressor(*compressor, compressor_repr, where);
  if (!filters && !defaults) json::require(doc, "filters", where);
  if (filters) meta.v2_filters = parse_filters(*filters, take_object_codec(meta, *filters, where), repr, where);
  if (!filters) take_object_codec(meta, rapidjson::Value(rapidjson::kArrayType), where);
  meta.codecs = v2_codec_chain(meta);
}

// Shared by the stored and the create forms: `defaults` says whether a
// missing field takes zarr-python's default or is an error.
ArrayMetadata parse_v2(const std::string& text, const std::string& where, bool defaults) {
  rapidjson::Document doc = json::parse_object(text, where);
  ArrayMetadata meta;

  const rapidjson::Value* format = json::find(doc, "zarr_format");
  if (format || !defaults) {
    int64_t f = json::get_int(json::require(doc, "zarr_format", where), "zarr_format", where);
    if (f != 2) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'zarr_format' must be 2, got " + std::to_string(f));
    }
  }
  meta.zarr_format = 2;
  meta.shape = json::get_uint_list(json::require(doc, "shape", where), "shape", where);
  meta.dtype = DataType::parse_v2(json::require(doc, "dtype", where), where + ": field 'dtype'");
  if (meta.dtype.contains_object() && meta.dtype.kind() != DTypeKind::Object) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": field 'dtype': structured types with object fields are not supported");
  }

  const rapidjson::Value* chunks = json::find(doc, "chunks");
  if (chunks || !defaults) {
    meta.chunks = json::get_uint_list(json::require(doc, "chunks", where), "chunks", where);
  } else {
    meta.chunks = meta.shape;
    for (auto& c : meta.chunks) c = c ? c : 1;  // a zero-length axis still needs a positive chunk
  }
  validate_layout(meta, where);

  const rapidjson::Value* order = json::find(doc, "order");
  if (!order && !defaults) json::require(doc, "order", where);
  meta.order = parse_choice(order, "order", "CF", 'C', where);
  meta.key_encoding = {ChunkKeyEncoding::Kind::V2, parse_choice(json::find(doc, "dimension_separator"),
                                                                "dimension_separator", "./", '.', where)};

  const rapidjson::Value* fill = json::find(doc, "fill_value");
  if (fill) {
    meta.fill_value = meta.dtype.parse_fill_value_v2(*fill, where + ": field 'fill_value'");
  } else if (defaults) {
    // zarr-python 2 defaults to 0; object items have no byte form (as with an
    // explicit fill value, unwritten elements read as empty).
    if (meta.dtype.kind() != DTypeKind::Object) meta.fill_value = Bytes(meta.dtype.item_size(), 0);
  } else {
    json::require(doc, "fill_value", where);
  }

  parse_codecs(doc, meta, defaults, where);  // last: they need the chunk's shape and type
  // Only a document given to zarr_create carries the .zattrs to write with it.
  const rapidjson::Value* attributes = defaults ? json::find(doc, "attributes") : nullptr;
  if (attributes) {
    if (!attributes->IsObject()) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'attributes' must be an object");
    meta.attributes_json = json::to_string(*attributes);
  }
  return meta;
}

}  // namespace

ArrayMetadata parse_v2_array_metadata(const std::string& text, const std::string& where) {
  return parse_v2(text, where, false);
}

ArrayMetadata parse_v2_array_metadata_for_create(const std::string& text, const std::string& where) {
  return parse_v2(text, where, true);
}

std::string serialize_v2_array_metadata(const ArrayMetadata& meta) {
  std::string filters = "null";
  if (!meta.v2_filters.empty() || !meta.v2_object_codec.empty()) {
    filters = "[" + meta.v2_object_codec;
    for (const auto& f : meta.v2_filters) filters += (filters.size() > 1 ? "," : "") + f->config_json();
    filters += "]";
  }
  std::string compact = "{\"chunks\":" + list_text(meta.chunks) +
                        ",\"compressor\":" + (meta.v2_compressor ? meta.v2_compressor->config_json() : "null") +
                        ",\"dtype\":" + meta.dtype.to_v2_json() +
                        ",\"fill_value\":" + meta.dtype.fill_value_to_v2_json(meta.fill_value) +
                        ",\"filters\":" + filters + ",\"order\":" + json::quote(std::string(1, meta.order)) +
                        ",\"shape\":" + list_text(meta.shape) + ",\"zarr_format\":2";
  // zarr-python writes the separator only when it is not the default ".".
  if (meta.key_encoding.separator != '.') {
    compact += ",\"dimension_separator\":" + json::quote(std::string(1, meta.key_encoding.separator));
  }
  rapidjson::Document doc = json::parse(compact + "}", ".zarray");
  json::sort_keys(doc);  // byte-identical to zarr-python's json.dumps(sort_keys=True, indent=4)
  return json::to_pretty_string(doc);
}

std::string v2_group_document() { return "{\n    \"zarr_format\": 2\n}"; }

void validate_v2_group_metadata(const std::string& text, const std::string& where) {
  rapidjson::Document doc = json::parse_object(text, where);
  int64_t f = json::get_int(json::require(doc, "zarr_format", where), "zarr_format", where);
  if (f != 2) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'zarr_format' must be 2, got " + std::to_string(f));
}

}  // namespace zarr
