#include "core/json.h"

#include <algorithm>
#include <cstring>

#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/error.h"

namespace zarr::json {

namespace {
// Full precision so int64 and float fill values round-trip; NaN/Infinity
// literals are accepted because some writers emit them.
constexpr unsigned kParseFlags = rapidjson::kParseFullPrecisionFlag | rapidjson::kParseNanAndInfFlag;

std::string field_error(const std::string& where, const std::string& field, const char* expected) {
  return where + ": field '" + field + "' must be " + expected;
}
}  // namespace

rapidjson::Document parse(const std::string& text, const std::string& where) {
  rapidjson::Document doc;
  doc.Parse<kParseFlags>(text.data(), text.size());
  if (doc.HasParseError()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": malformed JSON at offset " +
                                        std::to_string(doc.GetErrorOffset()) + ": " +
                                        rapidjson::GetParseError_En(doc.GetParseError()));
  }
  return doc;
}

rapidjson::Document parse_object(const std::string& text, const std::string& where) {
  rapidjson::Document doc = parse(text, where);
  if (!doc.IsObject()) fail(ZARR_ERR_INVALID_METADATA, where + ": expected a JSON object");
  return doc;
}

std::string to_string(const rapidjson::Value& value) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::UTF8<>,
                    rapidjson::CrtAllocator, rapidjson::kWriteNanAndInfFlag>
      writer(buf);
  value.Accept(writer);
  return std::string(buf.GetString(), buf.GetSize());
}

std::string to_pretty_string(const rapidjson::Value& value) {
  rapidjson::StringBuffer buf;
  // RapidJSON 1.1's PrettyWriter cannot take write flags; metadata never holds
  // raw NaN (fill values spell it "NaN"), so the default writer serves.
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buf);
  writer.SetIndent(' ', 4);
  value.Accept(writer);
  return std::string(buf.GetString(), buf.GetSize());
}

void sort_keys(rapidjson::Value& value) {
  if (value.IsArray()) {
    for (auto& item : value.GetArray()) sort_keys(item);
    return;
  }
  if (!value.IsObject()) return;
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) sort_keys(it->value);
  std::sort(value.MemberBegin(), value.MemberEnd(), [](const auto& a, const auto& b) {
    return std::strcmp(a.name.GetString(), b.name.GetString()) < 0;
  });
}

std::string quote(const std::string& s) {
  rapidjson::Value v(rapidjson::StringRef(s.data(), s.size()));
  return to_string(v);
}

const rapidjson::Value* find(const rapidjson::Value& obj, const char* name) {
  if (!obj.IsObject()) return nullptr;
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

const rapidjson::Value& require(const rapidjson::Value& obj, const char* name, const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v) fail(ZARR_ERR_INVALID_METADATA, where + ": missing required field '" + name + "'");
  return *v;
}

int64_t get_int(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsInt64()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "an integer"));
  return v.GetInt64();
}

uint64_t get_uint(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsUint64()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "a non-negative integer"));
  return v.GetUint64();
}

std::string get_string(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsString()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "a string"));
  return std::string(v.GetString(), v.GetStringLength());
}

bool get_bool(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsBool()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "true or false"));
  return v.GetBool();
}

std::vector<uint64_t> get_uint_list(const rapidjson::Value& v, const std::string& field,
                                    const std::string& where) {
  if (!v.IsArray()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "a list of integers"));
  std::vector<uint64_t> out;
  out.reserve(v.Size());
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    if (!v[i].IsUint64()) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + field + "' item " + std::to_string(i) +
                                          " must be a non-negative integer, got " + to_string(v[i]));
    }
    out.push_back(v[i].GetUint64());
  }
  return out;
}

std::optional<int64_t> opt_int(const rapidjson::Value& obj, const char* name, const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v || v->IsNull()) return std::nullopt;
  return get_int(*v, name, where);
}

std::optional<std::string> opt_string(const rapidjson::Value& obj, const char* name,
                                      const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v || v->IsNull()) return std::nullopt;
  return get_string(*v, name, where);
}

std::optional<bool> opt_bool(const rapidjson::Value& obj, const char* name, const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v || v->IsNull()) return std::nullopt;
  return get_bool(*v, name, where);
}

}  // namespace zarr::json
