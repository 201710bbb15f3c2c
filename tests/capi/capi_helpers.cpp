#include "capi_helpers.h"

#include <algorithm>
#include <filesystem>

#include <rapidjson/document.h>

namespace zarr::test {

std::string status_text(int status) {
  return std::string(zarr_status_name(status)) + ": " + zarr_last_error();
}

std::string v2_metadata(Fields fields) {
  fields.emplace("zarr_format", "2");
  fields.emplace("compressor", "null");
  fields.emplace("fill_value", "0");
  fields.emplace("filters", "null");
  fields.emplace("order", "\"C\"");
  std::string out = "{";
  for (const auto& [key, value] : fields) out += (out.size() > 1 ? ", \"" : "\"") + key + "\": " + value;
  return out + "}";
}

std::string array_meta(const std::string& shape, const std::string& chunks, const std::string& dtype,
                       Fields fields) {
  fields.emplace("shape", shape);
  fields.emplace("chunks", chunks);
  fields.emplace("dtype", "\"" + dtype + "\"");
  return v2_metadata(fields);
}

std::string v3_array_meta(const std::string& shape, const std::string& chunks) {
  return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + shape +
         ", \"data_type\": \"int32\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": "
         "{\"chunk_shape\": " + chunks + "}}, \"chunk_key_encoding\": {\"name\": \"default\"}, "
         "\"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}";
}

std::string v3_one_chunk_meta(const std::string& type, const std::string& shape, const std::string& codecs,
                              const std::string& fill) {
  return R"({"zarr_format": 3, "node_type": "array", "shape": )" + shape + R"(, "data_type": ")" + type +
         R"(", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": )" + shape +
         R"(}}, "chunk_key_encoding": {"name": "default"}, "fill_value": )" + fill + R"(, "codecs": )" + codecs + "}";
}

ArrayPtr create_array(const std::string& url, const std::string& metadata_json, const char* options) {
  ArrayPtr a;
  int status = zarr_create_ex(a.out(), url.c_str(), metadata_json.c_str(), options);
  EXPECT_EQ(status, ZARR_OK) << status_text(status) << "\nmetadata: " << metadata_json;
  return a;
}

ArrayPtr open_array(const std::string& url, const char* mode) {
  ArrayPtr a;
  int status = zarr_open(a.out(), url.c_str(), mode);
  EXPECT_EQ(status, ZARR_OK) << status_text(status) << "\nurl: " << url;
  return a;
}

ArrayPtr open_record_field_x(const std::string& folder) {
  create_array(folder, v2_metadata({{"shape", "[4]"}, {"chunks", "[2]"},
                                    {"dtype", R"([["x", "<i4"], ["y", "<f4"]])"}, {"fill_value", "null"}}));
  ArrayPtr x;
  const std::string spec =
      R"({"driver": "zarr", "kvstore": {"driver": "file", "path": ")" + folder + R"("}, "field": "x"})";
  int status = zarr_open_spec(x.out(), spec.c_str());
  EXPECT_EQ(status, ZARR_OK) << status_text(status) << "\nspec: " << spec;
  return x;
}

static std::string take_string(int status, char* s) {
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  std::string out = s ? s : "";
  zarr_free(s);
  return out;
}

rapidjson::Document info_of(const zarr_array* a) {
  char* text = nullptr;
  int status = zarr_info(a, &text);
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  rapidjson::Document doc;
  doc.Parse(text ? text : "null");
  zarr_free(text);
  EXPECT_TRUE(doc.IsObject());
  return doc;
}

std::string metadata_of(const zarr_array* a) {
  char* s = nullptr;
  int status = zarr_get_metadata(a, &s);
  return take_string(status, s);
}

std::string attributes_of(const zarr_array* a) {
  char* s = nullptr;
  int status = zarr_get_attributes(a, &s);
  return take_string(status, s);
}

std::string group_attributes_of(const zarr_group* g) {
  char* s = nullptr;
  int status = zarr_group_get_attributes(g, &s);
  return take_string(status, s);
}

std::vector<std::string> child_names(zarr_group* group) {
  char* json = nullptr;
  if (zarr_group_list(group, &json) != ZARR_OK) return {"<error: " + std::string(zarr_last_error()) + ">"};
  rapidjson::Document doc;
  doc.Parse(json);
  zarr_free(json);
  std::vector<std::string> names;
  for (const auto& child : doc.GetArray()) names.push_back(child["name"].GetString());
  return names;
}

std::vector<std::string> list_files(const std::string& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), dir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> read_strings(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count) {
  size_t n = 1;
  for (uint64_t c : count) n *= c;
  std::vector<uint64_t> offsets(n + 1);
  size_t needed = 0;
  int rc = zarr_read_region_vlen(a, start.size(), start.data(), count.data(), offsets.data(), offsets.size(), nullptr,
                                 0, &needed);
  EXPECT_TRUE(rc == ZARR_OK || rc == ZARR_ERR_BUFFER_SIZE) << status_text(rc);
  std::string data(needed, '\0');
  rc = zarr_read_region_vlen(a, start.size(), start.data(), count.data(), offsets.data(), offsets.size(), data.data(),
                             data.size(), &needed);
  EXPECT_EQ(rc, ZARR_OK) << status_text(rc);
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(data.substr(offsets[i], offsets[i + 1] - offsets[i]));
  return out;
}

int write_strings(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count,
                  const std::vector<std::string>& items) {
  std::string data;
  std::vector<uint64_t> offsets{0};
  for (const auto& s : items) {
    data += s;
    offsets.push_back(data.size());
  }
  return zarr_write_region_vlen(a, start.size(), start.data(), count.data(), offsets.data(), offsets.size(),
                                data.data(), data.size());
}

}  // namespace zarr::test
