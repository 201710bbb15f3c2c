#include "array_spec.h"

#include <algorithm>
#include <utility>

#include "base/text.h"
#include "cli_common.h"

namespace zarrtool {
namespace {

// The data type's members in the document's format (zarr_data_type_form).
rapidjson::Document data_type_form(const ArraySpec& spec) {
  char* form = nullptr;
  check(zarr_data_type_form(spec.data_type.c_str(), spec.object_codec_json.c_str(), spec.zarr_format, &form),
        "cannot write it as Zarr v" + std::to_string(spec.zarr_format));
  return parse_json(take_json(form), "the data type's form");
}

bool is_json_array(const std::string& json) {
  return json.find_first_not_of(" \t\r\n") != std::string::npos && json[json.find_first_not_of(" \t\r\n")] == '[';
}

// --codec for v3: a list is the whole codec chain; an object is a compressor
// placed after the serializer (bytes, or vlen-* for variable-length types).
std::string v3_codec_chain(const std::string& codec_json, const std::string& serializer) {
  if (codec_json.empty()) return "[" + serializer + "]";
  parse_json(codec_json, "--codec");
  if (is_json_array(codec_json)) return codec_json;
  return "[" + serializer + "," + codec_json + "]";
}

std::string v3_document(const ArraySpec& spec) {
  const std::vector<uint64_t>& grid = spec.shards.empty() ? spec.chunks : spec.shards;
  const bool rectilinear = !spec.chunk_grid_json.empty();
  if (rectilinear && !spec.shards.empty()) usage_error("--shards and --chunk-edges: give the shards' edges in --chunk-edges");
  const bool sharded = !spec.shards.empty() || (rectilinear && !spec.chunks.empty());
  const rapidjson::Document form = data_type_form(spec);
  const std::string serializer = to_json(form["serializer"]);
  std::string doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":" + zarr::list_text(spec.shape, ",") +
                    ",\"data_type\":" + to_json(form["data_type"]);
  if (rectilinear) {
    doc += ",\"chunk_grid\":" + spec.chunk_grid_json;
  } else if (!grid.empty()) {
    doc += ",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + zarr::list_text(grid, ",") + "}}";
  }
  if (sharded) {
    if (spec.chunks.empty()) usage_error("--shards needs --chunks (the inner chunk shape)");
    doc += ",\"codecs\":[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":" +
           zarr::list_text(spec.chunks, ",") + ",\"codecs\":" + v3_codec_chain(spec.codec_json, serializer) + "}}]";
  } else if (!spec.codec_json.empty() || serializer.find("\"vlen-") != std::string::npos ||
             serializer.find("\"big\"") != std::string::npos) {
    // Without --codec the library's default chain, which stores fixed-size
    // types in little endian only: a variable-length type names its
    // serializer, and so does a big-endian one ('>i4').
    doc += ",\"codecs\":" + v3_codec_chain(spec.codec_json, serializer);
  }
  if (!spec.fill_value_json.empty()) doc += ",\"fill_value\":" + spec.fill_value_json;
  if (!spec.attributes_json.empty()) doc += ",\"attributes\":" + spec.attributes_json;
  if (!spec.dimension_names_json.empty() && spec.dimension_names_json != "null") {
    doc += ",\"dimension_names\":" + spec.dimension_names_json;
  }
  return doc + "}";
}

std::string v2_document(const ArraySpec& spec) {
  if (!spec.shards.empty()) usage_error("--shards needs --format 3: Zarr v2 has no sharding");
  if (!spec.chunk_grid_json.empty()) usage_error("--chunk-edges needs --format 3: Zarr v2 has regular chunks only");
  const rapidjson::Document form = data_type_form(spec);
  std::string doc = "{\"zarr_format\":2,\"shape\":" + zarr::list_text(spec.shape, ",") +
                    ",\"dtype\":" + to_json(form["dtype"]);
  if (!form["object_codec"].IsNull()) doc += ",\"filters\":[" + to_json(form["object_codec"]) + "]";
  if (!spec.chunks.empty()) doc += ",\"chunks\":" + zarr::list_text(spec.chunks, ",");
  if (!spec.codec_json.empty()) {
    parse_json(spec.codec_json, "--codec");
    if (is_json_array(spec.codec_json)) usage_error("--codec for --format 2 is one compressor object or null");
    doc += ",\"compressor\":" + spec.codec_json;
  }
  if (!spec.fill_value_json.empty()) doc += ",\"fill_value\":" + spec.fill_value_json;
  return doc + "}";
}

}  // namespace

namespace {

// One --chunk-edges item: N, or NxC as the run [N, C].
std::string edge_item_json(const std::string& item, const std::string& entry) {
  const size_t x = item.find('x');
  const std::string size = item.substr(0, x);
  std::vector<uint64_t> parts = parse_extents(size, "--chunk-edges " + entry);
  if (x != std::string::npos) {
    const std::vector<uint64_t> count = parse_extents(item.substr(x + 1), "--chunk-edges " + entry);
    parts.insert(parts.end(), count.begin(), count.end());
  }
  for (uint64_t v : parts) {
    if (v == 0) usage_error("--chunk-edges " + entry + ": edge lengths and counts must be at least 1, got '" + item + "'");
  }
  if (parts.size() == 1) return std::to_string(parts[0]);
  return "[" + std::to_string(parts[0]) + "," + std::to_string(parts[1]) + "]";
}

}  // namespace

