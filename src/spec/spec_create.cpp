// The spec front end, part 3: the .zarray / zarr.json document of a new (or
// assumed) array, completed from the spec's constraints and TensorStore's
// defaults.
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "grid/chunk_shape.h"
#include "spec/spec_request.h"

namespace zarr::spec_detail {
namespace {

std::string v2_dtype_for(const std::string& tensorstore_dtype, const std::string& member) {
  // TensorStore's names are v3's data type names (bfloat16 and the float8
  // types included), which parse_v3 knows.
  rapidjson::Value name(tensorstore_dtype.c_str(), static_cast<rapidjson::SizeType>(tensorstore_dtype.size()));
  try {
    return DataType::parse_v3(name, member).to_v2_json();
  } catch (const Error&) {
    unsupported("'" + member + "' \"" + tensorstore_dtype + "\" is not a data type libzarr has");
  }
}

// -1 full extent, 0 chosen, as choose_chunk_shape takes them; inner_order
// -> v2 "order" ("C" for [0, 1, ...], "F" for [..., 1, 0]).
std::optional<std::string> order_for(const std::optional<std::vector<int64_t>>& inner_order) {
  if (!inner_order || inner_order->empty()) return std::nullopt;
  const size_t n = inner_order->size();
  bool c = true, f = true;
  for (size_t i = 0; i < n; ++i) {
    c = c && (*inner_order)[i] == static_cast<int64_t>(i);
    f = f && (*inner_order)[i] == static_cast<int64_t>(n - 1 - i);
  }
  if (c) return std::string("C");
  if (f) return std::string("F");
  unsupported("'schema.chunk_layout.inner_order': zarr v2 stores chunks in C or F order only");
}

void add(rapidjson::Document& doc, const char* name, Value value) {
  doc.AddMember(Value(name, doc.GetAllocator()), value, doc.GetAllocator());
}

Value uint_list(const std::vector<uint64_t>& values, rapidjson::Document& doc, const char* what) {
  rapidjson::Document parsed = json::parse(list_text(values), what);
  return Value(parsed, doc.GetAllocator());
}

// The shape: the metadata's own, or the schema's domain. With a field, the
// schema describes the field's view (the array's dimensions and the
// subarray's): the records' shape and type come from the metadata alone, and
// the view is checked once the array exists.
std::vector<uint64_t> creation_shape(const SpecRequest& spec, rapidjson::Document& doc) {
  const bool field = spec.field.has_value();
  const std::string dtype_key = spec.zarr_format == 3 ? "data_type" : "dtype";
  if (field && !(doc.HasMember("shape") && doc.HasMember(dtype_key.c_str()))) {
    invalid("creating an array with 'field' needs 'metadata.shape' and 'metadata." + dtype_key + "' (the records)");
  }
  std::vector<uint64_t> shape;
  if (doc.HasMember("shape")) {
    shape = domain_bounds(doc["shape"], "metadata.shape");
    if (!field && spec.shape && *spec.shape != shape) {
      invalid("'metadata.shape' is " + list_text(shape) + " but '" + spec.shape_member + "' is " +
              list_text(*spec.shape));
    }
  } else if (spec.shape) {
    shape = *spec.shape;
    add(doc, "shape", uint_list(shape, doc, "shape"));
  } else {
    invalid("creating an array needs a shape: 'metadata.shape', 'schema.domain' or 'schema.shape'");
  }
  if (!field && spec.rank && *spec.rank != shape.size()) {
    invalid("'" + spec.rank_member + "' is " + std::to_string(*spec.rank) + " but the shape has " +
            std::to_string(shape.size()) + " dimensions");
  }
  return shape;
}

// The data type: the metadata's own, or the TensorStore name in host order.
DataType creation_dtype(const SpecRequest& spec, rapidjson::Document& doc) {
  const bool v3 = spec.zarr_format == 3;
  const char* dtype_key = v3 ? "data_type" : "dtype";
  if (!doc.HasMember(dtype_key)) {
    if (!spec.dtype) invalid(std::string("creating an array needs a data type: 'metadata.") + dtype_key +
                             "', 'dtype' or 'schema.dtype'");
    if (v3) {
      add(doc, "data_type", Value(spec.dtype->c_str(), doc.GetAllocator()));
    } else {
      rapidjson::Document parsed = json::parse(v2_dtype_for(*spec.dtype, spec.dtype_member), "dtype");
      add(doc, "dtype", Value(parsed, doc.GetAllocator()));
    }
  }
  const std::string dtype_member = std::string("metadata.") + dtype_key;
  const DataType type = v3 ? DataType::parse_v3(doc[dtype_key], dtype_member) : DataType::parse_v2(doc[dtype_key], dtype_member);
  if (!spec.field && spec.dtype && spec.metadata.HasMember(dtype_key)) {
    std::optional<std::string> name = tensorstore_name(type);
    if (!name || *name != *spec.dtype) invalid("'" + dtype_member + "' and '" + spec.dtype_member + "' differ");
  }
  return type;
}

// The fill value (TensorStore's default for new zarr arrays: null) and the
// v2 order from the chunk layout's inner_order.
void add_fill_value_and_order(const SpecRequest& spec, rapidjson::Document& doc) {
  const bool v3 = spec.zarr_format == 3;
  if (spec.has_fill_value) {
    if (doc.HasMember("fill_value")) {
      if (!satisfies(doc["fill_value"], spec.fill_value)) invalid("'metadata.fill_value' and 'schema.fill_value' differ");
    } else {
      add(doc, "fill_value", Value(spec.fill_value, doc.GetAllocator()));
    }
  } else if (!v3 && !doc.HasMember("fill_value")) {
    add(doc, "fill_value", Value(rapidjson::kNullType));
  }
  if (!v3) {
    std::optional<std::string> order = order_for(spec.chunk_layout.inner_order);
    if (order && !doc.HasMember("order")) add(doc, "order", Value(order->c_str(), doc.GetAllocator()));
  } else if (order_for(spec.chunk_layout.inner_order).value_or("C") != "C") {
    unsupported("'schema.chunk_layout.inner_order' other than C order for zarr3 (give a transpose codec)");
  }
}

// The chunk shape chosen from the chunk layout.
std::vector<uint64_t> chosen_chunks(const SpecRequest& spec, const std::vector<uint64_t>& shape, size_t item_size) {
  ChunkShapeConstraints constraints;
  constraints.shape = spec.chunk_layout.shape.empty() ? spec.chunk_layout.soft_shape : spec.chunk_layout.shape;
  constraints.aspect_ratio = spec.chunk_layout.aspect_ratio;
  constraints.elements = spec.chunk_layout.elements;
  if (spec.field) {
    // The view's trailing subarray dimensions are never chunked: keep the
    // records' part of the layout.
    auto records_part = [&](auto& v) {
      if (v.size() > shape.size()) v.resize(shape.size());
    };
    records_part(constraints.shape);
    records_part(constraints.aspect_ratio);
  }
  return choose_chunk_shape(shape, item_size, constraints);
}

// The chunk shape: given in the metadata, else chosen from the chunk layout.
void add_chunks(const SpecRequest& spec, rapidjson::Document& doc, const std::vector<uint64_t>& shape,
                size_t item_size) {
  const bool v3 = spec.zarr_format == 3;
  if (!v3 && doc.HasMember("chunks")) {
    resolve_full_extent_chunks(doc["chunks"], shape);
    return;
  }
  if (doc.HasMember(v3 ? "chunk_grid" : "chunks")) return;
  Value chunks = uint_list(chosen_chunks(spec, shape, item_size), doc, "chunks");
  if (!v3) {
    add(doc, "chunks", std::move(chunks));
    return;
  }
  auto& alloc = doc.GetAllocator();
  Value configuration(rapidjson::kObjectType);
  configuration.AddMember("chunk_shape", chunks, alloc);
  Value grid(rapidjson::kObjectType);
  grid.AddMember("name", "regular", alloc);
  grid.AddMember("configuration", configuration, alloc);
  add(doc, "chunk_grid", std::move(grid));
}

}  // namespace

std::string creation_document(const SpecRequest& spec) {
  rapidjson::Document doc;
  doc.CopyFrom(spec.metadata, doc.GetAllocator());
  const std::vector<uint64_t> shape = creation_shape(spec, doc);
  const DataType type = creation_dtype(spec, doc);
  add_fill_value_and_order(spec, doc);
  add_chunks(spec, doc, shape, type.item_size());
  if (spec.zarr_format == 3) {
    if (!doc.HasMember("zarr_format")) add(doc, "zarr_format", Value(3));
    if (!doc.HasMember("node_type")) add(doc, "node_type", Value("array", doc.GetAllocator()));
  }
  return json::to_string(doc);
}

}  // namespace zarr::spec_detail
