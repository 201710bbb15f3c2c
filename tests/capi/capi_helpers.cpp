#include "capi_helpers.h"

#include <algorithm>
#include <filesystem>

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

static std::string take_string(int status, char* s) {
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  std::string out = s ? s : "";
  zarr_free(s);
  return out;
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

std::vector<std::string> list_files(const std::string& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), dir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace zarr::test
