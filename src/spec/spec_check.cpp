// The spec front end, part 2: a spec's constraints against the metadata of
// an array that exists (or was just created from them).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "grid/axis_edges.h"
#include "grid/chunk_shape.h"
#include "spec/spec_request.h"

namespace zarr::spec_detail {
namespace {

bool numbers_equal(const Value& a, const Value& b) {
  if (a.IsInt64() && b.IsInt64()) return a.GetInt64() == b.GetInt64();
  if (a.IsUint64() && b.IsUint64()) return a.GetUint64() == b.GetUint64();
  return a.GetDouble() == b.GetDouble();
}

}  // namespace

// A constraint holds when every member it gives is in the stored value with
// a matching value (objects), lists match item by item, numbers by value.
bool satisfies(const Value& stored, const Value& wanted) {
  if (wanted.IsNumber() && stored.IsNumber()) return numbers_equal(stored, wanted);
  if (wanted.IsObject()) {
    if (!stored.IsObject()) return false;
    for (auto it = wanted.MemberBegin(); it != wanted.MemberEnd(); ++it) {
      auto found = stored.FindMember(it->name);
      if (found == stored.MemberEnd() || !satisfies(found->value, it->value)) return false;
    }
    return true;
  }
  if (wanted.IsArray()) {
    if (!stored.IsArray() || stored.Size() != wanted.Size()) return false;
    for (rapidjson::SizeType i = 0; i < wanted.Size(); ++i) {
      if (!satisfies(stored[i], wanted[i])) return false;
    }
    return true;
  }
  return stored == wanted;
}

// The TensorStore name of a data type ("uint16" for "<u2" and ">u2").
std::optional<std::string> tensorstore_name(const DataType& type) {
  std::string v2 = type.to_v2_json();
  if (v2.size() > 3 && v2.front() == '"' && v2[1] == '>') {
    v2[1] = '<';
    try {
      return DataType::from_typestr(v2.substr(1, v2.size() - 2), "dtype").v3_name();
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  return type.v3_name();
}

// metadata.chunks with -1 / null: the full extent, as zarr-python's chunks.
void resolve_full_extent_chunks(Value& chunks, const std::vector<uint64_t>& shape) {
  if (!chunks.IsArray()) return;  // the metadata parser names the type error
  if (chunks.Size() != shape.size()) {
    invalid("'metadata.chunks' has " + std::to_string(chunks.Size()) + " entries but the shape " +
            std::to_string(shape.size()));
  }
  for (rapidjson::SizeType i = 0; i < chunks.Size(); ++i) {
    const bool full = chunks[i].IsNull() || (chunks[i].IsInt64() && chunks[i].GetInt64() == -1);
    if (full) chunks[i].SetUint64(std::max<uint64_t>(shape[i], 1));
  }
}

namespace {

// The rank, shape, data type and chunks the spec's dtype, rank and schema
// constrain: the field's when a field is selected, else the array's.
struct ViewFigures {
  size_t ndim;
  std::vector<uint64_t> shape, chunks;
  const DataType* dtype;
  std::string dtype_name;
};

ViewFigures view_figures(const Array& array, const FieldArray* field) {
  if (field) return {field->ndim(), field->shape(), field->chunks(), &field->field().type, field->data_type_name()};
  return {array.ndim(), array.shape(), array.chunks(), &array.metadata().dtype, array.data_type_name()};
}

// The chunk layout's hard shape against the stored chunks (-1: the full
// extent, 0: any). An axis of a rectilinear grid whose edges differ has no
// one chunk extent (stored_chunks holds its largest edge): only 0 holds there.
void check_chunk_layout(const ChunkLayoutRequest& layout, const ViewFigures& view,
                        const std::optional<std::vector<AxisEdges>>& rectilinear) {
  const std::vector<uint64_t>& stored_chunks = view.chunks;
  const std::vector<int64_t>& hard = layout.shape;
  if (hard.empty()) return;
  if (hard.size() != stored_chunks.size()) {
    contradicts("schema.chunk_layout shape", "rank " + std::to_string(hard.size()),
                "rank " + std::to_string(stored_chunks.size()));
  }
  for (size_t i = 0; rectilinear && i < rectilinear->size(); ++i) {
    if (hard[i] != kChooseChunkSize && !(*rectilinear)[i].is_regular()) {
      contradicts("schema.chunk_layout shape", list_text(hard), "a rectilinear axis " + std::to_string(i));
    }
  }
  for (size_t i = 0; i < hard.size(); ++i) {
    const uint64_t want =
        hard[i] == kFullExtent ? std::max<uint64_t>(view.shape[i], 1) : static_cast<uint64_t>(hard[i]);
    if (hard[i] != kChooseChunkSize && want != stored_chunks[i]) {
      contradicts("schema.chunk_layout shape", list_text(hard), list_text(stored_chunks));
    }
  }
}

}  // namespace

void check_against_stored(const SpecRequest& spec, const Array& array, const FieldArray* field) {
  rapidjson::Document stored = json::parse(array.metadata_json(), "stored metadata");
  rapidjson::Document wanted;
  wanted.CopyFrom(spec.metadata, wanted.GetAllocator());
  const std::vector<uint64_t> shape = array.shape();
  const ViewFigures view = view_figures(array, field);
  auto chunks = wanted.FindMember("chunks");
  if (chunks != wanted.MemberEnd()) resolve_full_extent_chunks(chunks->value, shape);

  for (auto it = wanted.MemberBegin(); it != wanted.MemberEnd(); ++it) {
    const std::string field = "metadata." + json::text(it->name);
    auto found = stored.FindMember(it->name);
    if (found == stored.MemberEnd() && field == "metadata.dimension_separator") {
      // zarr-python leaves the default "." out of .zarray.
      stored.AddMember("dimension_separator", ".", stored.GetAllocator());
      found = stored.FindMember(it->name);
    }
    const std::string stored_text = found == stored.MemberEnd() ? "nothing" : text(found->value);
    if (field == "metadata.dtype" || field == "metadata.data_type") {
      const DataType want = spec.zarr_format == 3 ? DataType::parse_v3(it->value, field)
                                                  : DataType::parse_v2(it->value, field);
      if (!(want == array.metadata().dtype)) contradicts(field, text(it->value), stored_text);
    } else if (found == stored.MemberEnd() || !satisfies(found->value, it->value)) {
      contradicts(field, text(it->value), stored_text);
    }
  }
  if (spec.rank && *spec.rank != view.ndim) {
    contradicts(spec.rank_member, std::to_string(*spec.rank), std::to_string(view.ndim));
  }
  if (spec.shape && *spec.shape != view.shape) {
    contradicts(spec.shape_member, list_text(*spec.shape), list_text(view.shape));
  }
  if (spec.dtype) {
    std::optional<std::string> name = tensorstore_name(*view.dtype);
    if (!name || *name != *spec.dtype) {
      contradicts(spec.dtype_member, json::quote(*spec.dtype), name ? json::quote(*name) : view.dtype_name);
    }
  }
  if (spec.has_fill_value) {
    auto stored_fill = stored.FindMember("fill_value");
    if (stored_fill == stored.MemberEnd() || !satisfies(stored_fill->value, spec.fill_value)) {
      contradicts("schema.fill_value", text(spec.fill_value),
                  stored_fill == stored.MemberEnd() ? "nothing" : text(stored_fill->value));
    }
  }
  check_chunk_layout(spec.chunk_layout, view, array.metadata().rectilinear);
}

}  // namespace zarr::spec_detail
