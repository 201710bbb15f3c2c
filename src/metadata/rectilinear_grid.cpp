#include "metadata/rectilinear_grid.h"

#include "base/error.h"
#include "base/json.h"

namespace zarr {

namespace {

[[noreturn]] void invalid(const std::string& field, const std::string& what) {
  fail(ZARR_ERR_INVALID_METADATA, field + ": " + what);
}

std::string excerpt(const rapidjson::Value& v) {
  std::string text = json::to_string(v);
  return text.size() <= 80 ? text : text.substr(0, 80) + "...";
}

uint64_t positive(const rapidjson::Value& v, const std::string& field) {
  if (!v.IsUint64() || v.GetUint64() == 0) {
    invalid(field, "must be a positive integer (at least 1), got " + excerpt(v));
  }
  return v.GetUint64();
}

// One chunk_shapes entry: an integer, or a list of edge lengths and runs.
AxisEdges parse_axis(const rapidjson::Value& v, const std::string& field) {
  if (!v.IsArray()) return AxisEdges::regular(positive(v, field));
  std::vector<AxisEdges::Run> runs;
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    const rapidjson::Value& item = v[i];
    const std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!item.IsArray()) {
      runs.push_back({positive(item, item_field), 1});
    } else if (item.Size() == 2) {
      runs.push_back({positive(item[0], item_field + "[0]"), positive(item[1], item_field + "[1]")});
    } else {
      invalid(item_field, "a run must be [value, count], got " + excerpt(item));
    }
  }
  return AxisEdges::from_runs(runs, field);
}

}  // namespace

std::vector<AxisEdges> parse_rectilinear_grid(const rapidjson::Value* configuration, const std::vector<uint64_t>& shape,
                                              const std::string& fw) {
  if (!configuration) invalid(fw, "the rectilinear chunk grid needs a \"configuration\" with \"chunk_shapes\"");
  for (auto it = configuration->MemberBegin(); it != configuration->MemberEnd(); ++it) {
    const std::string key(it->name.GetString(), it->name.GetStringLength());
    if (key != "kind" && key != "chunk_shapes") invalid(fw, json::unknown("configuration member", key));
  }
  const rapidjson::Value* kind = json::find(*configuration, "kind");
  if (!kind || !kind->IsString()) invalid(fw, "needs the configuration member \"kind\": \"inline\"");
  if (std::string(kind->GetString(), kind->GetStringLength()) != "inline") {
    fail(ZARR_ERR_UNSUPPORTED, fw + ": rectilinear chunk grid kind " + excerpt(*kind) +
                                   " is not supported (only \"inline\")");
  }
  const rapidjson::Value* shapes = json::find(*configuration, "chunk_shapes");
  if (!shapes || !shapes->IsArray()) invalid(fw, "needs the configuration member \"chunk_shapes\" (a list)");
  if (shapes->Size() != shape.size()) {
    invalid(fw, "chunk_shapes has " + std::to_string(shapes->Size()) + " dimensions but 'shape' has " +
                    std::to_string(shape.size()));
  }
  std::vector<AxisEdges> axes;
  for (size_t d = 0; d < shape.size(); ++d) {
    const std::string field = fw + ": chunk_shapes[" + std::to_string(d) + "]";
    axes.push_back(parse_axis((*shapes)[static_cast<rapidjson::SizeType>(d)], field));
    axes.back().check_covers(shape[d], field);
  }
  return axes;
}

std::string rectilinear_grid_json(const std::vector<AxisEdges>& axes) {
  std::string shapes;
  for (const AxisEdges& axis : axes) {
    if (!shapes.empty()) shapes += ",";
    if (axis.is_regular()) {
      shapes += std::to_string(axis.max_size());
      continue;
    }
    std::string items;
    for (const AxisEdges::Run& run : axis.runs()) {
      if (!items.empty()) items += ",";
      items += run.count == 1 ? std::to_string(run.size)
                              : "[" + std::to_string(run.size) + "," + std::to_string(run.count) + "]";
    }
    shapes += "[" + items + "]";
  }
  return R"({"name":"rectilinear","configuration":{"kind":"inline","chunk_shapes":[)" + shapes + "]}}";
}

}  // namespace zarr
