// Zip archives between libzarr and zarr-python 2.13's ZipStore, both ways
// (zarr_python_zip_peer.py, run with /usr/bin/python3):
//
//  * ZipStoreWritesLibzarrReads: zarr-python writes a hierarchy into a zip
//    (blosc, zlib and raw chunks, a partly written array, a chunk written twice
//    so its entry name occurs twice, spaces and unicode in names), plus a copy
//    padded to 65536+ entries, which zipfile writes as zip64. libzarr opens
//    both through PATH|zip:NODE URLs and reads every value.
//  * LibzarrWritesZipStoreReads: libzarr writes a hierarchy into a new archive
//    (stored, then deflated entries); zarr-python reads every array, group and
//    attribute, and zipfile checks every entry's CRC.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "interop_handles.h"
#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarr_config.h"

namespace zarr::interop {
namespace {

using zarr::test::TempDir;

const char* const kUnicodePath = "with space/donn\xc3\xa9" "es";

std::string run_peer(const std::string& command, const std::string& argument) {
  std::string cmd = shell_quote(python_exe()) + " " + shell_quote(scripts_dir() + "/zarr_python_zip_peer.py") + " " +
                    command + " " + shell_quote(argument);
  std::string out;
  int rc = run_command(cmd, &out);
  EXPECT_EQ(rc, 0) << cmd << " failed:\n" << out;
  return out;
}

template <typename T>
std::vector<T> read_all(const std::string& url) {
  Array a;
  int rc = zarr_open(a.out(), url.c_str(), "r");
  EXPECT_EQ(rc, ZARR_OK) << url << ": " << status_text(rc);
  if (rc != ZARR_OK) return {};
  std::vector<uint64_t> shape(zarr_ndim(a)), origin(zarr_ndim(a), 0);
  zarr_shape(a, shape.data());
  std::vector<T> out(static_cast<size_t>(product(shape)));
  EXPECT_EQ(zarr_item_size(a), sizeof(T)) << url;
  rc = zarr_read_region(a, shape.size(), origin.data(), shape.data(), out.data(), out.size() * sizeof(T));
  EXPECT_EQ(rc, ZARR_OK) << url << ": " << status_text(rc);
  return out;
}

// arange(n) * 3 - 10, as the peer writes most arrays.
template <typename T>
std::vector<T> peer_values(size_t n) {
  std::vector<T> out;
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<T>(static_cast<int64_t>(i) * 3 - 10));
  return out;
}

std::string attributes_at(const std::string& url) {
  Group g;
  int rc = zarr_group_open(g.out(), url.c_str(), "r");
  if (rc != ZARR_OK) return status_text(rc);
  LibString json;
  rc = zarr_group_get_attributes(g, json.out());
  return rc == ZARR_OK ? json.str() : status_text(rc);
}

bool has_zip64_end_record(const std::string& archive) {
  Bytes bytes = test::read_file(archive);
  const std::string signature = "PK\x06\x06";
  return std::search(bytes.begin(), bytes.end(), signature.begin(), signature.end()) != bytes.end();
}

class ZarrPythonZip : public ::testing::Test {
 protected:
  void SetUp() override {
#if !ZARR_HAVE_ZIP
    GTEST_SKIP() << "libzarr built without zip support";
#endif
    std::string why = python_unavailable_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
  TempDir dir_;
};

TEST_F(ZarrPythonZip, ZipStoreWritesLibzarrReads) {
  run_peer("write", dir_.path());
  ASSERT_TRUE(has_zip64_end_record(dir_ / "python64.zip")) << "the padded archive should be zip64";
  for (const char* name : {"python.zip", "python64.zip"}) {
    const std::string zip = dir_ / name;
    SCOPED_TRACE(zip);
    auto url = [&](const std::string& node) { return zip + "|zip:" + node; };
    EXPECT_EQ(attributes_at(url("")), R"({"writer":"zarr-python"})");
    EXPECT_EQ(attributes_at(url("sub")), R"({"level":1})");
    EXPECT_EQ(read_all<int32_t>(url("ints")), peer_values<int32_t>(35));
    std::vector<double> quarters;
    for (int i = 0; i < 10; ++i) quarters.push_back(i / 4.0);
    EXPECT_EQ(read_all<double>(url("sub/floats")), quarters);
    EXPECT_EQ(read_all<uint8_t>(url("sub/partial")), (std::vector<uint8_t>{1, 2, 3, 7, 7, 7}));
    EXPECT_EQ(read_all<int16_t>(url("rewritten")), peer_values<int16_t>(4)) << "the later of two entries";
    EXPECT_EQ(read_all<int64_t>(url(kUnicodePath)), peer_values<int64_t>(3));
  }
}

// libzarr's side of LibzarrWritesZipStoreReads: a v2 hierarchy (zarr-python
// 2 reads v2) whose archive is written when the handles close.
void write_hierarchy(const std::string& zip, const char* options) {
  auto url = [&](const std::string& node) { return zip + "|zip:" + node; };
  Group root;
  ASSERT_EQ(zarr_group_create_ex(root.out(), url("").c_str(), R"({"writer": "libzarr"})", options), ZARR_OK)
      << zarr_last_error();
  Array a, b, c, k;
  ASSERT_EQ(zarr_group_create_array(a.out(), root, "a",
                                    R"({"shape": [5, 4], "chunks": [2, 3], "dtype": "<f8",
                                        "compressor": {"id": "zlib", "level": 1}})"),
            ZARR_OK)
      << zarr_last_error();
  std::vector<double> halves;
  for (int i = 0; i < 20; ++i) halves.push_back(i * 0.5);
  uint64_t origin[2] = {0, 0}, shape[2] = {5, 4};
  ASSERT_EQ(zarr_write_region(a, 2, origin, shape, halves.data(), halves.size() * 8), ZARR_OK);
  ASSERT_EQ(zarr_set_attributes(a, R"({"unit": "m"})"), ZARR_OK);