std::string chunk_edges_grid_json(const std::string& text, size_t ndim) {
  std::vector<std::string> entries;
  for (size_t at = 0;;) {
    const size_t semi = text.find(';', at);
    entries.push_back(text.substr(at, semi == std::string::npos ? std::string::npos : semi - at));
    if (semi == std::string::npos) break;
    at = semi + 1;
  }
  if (entries.size() != ndim) {
    usage_error("--chunk-edges gives " + std::to_string(entries.size()) + " axes (separated by ';') for " +
                std::to_string(ndim) + " dimensions");
  }
  std::string shapes;
  for (size_t d = 0; d < ndim; ++d) {
    const std::string entry = "axis " + std::to_string(d);
    const std::string& axis = entries[d];
    std::string items;
    size_t n = 0;
    for (size_t at = 0;; ++n) {
      const size_t comma = axis.find(',', at);
      const std::string item = axis.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      if (item.empty() || item.find_first_not_of("0123456789x") != std::string::npos ||
          std::count(item.begin(), item.end(), 'x') > 1) {
        usage_error("--chunk-edges " + entry + ": items are N or NxC (C edges of N), got '" + axis + "'");
      }
      items += (n ? "," : "") + edge_item_json(item, entry);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    // A lone integer is the integer form (a regular step); anything else a list.
    const bool lone_integer = n == 0 && axis.find('x') == std::string::npos;
    shapes += (d ? "," : "") + (lone_integer ? items : "[" + items + "]");
  }
  return R"({"name":"rectilinear","configuration":{"kind":"inline","chunk_shapes":[)" + shapes + "]}}";
}

namespace {

// NumPy's one-letter type codes (numpy.dtype(code).str on a 64-bit Linux).
const std::pair<const char*, const char*> kTypeCodes[] = {
    {"?", "|b1"}, {"b", "|i1"}, {"B", "|u1"}, {"h", "<i2"}, {"H", "<u2"}, {"i", "<i4"}, {"I", "<u4"},
    {"l", "<i8"}, {"L", "<u8"}, {"q", "<i8"}, {"Q", "<u8"}, {"e", "<f2"}, {"f", "<f4"}, {"d", "<f8"},
    {"F", "<c8"}, {"D", "<c16"}};

// Python's type names as numpy.dtype reads them ("str" as zarr-python 2
// stores it: variable-length UTF-8).
const std::pair<const char*, const char*> kPythonNames[] = {
    {"str", "string"}, {"int", "<i8"}, {"float", "<f8"}, {"complex", "<c16"}};

// A typestr's kind letter and its byte order when none is written: "|" for
// one byte wide and byte strings, "<" otherwise.
char default_order(char kind, const std::string& size) {
  if (kind == 'S' || kind == 'V' || kind == 'a') return '|';
  if ((kind == 'i' || kind == 'u' || kind == 'b') && size == "1") return '|';
  return '<';
}

// Each field type of a v2 field list ([["a", "i4"], ["b", "f8", [2]]])
// spelled as numpy_style_dtype spells it, nested lists too. False when
// `fields` is no field list; a nested one that is not stays as given.
bool spell_field_types(rapidjson::Value& fields, rapidjson::Document::AllocatorType& allocator) {
  if (!fields.IsArray()) return false;
  for (auto& field : fields.GetArray()) {
    if (!field.IsArray() || field.Size() < 2) return false;
    rapidjson::Value& type = field[1];
    if (type.IsString()) {
      const std::string spelled = numpy_style_dtype(type.GetString());
      type.SetString(spelled.c_str(), static_cast<rapidjson::SizeType>(spelled.size()), allocator);
    } else if (type.IsArray()) {
      rapidjson::Value nested(type, allocator);
      if (spell_field_types(nested, allocator)) type.Swap(nested);
    }
  }
  return true;
}

// A v2 field list with its types spelled by spell_field_types; other text
// as it is.
std::string numpy_style_fields(const std::string& text) {
  rapidjson::Document fields;
  fields.Parse(text.c_str(), text.size());
  if (fields.HasParseError() || !spell_field_types(fields, fields.GetAllocator())) return text;
  return to_json(fields);
}

}  // namespace

std::string numpy_style_dtype(const std::string& text) {
  if (!text.empty() && text[0] == '[') return numpy_style_fields(text);
  for (const auto& [code, typestr] : kTypeCodes) {
    if (text == code) return typestr;
  }
  for (const auto& [name, spelling] : kPythonNames) {
    if (text == name) return spelling;
  }
  for (const auto& [name, kind] : {std::pair<const char*, const char*>{"datetime64[", "M8["}, {"timedelta64[", "m8["}}) {
    if (text.rfind(name, 0) == 0) return std::string("<") + kind + text.substr(std::string(name).size());
  }
  if (text.empty()) return text;
  const std::string body = text[0] == '=' ? text.substr(1) : text;
  if (body.empty() || std::string("iufcbUSVMm").find(body[0]) == std::string::npos) return text;
  const bool time = body[0] == 'M' || body[0] == 'm';
  const std::string size = body.substr(1, time ? body.find('[') - 1 : std::string::npos);
  if (size.empty() || size.find_first_not_of("0123456789") != std::string::npos) return text;
  if (time && (size != "8" || body.back() != ']')) return text;
  return default_order(body[0], size) + body;
}

std::string fill_value_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  return doc.HasParseError() ? json_string(text) : text;
}

std::string metadata_document(const ArraySpec& spec) {
  if (spec.zarr_format == 3) return v3_document(spec);
  if (spec.zarr_format == 2) return v2_document(spec);
  usage_error("--format must be 2 or 3");
}

}  // namespace zarrtool