  ASSERT_EQ(zarr_create_ex(b.out(), url("g/b").c_str(),
                           R"({"shape": [9], "chunks": [4], "dtype": ">i2", "compressor": null, "fill_value": 3})",
                           options),
            ZARR_OK)
      << zarr_last_error();
  std::vector<int16_t> first = {0, 1, 2, 3};
  uint64_t start = 0, count = 4;
  ASSERT_EQ(zarr_write_region(b, 1, &start, &count, first.data(), 8), ZARR_OK);

  ASSERT_EQ(zarr_create(c.out(), url(std::string("g/") + kUnicodePath).c_str(),
                        R"({"shape": [3], "chunks": [3], "dtype": "|u1"})"),
            ZARR_OK)
      << zarr_last_error();
  std::vector<uint8_t> bytes = {1, 2, 3};
  count = 3;
  ASSERT_EQ(zarr_write_region(c, 1, &start, &count, bytes.data(), 3), ZARR_OK);

  ASSERT_EQ(zarr_create(k.out(), url("k").c_str(), R"({"shape": [2], "chunks": [2], "dtype": "<i4"})"), ZARR_OK);
  count = 2;
  std::vector<int32_t> old_values = {1, 2}, new_values = {3, 4};
  ASSERT_EQ(zarr_write_region(k, 1, &start, &count, old_values.data(), 8), ZARR_OK);
  ASSERT_EQ(zarr_write_region(k, 1, &start, &count, new_values.data(), 8), ZARR_OK);  // same chunk again
}

std::string member_text(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject() || !object.HasMember(name)) return "<missing " + std::string(name) + ">";
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  object[name].Accept(w);
  return sb.GetString();
}

TEST_F(ZarrPythonZip, LibzarrWritesZipStoreReads) {
  struct Variant {
    const char* file;
    const char* options;
    int compress_type;  // zipfile's: 0 stored, 8 deflated
  };
  for (const Variant& v : {Variant{"stored.zip", R"({"zarr_format": 2})", 0},
                           Variant{"deflated.zip", R"({"zarr_format": 2, "store": {"compression": "deflate"}})", 8}}) {
    const std::string zip = dir_ / v.file;
    SCOPED_TRACE(zip);
    write_hierarchy(zip, v.options);
    if (HasFatalFailure()) return;
    rapidjson::Document got;
    got.Parse(run_peer("read", zip).c_str());
    ASSERT_FALSE(got.HasParseError()) << "the peer printed no JSON";
    const rapidjson::Value& arrays = got["arrays"];
    EXPECT_EQ(member_text(got, "groups"), R"({"":{"writer":"libzarr"},"g":{},"g/with space":{}})");
    EXPECT_EQ(member_text(arrays, "a"),
              R"({"attrs":{"unit":"m"},"chunks":[2,3],"compressor":"zlib","dtype":"<f8","shape":[5,4],)"
              R"("values":[0.0,0.5,1.0,1.5,2.0,2.5,3.0,3.5,4.0,4.5,5.0,5.5,6.0,6.5,7.0,7.5,8.0,8.5,9.0,9.5]})");
    EXPECT_EQ(member_text(arrays, "g/b"),
              R"({"attrs":{},"chunks":[4],"compressor":null,"dtype":">i2","shape":[9],"values":[0,1,2,3,3,3,3,3,3]})");
    EXPECT_EQ(member_text(arrays, (std::string("g/") + kUnicodePath).c_str()),
              R"({"attrs":{},"chunks":[3],"compressor":"blosc","dtype":"|u1","shape":[3],"values":[1,2,3]})");
    EXPECT_EQ(member_text(arrays, "k"),
              R"({"attrs":{},"chunks":[2],"compressor":"blosc","dtype":"<i4","shape":[2],"values":[3,4]})");
    EXPECT_EQ(member_text(got, "bad_entry"), "null") << "zipfile found a bad CRC";
    ASSERT_TRUE(got["entries"].IsObject());
    EXPECT_EQ(got["entry_count"].GetUint(), got["entries"].MemberCount()) << "a name written twice";
    for (auto it = got["entries"].MemberBegin(); it != got["entries"].MemberEnd(); ++it) {
      EXPECT_EQ(it->value.GetInt(), v.compress_type) << it->name.GetString();
    }
  }
}

}  // namespace
}  // namespace zarr::interop
