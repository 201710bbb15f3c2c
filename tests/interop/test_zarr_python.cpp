// Interop with zarr-python 2.13 (numcodecs 0.11), both ways, over one matrix of
// v2 arrays (interop_support.cpp: every dtype in both byte orders, every
// compressor, C/F order, "." and "/" separators, zero / non-zero / NaN / null
// fill values, ragged edge chunks, partial writes leaving chunks unwritten):
//
//  * ZarrPythonWrites: zarr_python_peer.py writes each case with zarr-python and
//    dumps what zarr-python reads back as C-order little-endian bytes; libzarr
//    opens it, checks shape, chunks, item size, data type and fill value, and
//    reads the whole array and unaligned sub-regions (contiguous and strided).
//  * LibzarrWrites: libzarr creates each case with zarr_create and writes the
//    same boxes (some through the strided call), keeping its own model of the
//    expected contents; zarr-python then reads everything and compares values,
//    metadata, attributes and store keys. Also resize/append and a group
//    hierarchy built with the group calls.
//
// The Python side runs once per direction (a batch) with /usr/bin/python3; the
// tests skip with a message when that interpreter has no zarr-python 2.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cctype>
#include <cmath>
#include <iostream>
#include <cstring>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "interop_handles.h"
#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarr_config.h"

namespace zarr::interop {

// Test names print the case name, not the bytes of the struct.
void PrintTo(const CaseSpec& c, std::ostream* os) { *os << c.name; }

namespace {

namespace fs = std::filesystem;
using zarr::test::TempDir;

std::string json_text(const rapidjson::Value& v) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  v.Accept(w);
  return sb.GetString();
}

std::vector<uint64_t> u64_list(const rapidjson::Value& v) {
  std::vector<uint64_t> out;
  for (const auto& x : v.GetArray()) out.push_back(x.GetUint64());
  return out;
}

bool json_equal(const std::string& a, const std::string& b) {
  rapidjson::Document da, db;
  da.Parse(a.c_str());
  db.Parse(b.c_str());
  return !da.HasParseError() && !db.HasParseError() && da == db;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::string s = read_text(path);
  return std::vector<uint8_t>(s.begin(), s.end());
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  " + x;
  return s;
}

// Fortran-layout byte strides of a box and the conversions to and from C order.
std::vector<int64_t> fortran_strides(const std::vector<uint64_t>& count, size_t item) {
  std::vector<int64_t> s(count.size());
  int64_t acc = static_cast<int64_t>(item);
  for (size_t d = 0; d < count.size(); ++d) {
    s[d] = acc;
    acc *= static_cast<int64_t>(count[d]);
  }
  return s;
}

// Reorders a box between C order (to_fortran) and Fortran order (!to_fortran).
std::vector<uint8_t> reorder(const std::vector<uint8_t>& in, const std::vector<uint64_t>& count, size_t item,
                             bool to_fortran) {
  std::vector<uint8_t> out(in.size());
  size_t n = static_cast<size_t>(product(count));
  size_t nd = count.size();
  std::vector<uint64_t> idx(nd, 0);
  for (size_t c = 0; c < n; ++c) {
    // idx is the coordinate of C-order element c
    size_t f = 0, mul = 1;
    for (size_t d = 0; d < nd; ++d) {
      f += static_cast<size_t>(idx[d]) * mul;
      mul *= static_cast<size_t>(count[d]);
    }
    if (to_fortran) std::memcpy(out.data() + f * item, in.data() + c * item, item);
    else std::memcpy(out.data() + c * item, in.data() + f * item, item);
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < count[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// zarr-python -> libzarr: the batch

struct PeerCase {
  std::string error;  // zarr-python failed to write this case
  std::string path, bin, mask;
  size_t item_size = 0;
  std::vector<uint64_t> shape, chunks;
  std::string zarray_dtype;  // JSON text, as zarr-python wrote it
  bool fill_null = false;
  std::vector<uint8_t> fill;          // zarr-python's fill value of the array it wrote
  std::vector<uint8_t> decoded_fill;  // zarr-python's decoding of the case's fill JSON
  uint64_t stored_chunks = 0;
};

struct PeerGroupNode {
  std::string path;
  std::string attrs;  // JSON text
  std::vector<std::pair<std::string, std::string>> children;  // name, "array" / "group"
};

struct PythonWritten {
  std::string skip, error, versions, groups_error;
  TempDir dir;
  std::map<std::string, PeerCase> cases;
  std::vector<PeerGroupNode> groups;
};

void run_python_writer(PythonWritten& w) {
  w.skip = python_unavailable_reason();
  if (!w.skip.empty()) return;
  std::string spec = "{\"cases\":[";
  const auto& cases = case_matrix();
  for (size_t i = 0; i < cases.size(); ++i) spec += (i ? ",\n" : "") + case_json(cases[i]);
  spec += "]}";
  std::string spec_path = w.dir / "spec.json";
  std::string out_dir = w.dir / "arrays";
  fs::create_directories(out_dir);
  write_text(spec_path, spec);
  std::string out;
  std::string cmd = shell_quote(python_exe()) + " " + shell_quote(scripts_dir() + "/zarr_python_peer.py") +
                    " write " + shell_quote(spec_path) + " " + shell_quote(out_dir) + " 2>&1";
  int rc = run_command(cmd, &out);
  if (rc != 0) {
    w.error = "zarr_python_peer.py write failed (exit " + std::to_string(rc) + "):\n" + out;
    return;
  }
  rapidjson::Document m;
  std::string text = read_text(out_dir + "/manifest.json");
  m.Parse(text.c_str());
  if (m.HasParseError() || !m.IsObject()) {
    w.error = "cannot parse " + out_dir + "/manifest.json";
    return;
  }
  w.versions = std::string("zarr ") + m["zarr"].GetString() + ", numcodecs " + m["numcodecs"].GetString() +
               ", numpy " + m["numpy"].GetString();
  for (const auto& c : m["cases"].GetArray()) {
    PeerCase pc;
    if (c.HasMember("error")) {
      pc.error = c["error"].GetString();
    } else {
      pc.path = c["path"].GetString();
      pc.bin = c["bin"].GetString();
      pc.mask = c["mask"].IsNull() ? "" : c["mask"].GetString();
      pc.item_size = c["itemsize"].GetUint64();
      pc.shape = u64_list(c["shape"]);
      pc.chunks = u64_list(c["chunks"]);
      pc.zarray_dtype = json_text(c["zarray_dtype"]);
      pc.fill_null = c["fill_null"].GetBool();
      if (!pc.fill_null) pc.fill = from_hex(c["fill_hex"].GetString());
      if (!c["decoded_fill_hex"].IsNull()) pc.decoded_fill = from_hex(c["decoded_fill_hex"].GetString());
      pc.stored_chunks = c["stored_chunks"].GetUint64();
    }
    w.cases[c["name"].GetString()] = std::move(pc);
  }
  if (m.HasMember("groups_error")) w.groups_error = m["groups_error"].GetString();
  if (m.HasMember("groups")) {
    for (const auto& g : m["groups"].GetArray()) {
      PeerGroupNode node;
      node.path = g["path"].GetString();
      node.attrs = json_text(g["attrs"]);
      for (const auto& ch : g["children"].GetArray()) {
        node.children.emplace_back(ch["name"].GetString(), ch["kind"].GetString());
      }
      w.groups.push_back(std::move(node));
    }
  }
}

PythonWritten& python_written() {
  static PythonWritten w;
  static bool ran = (run_python_writer(w), true);
  (void)ran;
  return w;
}

std::string box_text(const Box& b) {
  std::ostringstream os;
  os << "start [";
  for (size_t i = 0; i < b.start.size(); ++i) os << (i ? "," : "") << b.start[i];
  os << "] count [";
  for (size_t i = 0; i < b.count.size(); ++i) os << (i ? "," : "") << b.count[i];
  os << "]";
  return os.str();
}

std::string case_name(const testing::TestParamInfo<CaseSpec>& info) { return info.param.name; }

class ZarrPythonWrites : public testing::TestWithParam<CaseSpec> {};

TEST_P(ZarrPythonWrites, LibzarrReadsIdenticalBytes) {
  const CaseSpec& c = GetParam();
  PythonWritten& env = python_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  auto it = env.cases.find(c.name);
  ASSERT_NE(it, env.cases.end()) << "the writer's manifest has no case " << c.name;
  const PeerCase& pc = it->second;
  ASSERT_TRUE(pc.error.empty()) << "zarr-python could not write the case:\n" << pc.error;

  Array a;
  int rc = zarr_open(a.out(), pc.path.c_str(), "r");
  if (rc == ZARR_ERR_UNSUPPORTED && std::string(zarr_last_error()).find("built without") != std::string::npos) {
    GTEST_SKIP() << zarr_last_error();
  }
  ASSERT_EQ(rc, ZARR_OK) << status_text(rc) << "\n.zarray: " << read_text(pc.path + "/.zarray");

  EXPECT_EQ(zarr_format(a), 2);
  size_t nd = c.shape.size();
  ASSERT_EQ(zarr_ndim(a), nd);
  std::vector<uint64_t> shape(nd), chunks(nd);
  ASSERT_EQ(zarr_shape(a, shape.data()), ZARR_OK);
  ASSERT_EQ(zarr_chunk_shape(a, chunks.data()), ZARR_OK);
  EXPECT_EQ(shape, pc.shape);
  EXPECT_EQ(chunks, pc.chunks);
  ASSERT_EQ(shape, c.shape);
  size_t item = zarr_item_size(a);
  ASSERT_EQ(item, pc.item_size) << "numpy's item size of " << c.dtype.json;
  ASSERT_EQ(item, c.dtype.item_size);

  // Data type: the v3 name for simple types, else the v2 dtype JSON.
  const char* dtype = zarr_data_type(a);
  ASSERT_NE(dtype, nullptr);
  if (!c.dtype.v3_name.empty()) {
    EXPECT_EQ(std::string(dtype), c.dtype.v3_name);
  } else {
    EXPECT_TRUE(json_equal(dtype, pc.zarray_dtype))
        << "zarr_data_type: " << dtype << "\n.zarray dtype: " << pc.zarray_dtype;
  }

  // Fill value: what zarr-python decodes from the .zarray it wrote.
  std::vector<uint8_t> fill(item, 0xAB);
  int is_null = -1;
  ASSERT_EQ(zarr_fill_value(a, fill.data(), fill.size(), &is_null), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(is_null != 0, pc.fill_null);
  if (!pc.fill_null) {
    EXPECT_EQ(to_hex(fill.data(), item), to_hex(pc.fill.data(), pc.fill.size()))
        << "fill_value in .zarray: " << read_text(pc.path + "/.zarray");
  }

  // The whole array.
  std::vector<uint8_t> want = read_bytes(pc.bin);
  std::vector<uint8_t> mask = pc.mask.empty() ? std::vector<uint8_t>() : read_bytes(pc.mask);
  size_t n = static_cast<size_t>(product(shape));
  ASSERT_EQ(want.size(), n * item);
  std::vector<uint8_t> got(n * item, 0xCD);
  std::vector<uint64_t> origin(nd, 0);
  rc = zarr_read_region(a, nd, origin.data(), shape.data(), got.data(), got.size());
  ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
  EXPECT_EQ(compare_elements(got, want, mask, shape, item), "")
      << "whole array; " << pc.stored_chunks << " chunks stored" << (mask.empty() ? "" : ", null fill");
  if (!mask.empty()) {
    size_t defined = 0;
    for (uint8_t m : mask) defined += m;
    EXPECT_GT(defined, 0u) << "null fill and no stored chunk: nothing was compared";
  }
  if (c.fill_tag != "null") {
    // Without a mask the comparison covers every element; the case must leave
    // fill showing somewhere unless it writes everything.
    EXPECT_TRUE(mask.empty());
  }

  // Sub-regions, contiguous and strided (Fortran layout).
  for (const Box& r : sub_regions(shape, chunks, c.seed)) {
    SCOPED_TRACE("region " + box_text(r));
    std::vector<uint8_t> want_r = slice_c_order(want, shape, item, r.start, r.count);
    std::vector<uint8_t> mask_r = mask.empty() ? mask : slice_c_order(mask, shape, 1, r.start, r.count);
    std::vector<uint8_t> got_r(want_r.size(), 0xCD);
    rc = zarr_read_region(a, nd, r.start.data(), r.count.data(), got_r.data(), got_r.size());
    ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
    EXPECT_EQ(compare_elements(got_r, want_r, mask_r, r.count, item), "");

    std::vector<int64_t> strides = fortran_strides(r.count, item);
    std::vector<uint8_t> got_f(want_r.size(), 0xCD);
    rc = zarr_read_region_strided(a, nd, r.start.data(), r.count.data(), strides.data(), got_f.data(),
                                  got_f.size());
    ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
    EXPECT_EQ(compare_elements(reorder(got_f, r.count, item, false), want_r, mask_r, r.count, item), "")
        << "strided read into Fortran layout";
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, ZarrPythonWrites, testing::ValuesIn(case_matrix()), case_name);

// A hierarchy zarr-python built: libzarr lists it and reads its attributes.
TEST(ZarrPythonWritesGroups, LibzarrListsChildrenAndAttributes) {
  PythonWritten& env = python_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  ASSERT_FALSE(env.groups.empty()) << "the writer reported no groups: " << env.groups_error;
  for (const PeerGroupNode& node : env.groups) {
    SCOPED_TRACE("group " + node.path);
    Group g;
    int rc = zarr_group_open(g.out(), node.path.c_str(), "r");
    ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
    LibString attrs;
    ASSERT_EQ(zarr_group_get_attributes(g, attrs.out()), ZARR_OK) << zarr_last_error();
    EXPECT_TRUE(json_equal(attrs.str(), node.attrs)) << "libzarr: " << attrs.str() << "\nzarr-python: " << node.attrs;
    size_t count = 0;
    ASSERT_EQ(zarr_group_child_count(g, &count), ZARR_OK) << zarr_last_error();
    ASSERT_EQ(count, node.children.size());
    for (size_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      int kind = 0;
      ASSERT_EQ(zarr_group_child(g, i, &name, &kind), ZARR_OK) << zarr_last_error();
      ASSERT_NE(name, nullptr);
      EXPECT_EQ(name, node.children[i].first);
      EXPECT_EQ(kind, node.children[i].second == "array" ? ZARR_NODE_ARRAY : ZARR_NODE_GROUP) << name;
    }
  }
}

// ---------------------------------------------------------------------------
// libzarr -> zarr-python

// The expected contents of an array, maintained beside libzarr's.
struct Model {
  std::vector<uint64_t> shape;
  size_t item = 0;
  std::vector<uint8_t> fill;  // item bytes (zeros for null)
  std::vector<uint8_t> data;

  Model(std::vector<uint64_t> s, size_t item_size, std::vector<uint8_t> f)
      : shape(std::move(s)), item(item_size), fill(std::move(f)) {
    data = filled(shape);
  }
  std::vector<uint8_t> filled(const std::vector<uint64_t>& s) const {
    std::vector<uint8_t> d(static_cast<size_t>(product(s)) * item);
    for (size_t i = 0; i < d.size(); i += item) std::memcpy(d.data() + i, fill.data(), item);
    return d;
  }
  void write(const Box& b, const std::vector<uint8_t>& values) {
    paste_c_order(data, shape, item, b.start, b.count, values.data());
  }
  void resize(const std::vector<uint64_t>& s) {
    std::vector<uint8_t> d = filled(s);
    std::vector<uint64_t> common(s.size()), origin(s.size(), 0);
    for (size_t i = 0; i < s.size(); ++i) common[i] = std::min(s[i], shape[i]);
    if (product(common) > 0) {
      std::vector<uint8_t> keep = slice_c_order(data, shape, item, origin, common);
      paste_c_order(d, s, item, origin, common, keep.data());
    }
    shape = s;
    data = std::move(d);
  }
};

struct ArrayCheck {
  std::string name, path, dtype_json, compressor_json, order, separator, fill_json, attrs_json;
  std::vector<uint64_t> shape, chunks;
};

struct LibzarrWritten {
  std::string skip, error, python_output;
  TempDir dir;
  std::map<std::string, std::vector<std::string>> failures;  // libzarr-side, per case
  std::map<std::string, std::pair<bool, std::vector<std::string>>> results;  // zarr-python's
  std::vector<std::string> checks;  // check.json entries (arrays)
  std::vector<std::string> group_checks;
};

std::string u64_json(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string quoted(const std::string& s) {
  rapidjson::Value v(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
  return json_text(v);
}

void add_array_check(LibzarrWritten& w, const ArrayCheck& c, const Model& m) {
  zarr::test::write_file(c.path + ".bin", ByteView(m.data));
  w.checks.push_back("{\"name\":" + quoted(c.name) + ",\"path\":" + quoted(c.path) + ",\"bin\":" +
                     quoted(c.path + ".bin") + ",\"dtype\":" + c.dtype_json + ",\"shape\":" + u64_json(m.shape) +
                     ",\"chunks\":" + u64_json(c.chunks) + ",\"compressor\":" + c.compressor_json +
                     ",\"order\":\"" + c.order + "\",\"separator\":\"" + c.separator +
                     "\",\"fill_value\":" + c.fill_json + ",\"attrs\":" + c.attrs_json +
                     ",\"expect_stored_chunks\":true}");
}

// Writes a box with zarr_write_region, or with the strided call from a
// Fortran-layout buffer.
int write_box(zarr_array* a, const Box& b, const std::vector<uint8_t>& values, size_t item, bool strided) {
  size_t nd = b.start.size();
  if (!strided) return zarr_write_region(a, nd, b.start.data(), b.count.data(), values.data(), values.size());
  std::vector<uint8_t> f = reorder(values, b.count, item, true);
  std::vector<int64_t> strides = fortran_strides(b.count, item);
  return zarr_write_region_strided(a, nd, b.start.data(), b.count.data(), strides.data(), f.data(), f.size());
}

void write_matrix_case(LibzarrWritten& w, const CaseSpec& c, size_t index, const PeerCase* peer) {
  auto& fail = w.failures[c.name];
  std::string path = w.dir / c.name;
  Array a;
  int rc = zarr_create(a.out(), path.c_str(), zarray_json(c).c_str());
  if (rc != ZARR_OK) {
    fail.push_back("zarr_create: " + status_text(rc) + "\nmetadata: " + zarray_json(c));
    return;
  }
  size_t item = zarr_item_size(a);
  if (item != c.dtype.item_size) {
    fail.push_back("zarr_item_size " + std::to_string(item) + ", expected " + std::to_string(c.dtype.item_size));
    return;
  }
  // The fill value libzarr parsed, against zarr-python's reading of the same JSON.
  std::vector<uint8_t> fill(item, 0);
  int is_null = -1;
  rc = zarr_fill_value(a, fill.data(), item, &is_null);
  if (rc != ZARR_OK) fail.push_back("zarr_fill_value: " + status_text(rc));
  if (peer == nullptr || !peer->error.empty()) {
    fail.push_back("no zarr-python reading of fill_value " + c.fill_json + " (the zarr-python writer failed)");
    return;
  }
  if ((is_null != 0) != peer->fill_null) {
    fail.push_back("zarr_fill_value is_null " + std::to_string(is_null) + " for " + c.fill_json);
  }
  if (!peer->fill_null && fill != peer->decoded_fill) {
    fail.push_back("fill_value " + c.fill_json + ": libzarr " + to_hex(fill.data(), item) + ", zarr-python " +
                   to_hex(peer->decoded_fill.data(), peer->decoded_fill.size()));
  }
  Model m(c.shape, item, peer->fill_null ? std::vector<uint8_t>(item, 0) : peer->decoded_fill);
  Rng rng(c.seed ^ 0x5eed);
  for (size_t i = 0; i < c.boxes.size(); ++i) {
    const Box& b = c.boxes[i];
    std::vector<uint8_t> values = generate_values(c.dtype, product(b.count), rng);
    bool strided = i == 1;  // the second box of every case goes through the strided call
    rc = write_box(a, b, values, item, strided);
    if (rc != ZARR_OK) {
      fail.push_back(std::string(strided ? "zarr_write_region_strided " : "zarr_write_region ") + box_text(b) +
                     ": " + status_text(rc));
      return;
    }
    m.write(b, values);
  }
  std::string attrs = "{}";
  if (index % 4 == 0) {
    attrs = "{\"case\":" + quoted(c.name) + ",\"index\":" + std::to_string(index) +
            ",\"nested\":{\"list\":[1,2.5,null,true,\"x\"]}}";
    rc = zarr_set_attributes(a, attrs.c_str());
    if (rc != ZARR_OK) fail.push_back("zarr_set_attributes: " + status_text(rc));
  }
  a.close();
  add_array_check(w, ArrayCheck{c.name, path, c.dtype.json, c.compressor_json, c.order, c.separator, c.fill_json,
                                attrs, c.shape, c.chunks},
                  m);
}

// zarr_resize and zarr_append, growing and shrinking.
void write_resize_cases(LibzarrWritten& w) {
  {
    const std::string name = "ops_resize_append_2d";
    auto& fail = w.failures[name];
    std::string path = w.dir / name;
    std::string meta = R"({"shape":[10,7],"chunks":[4,3],"dtype":">f8","compressor":{"id":"zlib","level":1},)"
                       R"("fill_value":-1.5,"order":"C","filters":null})";
    Array a;
    int rc = zarr_create(a.out(), path.c_str(), meta.c_str());
    if (rc != ZARR_OK) {
      fail.push_back("zarr_create: " + status_text(rc));
      return;
    }
    double fv = -1.5;
    std::vector<uint8_t> fill(8);
    std::memcpy(fill.data(), &fv, 8);
    Model m({10, 7}, 8, fill);
    std::vector<uint8_t> v(10 * 7 * 8);
    for (size_t i = 0; i < 70; ++i) {
      double x = 0.5 * static_cast<double>(i) - 3;
      std::memcpy(v.data() + 8 * i, &x, 8);
    }
    Box all{{0, 0}, {10, 7}};
    rc = write_box(a, all, v, 8, false);
    if (rc != ZARR_OK) fail.push_back("zarr_write_region: " + status_text(rc));
    m.write(all, v);
    // Grow axis 0, shrink axis 1 (chunk column 2 falls outside and is erased).
    std::vector<uint64_t> s1 = {12, 5};
    rc = zarr_resize(a, 2, s1.data());
    if (rc != ZARR_OK) fail.push_back("zarr_resize [12,5]: " + status_text(rc));
    m.resize(s1);
    // Append 3 rows, then 2 columns.
    std::vector<uint64_t> c0 = {3, 5}, c1 = {15, 2};
    std::vector<uint8_t> rows(3 * 5 * 8), cols(15 * 2 * 8);
    for (size_t i = 0; i < 15; ++i) {
      double x = 100 + static_cast<double>(i);
      std::memcpy(rows.data() + 8 * i, &x, 8);
    }
    for (size_t i = 0; i < 30; ++i) {
      double x = -100 - static_cast<double>(i) / 4;
      std::memcpy(cols.data() + 8 * i, &x, 8);
    }
    rc = zarr_append(a, 0, 2, c0.data(), rows.data(), rows.size());
    if (rc != ZARR_OK) fail.push_back("zarr_append axis 0: " + status_text(rc));
    m.resize({15, 5});
    m.write(Box{{12, 0}, {3, 5}}, rows);
    rc = zarr_append(a, 1, 2, c1.data(), cols.data(), cols.size());
    if (rc != ZARR_OK) fail.push_back("zarr_append axis 1: " + status_text(rc));
    m.resize({15, 7});
    m.write(Box{{0, 5}, {15, 2}}, cols);
    std::vector<uint64_t> shape(2);
    zarr_shape(a, shape.data());
    if (shape != m.shape) fail.push_back("zarr_shape after resize/append: " + u64_json(shape) + ", expected [15,7]");
    a.close();
    add_array_check(w, ArrayCheck{name, path, "\">f8\"", R"({"id":"zlib","level":1})", "C", ".", "-1.5", "{}",
                                  m.shape, {4, 3}},
                    m);
  }
  {
    // Shrinking only: chunks outside the new shape must go (zarr-python's
    // check lists every store key and refuses ones outside the grid).
    const std::string name = "ops_shrink_u2";
    auto& fail = w.failures[name];
    std::string path = w.dir / name;
    std::string meta = R"({"shape":[9,8],"chunks":[2,3],"dtype":"<u2","compressor":null,"fill_value":7,)"
                       R"("order":"F","filters":null,"dimension_separator":"/"})";
    Array a;
    int rc = zarr_create(a.out(), path.c_str(), meta.c_str());
    if (rc != ZARR_OK) {
      fail.push_back("zarr_create: " + status_text(rc));
      return;
    }
    std::vector<uint8_t> fill = {7, 0};
    Model m({9, 8}, 2, fill);
    std::vector<uint8_t> v(9 * 8 * 2);
    for (size_t i = 0; i < 72; ++i) {
      uint16_t x = static_cast<uint16_t>(1000 + 3 * i);
      std::memcpy(v.data() + 2 * i, &x, 2);
    }
    Box all{{0, 0}, {9, 8}};
    rc = write_box(a, all, v, 2, false);
    if (rc != ZARR_OK) fail.push_back("zarr_write_region: " + status_text(rc));
    m.write(all, v);
    std::vector<uint64_t> s1 = {5, 4};
    rc = zarr_resize(a, 2, s1.data());
    if (rc != ZARR_OK) fail.push_back("zarr_resize [5,4]: " + status_text(rc));
    m.resize(s1);
    a.close();
    add_array_check(w, ArrayCheck{name, path, "\"<u2\"", "null", "F", "/", "7", "{}", m.shape, {2, 3}}, m);
  }
  {
    // A chunk overwritten with the fill value everywhere is erased; zarr-python
    // then reads the fill value there.
    const std::string name = "ops_overwrite_with_fill";
    auto& fail = w.failures[name];
    std::string path = w.dir / name;
    std::string meta = R"({"shape":[8],"chunks":[3],"dtype":">i2","compressor":{"id":"gzip","level":1},)"
                       R"("fill_value":5,"filters":null})";
    Array a;
    int rc = zarr_create(a.out(), path.c_str(), meta.c_str());
    if (rc != ZARR_OK) {
      fail.push_back("zarr_create: " + status_text(rc));
      return;
    }
    Model m({8}, 2, {5, 0});
    std::vector<uint8_t> v(16);
    for (size_t i = 0; i < 8; ++i) {
      int16_t x = static_cast<int16_t>(-100 * static_cast<int>(i) - 1);
      std::memcpy(v.data() + 2 * i, &x, 2);
    }
    Box all{{0}, {8}};
    rc = write_box(a, all, v, 2, false);
    if (rc != ZARR_OK) fail.push_back("zarr_write_region: " + status_text(rc));
    m.write(all, v);
    std::vector<uint8_t> fives(6);
    for (size_t i = 0; i < 3; ++i) fives[2 * i] = 5;
    Box second{{3}, {3}};
    rc = write_box(a, second, fives, 2, false);
    if (rc != ZARR_OK) fail.push_back("zarr_write_region (fill): " + status_text(rc));
    m.write(second, fives);
    a.close();
    add_array_check(w, ArrayCheck{name, path, "\">i2\"", R"({"id":"gzip","level":1})", "C", ".", "5", "{}",
                                  m.shape, {3}},
                    m);
    // add_array_check wrote the entry last: name the chunk that must be gone.
    std::string& entry = w.checks.back();
    entry.insert(entry.size() - 1, ",\"absent_keys\":[\"1\"]");
  }
  {
    // A 1-d array grown from empty by appends.
    const std::string name = "ops_append_from_empty_1d";
    auto& fail = w.failures[name];
    std::string path = w.dir / name;
    std::string meta = R"({"shape":[0],"chunks":[5],"dtype":"<i4","compressor":{"id":"lz4","acceleration":1},)"
                       R"("fill_value":-1,"filters":null,"dimension_separator":"/"})";
    Array a;
    int rc = zarr_create(a.out(), path.c_str(), meta.c_str());
    if (rc != ZARR_OK) {
      fail.push_back("zarr_create: " + status_text(rc));
      return;
    }
    std::vector<uint8_t> fill = {0xff, 0xff, 0xff, 0xff};
    Model m({0}, 4, fill);
    int32_t next = 0;
    for (uint64_t n : {7u, 1u, 9u}) {
      std::vector<uint8_t> v(n * 4);
      for (size_t i = 0; i < n; ++i, ++next) std::memcpy(v.data() + 4 * i, &next, 4);
      std::vector<uint64_t> count = {n};
      rc = zarr_append(a, 0, 1, count.data(), v.data(), v.size());
      if (rc != ZARR_OK) fail.push_back("zarr_append " + std::to_string(n) + ": " + status_text(rc));
      uint64_t old = m.shape[0];
      m.resize({old + n});
      m.write(Box{{old}, {n}}, v);
    }
    a.close();
    add_array_check(w, ArrayCheck{name, path, "\"<i4\"", R"({"id":"lz4","acceleration":1})", "C", "/", "-1", "{}",
                                  m.shape, {5}},
                    m);
  }
}

// A hierarchy made with the group calls.
void write_group_case(LibzarrWritten& w) {
  const std::string name = "hierarchy";
  auto& fail = w.failures[name];
  std::string root_path = w.dir / "hierarchy";
  auto check = [&](int rc, const std::string& what) {
    if (rc != ZARR_OK) fail.push_back(what + ": " + status_text(rc));
    return rc == ZARR_OK;
  };
  const std::string root_attrs = "{\"title\":\"interop\",\"n\":[1,2.5,null,true],\"nested\":{\"k\":\"\xc3\xa9\xf0\x9f\x98\x80\"}}";
  Group root, g1, empty;
  // A v2 hierarchy (a new root is v3 by default): zarr-python 2 reads v2.
  if (!check(zarr_group_create_ex(root.out(), root_path.c_str(), root_attrs.c_str(), R"({"zarr_format": 2})"),
             "zarr_group_create_ex")) {
    return;
  }
  if (!check(zarr_group_create_group(g1.out(), root, "g1", "{\"level\":1}"), "zarr_group_create_group g1")) return;
  check(zarr_group_create_group(empty.out(), root, "empty", nullptr), "zarr_group_create_group empty");
  const std::string g1_attrs = "{\"level\":1,\"replaced\":true}";
  check(zarr_group_set_attributes(g1, g1_attrs.c_str()), "zarr_group_set_attributes g1");

  struct Member {
    std::string rel, meta, dtype, comp, order, sep, fill, attrs;
    std::vector<uint64_t> shape, chunks;
    int how;  // 0: zarr_group_create_array from root, 1: from g1, 2: zarr_create with a URL
  };
  std::vector<Member> members = {
      {"top", "", "\"<i8\"", "null", "C", ".", "5", "{\"role\":\"top\"}", {6, 4}, {4, 4}, 0},
      {"g1/g2/deep", "", "\"|u1\"", R"({"id":"gzip","level":5})", "F", "/", "0", "{\"depth\":3}", {7}, {3}, 0},
      {"g1/sibling", "", "\">f4\"", R"({"id":"blosc","cname":"lz4","clevel":5,"shuffle":1,"blocksize":0})", "C",
       "/", "\"NaN\"", "{}", {3, 5}, {2, 2}, 2},
      {"g1/via_g1", "", "\"<u2\"", R"({"id":"bz2","level":1})", "C", ".", "9", "{\"made\":\"from g1\"}", {4}, {4}, 1},
  };
  for (size_t i = 0; i < members.size(); ++i) {
    Member& mb = members[i];
    mb.meta = "{\"shape\":" + u64_json(mb.shape) + ",\"chunks\":" + u64_json(mb.chunks) + ",\"dtype\":" + mb.dtype +
              ",\"compressor\":" + mb.comp + ",\"fill_value\":" + mb.fill + ",\"order\":\"" + mb.order +
              "\",\"filters\":null,\"dimension_separator\":\"" + mb.sep + "\"}";
    Array a;
    int rc;
    std::string path = root_path + "/" + mb.rel;
    if (mb.how == 0) rc = zarr_group_create_array(a.out(), root, mb.rel.c_str(), mb.meta.c_str());
    else if (mb.how == 1) rc = zarr_group_create_array(a.out(), g1, mb.rel.substr(3).c_str(), mb.meta.c_str());
    else rc = zarr_create(a.out(), path.c_str(), mb.meta.c_str());
    if (!check(rc, "creating " + mb.rel)) continue;
    size_t item = zarr_item_size(a);
    std::vector<uint8_t> fill(item);
    int is_null = 0;
    check(zarr_fill_value(a, fill.data(), item, &is_null), "zarr_fill_value " + mb.rel);
    // The fill value bytes are checked by zarr-python (fill_value member); the
    // model writes the whole array so it does not depend on them.
    Model m(mb.shape, item, fill);
    Rng rng(77 + i);
    std::vector<uint8_t> values(static_cast<size_t>(product(mb.shape)) * item);
    for (auto& b : values) b = static_cast<uint8_t>(rng.next());
    Box all{std::vector<uint64_t>(mb.shape.size(), 0), mb.shape};
    check(write_box(a, all, values, item, false), "zarr_write_region " + mb.rel);
    m.write(all, values);
    if (mb.attrs != "{}") check(zarr_set_attributes(a, mb.attrs.c_str()), "zarr_set_attributes " + mb.rel);
    a.close();
    add_array_check(w, ArrayCheck{"hierarchy/" + mb.rel, path, mb.dtype, mb.comp, mb.order, mb.sep, mb.fill,
                                  mb.attrs, mb.shape, mb.chunks},
                    m);
  }
  auto group_check = [&](const std::string& rel, const std::string& attrs, const std::string& groups,
                         const std::string& arrays) {
    w.group_checks.push_back("{\"name\":" + quoted("hierarchy:" + rel) + ",\"path\":" +
                             quoted(rel.empty() ? root_path : root_path + "/" + rel) + ",\"attrs\":" + attrs +
                             ",\"groups\":" + groups + ",\"arrays\":" + arrays + "}");
  };
  group_check("", root_attrs, "[\"empty\",\"g1\"]", "[\"top\"]");
  group_check("g1", g1_attrs, "[\"g2\"]", "[\"sibling\",\"via_g1\"]");
  group_check("g1/g2", "{}", "[]", "[\"deep\"]");
  group_check("empty", "{}", "[]", "[]");
}

void run_libzarr_writer(LibzarrWritten& w) {
  PythonWritten& peer = python_written();
  w.skip = peer.skip;
  if (!w.skip.empty()) return;
  if (!peer.error.empty()) {
    w.error = "the zarr-python writer failed, so there are no zarr-python fill values to compare with:\n" + peer.error;
    return;
  }
  const auto& cases = case_matrix();
  for (size_t i = 0; i < cases.size(); ++i) {
    auto it = peer.cases.find(cases[i].name);
    write_matrix_case(w, cases[i], i, it == peer.cases.end() ? nullptr : &it->second);
  }
  write_resize_cases(w);
  write_group_case(w);

  std::string check = "{\"arrays\":[";
  for (size_t i = 0; i < w.checks.size(); ++i) check += (i ? ",\n" : "") + w.checks[i];
  check += "],\"groups\":[";
  for (size_t i = 0; i < w.group_checks.size(); ++i) check += (i ? ",\n" : "") + w.group_checks[i];
  check += "]}";
  std::string check_path = w.dir / "check.json";
  write_text(check_path, check);
  std::string err_path = w.dir / "check.stderr";
  std::string cmd = shell_quote(python_exe()) + " " + shell_quote(scripts_dir() + "/zarr_python_peer.py") +
                    " check " + shell_quote(check_path) + " 2>" + shell_quote(err_path);
  int rc = run_command(cmd, &w.python_output);
  if (rc != 0) {
    w.error = "zarr_python_peer.py check failed (exit " + std::to_string(rc) + "):\n" +
              (fs::exists(err_path) ? read_text(err_path) : std::string()) + w.python_output;
    return;
  }
  rapidjson::Document d;
  d.Parse(w.python_output.c_str());
  if (d.HasParseError() || !d.IsObject()) {
    w.error = "cannot parse the checker's output:\n" + w.python_output;
    return;
  }
  for (auto it = d.MemberBegin(); it != d.MemberEnd(); ++it) {
    std::vector<std::string> errors;
    for (const auto& e : it->value["errors"].GetArray()) errors.push_back(e.GetString());
    w.results[it->name.GetString()] = {it->value["ok"].GetBool(), errors};
  }
}

LibzarrWritten& libzarr_written() {
  static LibzarrWritten w;
  static bool ran = (run_libzarr_writer(w), true);
  (void)ran;
  return w;
}

// Asserts that the libzarr side of `name` succeeded and zarr-python agreed.
void expect_peer_ok(LibzarrWritten& env, const std::string& name) {
  SCOPED_TRACE(name);
  const auto& fail = env.failures[name];
  EXPECT_TRUE(fail.empty()) << "libzarr failed:" << join_lines(fail);
  auto it = env.results.find(name);
  if (!fail.empty() && it == env.results.end()) return;  // never handed to zarr-python
  ASSERT_NE(it, env.results.end()) << "zarr-python reported nothing on " << name;
  EXPECT_TRUE(it->second.first) << "zarr-python disagrees:" << join_lines(it->second.second);
}

class LibzarrWrites : public testing::TestWithParam<CaseSpec> {};

TEST_P(LibzarrWrites, ZarrPythonReadsIdenticalValues) {
  LibzarrWritten& env = libzarr_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  expect_peer_ok(env, GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Matrix, LibzarrWrites, testing::ValuesIn(case_matrix()), case_name);

TEST(LibzarrWritesOps, ResizeAndAppend) {
  LibzarrWritten& env = libzarr_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  for (const char* name :
       {"ops_resize_append_2d", "ops_shrink_u2", "ops_overwrite_with_fill", "ops_append_from_empty_1d"}) {
    expect_peer_ok(env, name);
  }
}

TEST(LibzarrWritesOps, GroupHierarchy) {
  LibzarrWritten& env = libzarr_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  const auto& fail = env.failures["hierarchy"];
  EXPECT_TRUE(fail.empty()) << "libzarr failed:" << join_lines(fail);
  for (const char* name : {"hierarchy/top", "hierarchy/g1/g2/deep", "hierarchy/g1/sibling", "hierarchy/g1/via_g1",
                           "hierarchy:", "hierarchy:g1", "hierarchy:g1/g2", "hierarchy:empty"}) {
    SCOPED_TRACE(name);
    auto it = env.results.find(name);
    ASSERT_NE(it, env.results.end()) << "zarr-python reported nothing on " << name;
    EXPECT_TRUE(it->second.first) << "zarr-python disagrees:" << join_lines(it->second.second);
  }
}

// The .zarray libzarr writes for a case and the one zarr-python wrote for the
// same case: equal as JSON, and equal as text (docs/c-api.md: "written as
// zarr-python writes it"), once the "dimension_separator": "." line that
// zarr-python adds when the separator is passed explicitly is dropped (libzarr
// leaves the default out, as zarr-python does when it is not given). Skipped
// where zarr-python changes what it was given: -0.0 is normalised to 0.0 and
// 0-d arrays lose their compressor (zarr/storage.py, _init_array_metadata).
TEST_P(LibzarrWrites, ZarrayMatchesZarrPythons) {
  const CaseSpec& c = GetParam();
  LibzarrWritten& env = libzarr_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  PythonWritten& peer = python_written();
  auto it = peer.cases.find(c.name);
  ASSERT_NE(it, peer.cases.end());
  ASSERT_TRUE(it->second.error.empty()) << it->second.error;
  if (it->second.fill != it->second.decoded_fill) GTEST_SKIP() << "zarr-python normalised fill_value " << c.fill_json;
  if (c.shape.empty()) GTEST_SKIP() << "zarr-python drops the compressor of 0-d arrays";
  std::string ours = read_text(env.dir / (c.name + "/.zarray"));
  std::string theirs = read_text(it->second.path + "/.zarray");
  const std::string default_sep = "    \"dimension_separator\": \".\",\n";
  size_t pos = theirs.find(default_sep);
  if (pos != std::string::npos) theirs.erase(pos, default_sep.size());
  rapidjson::Document a, b;
  a.Parse<rapidjson::kParseFullPrecisionFlag>(ours.c_str());
  b.Parse<rapidjson::kParseFullPrecisionFlag>(theirs.c_str());
  ASSERT_FALSE(a.HasParseError()) << ours;
  ASSERT_FALSE(b.HasParseError()) << theirs;
  EXPECT_TRUE(a == b) << "libzarr:\n" << ours << "\nzarr-python:\n" << theirs;
  EXPECT_EQ(ours, theirs) << "same JSON, different text";
}

// Every result zarr-python reported belongs to a case some test asserts on.
TEST(LibzarrWritesOps, EveryCheckedCaseIsAsserted) {
  LibzarrWritten& env = libzarr_written();
  if (!env.skip.empty()) GTEST_SKIP() << env.skip;
  ASSERT_TRUE(env.error.empty()) << env.error;
  EXPECT_EQ(env.results.size(), env.checks.size() + env.group_checks.size());
  // Every case reached zarr-python (libzarr failed on none before handing it over).
  EXPECT_EQ(env.checks.size(), case_matrix().size() + 4 + 4);
  EXPECT_EQ(env.group_checks.size(), 4u);
  size_t ok = 0;
  for (const auto& r : env.results) ok += r.second.first;
  std::cout << "[ interop  ] libzarr -> zarr-python: " << ok << " of " << env.results.size()
            << " arrays and groups read as expected by " << python_written().versions << "\n";
}

// ---------------------------------------------------------------------------
// The matrix itself: it must keep covering what it claims to.

TEST(InteropMatrix, CoversEveryDtypeCompressorOrderSeparatorAndFill) {
  const auto& cases = case_matrix();
  std::map<std::string, int> dtypes, comps, orders, seps, fills;
  std::set<std::string> names;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate case name";
    for (char ch : c.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    ++dtypes[c.dtype.tag];
    ++comps[c.compressor_tag];
    ++orders[c.order];
    ++seps[c.separator];
    ++fills[c.fill_tag];
    // Partial writes: chunk row 0 stays unwritten when there is more than one.
    if (c.name.rfind("edge_", 0) != 0 && !c.shape.empty() && c.shape[0] > c.chunks[0]) {
      for (const Box& b : c.boxes) EXPECT_GE(b.start[0], c.chunks[0]) << "a box writes chunk row 0";
    }
  }
  for (const auto& d : dtype_table()) EXPECT_GE(dtypes[d.tag], 3) << d.tag;
  for (const auto& c : compressor_table()) EXPECT_GE(comps[c.first], 5) << c.first;
  for (const char* o : {"C", "F"}) EXPECT_GE(orders[o], 20) << o;
  for (const char* s : {".", "/"}) EXPECT_GE(seps[s], 20) << s;
  for (const char* f : {"zero", "nz", "nan", "null"}) EXPECT_GE(fills[f], 5) << f;
}

// zarr_info's stored figures are zarr-python's: nbytes_stored (every key of
// the array, metadata included) and nchunks_initialized, on an array libzarr
// wrote with some chunks left unwritten.
TEST(ZarrPythonInfo, StoredBytesAndInitializedChunksMatchZarrPython) {
  const std::string skip = python_unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  const std::string path = dir / "a";
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_create(&a, path.c_str(),
                        R"({"zarr_format": 2, "shape": [10, 9], "chunks": [4, 4], "dtype": "<u2",
                            "compressor": {"id": "zlib", "level": 1}, "fill_value": 0, "filters": null,
                            "order": "C"})"),
            ZARR_OK) << zarr_last_error();
  std::vector<uint16_t> values(5 * 9);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint16_t>(i * 7);
  const uint64_t start[2] = {0, 0}, count[2] = {5, 9};
  ASSERT_EQ(zarr_write_region(a, 2, start, count, values.data(), values.size() * 2), ZARR_OK);
  ASSERT_EQ(zarr_set_attributes(a, R"({"k": 1})"), ZARR_OK);
  char* text = nullptr;
  ASSERT_EQ(zarr_info(a, &text), ZARR_OK) << zarr_last_error();
  rapidjson::Document info;
  info.Parse(text);
  zarr_free(text);
  zarr_close(a);

  std::string out;
  const std::string script =
      "import sys, zarr; z = zarr.open_array(sys.argv[1], mode='r'); "
      "print(z.nbytes, z.nbytes_stored, z.nchunks_initialized, z.nchunks)";
  ASSERT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(path), &out), 0)
      << out;
  std::istringstream figures(out);
  uint64_t nbytes = 0, nbytes_stored = 0, initialized = 0, total = 0;
  figures >> nbytes >> nbytes_stored >> initialized >> total;
  EXPECT_EQ(info["nbytes"].GetUint64(), nbytes);
  EXPECT_EQ(info["nbytes_stored"].GetUint64(), nbytes_stored);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), initialized);
  EXPECT_EQ(info["chunks_total"].GetUint64(), total);
  EXPECT_EQ(initialized, 2u * 3u) << "rows 0-4 touch chunk rows 0 and 1";
}

#if ZARR_HAVE_ZFP
// A v2 array with the zfpy compressor written by libzarr: zarr-python 2.13
// reads its values (within the tolerance) and, writing the same values with
// the same compressor, stores byte-identical chunks. Skips when Debian's
// numcodecs lacks zfpy (python3-zfpy not installed).
TEST(ZarrPythonZfpy, ZarrPythonReadsLibzarrsZfpyArray) {
  const std::string skip = python_unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  std::string probe;
  if (run_command(shell_quote(python_exe()) + " -c " + shell_quote("from numcodecs.zfpy import ZFPY") + " 2>&1", &probe) != 0) {
    GTEST_SKIP() << "numcodecs has no zfpy codec (install python3-zfpy): " << probe;
  }
  TempDir dir;
  const std::string path = dir / "z", theirs = dir / "p";
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_create(&a, path.c_str(),
                        R"({"zarr_format": 2, "shape": [12, 9], "chunks": [5, 4], "dtype": "<f8",
                            "compressor": {"id": "zfpy", "mode": 4, "tolerance": 0.001}, "fill_value": 0,
                            "filters": null, "order": "C"})"),
            ZARR_OK) << zarr_last_error();
  std::vector<double> values(12 * 9);
  for (size_t i = 0; i < values.size(); ++i) values[i] = std::sin(0.1 * static_cast<double>(i)) * 50;
  const uint64_t start[2] = {0, 0}, count[2] = {12, 9};
  ASSERT_EQ(zarr_write_region(a, 2, start, count, values.data(), values.size() * 8), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  std::string out;
  const std::string script =
      "import sys, numpy as np, zarr; from numcodecs.zfpy import ZFPY\n"
      "z = zarr.open_array(sys.argv[1], mode='r')\n"
      "want = np.sin(0.1 * np.arange(108)).reshape(12, 9) * 50\n"
      "assert np.abs(z[:] - want).max() <= 0.001, np.abs(z[:] - want).max()\n"
      "p = zarr.open_array(sys.argv[2], mode='w', shape=(12, 9), chunks=(5, 4), dtype='<f8',\n"
      "                    compressor=ZFPY(mode=4, tolerance=0.001), fill_value=0)\n"
      "p[:] = want\n"
      "print('ok')";
  ASSERT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(path) + " " +
                            shell_quote(theirs) + " 2>&1", &out), 0) << out;
  size_t chunks = 0;
  for (const auto& entry : fs::directory_iterator(theirs)) {
    const std::string name = entry.path().filename().string();
    if (name[0] == '.') continue;
    EXPECT_EQ(read_text(entry.path().string()), read_text(path + "/" + name)) << name;
    ++chunks;
  }
  EXPECT_EQ(chunks, 9u);
}
#endif

TEST(InteropSupport, Sha256KnownAnswers) {
  EXPECT_EQ(sha256_hex("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(sha256_hex(two_blocks.data(), two_blocks.size()),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::string million(1000000, 'a');
  EXPECT_EQ(sha256_hex(million.data(), million.size()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(InteropSupport, SliceAndPasteAreInverse) {
  std::vector<uint64_t> shape = {3, 4, 5};
  std::vector<uint8_t> whole(60 * 2);
  for (size_t i = 0; i < whole.size(); ++i) whole[i] = static_cast<uint8_t>(i);
  std::vector<uint64_t> start = {1, 2, 1}, count = {2, 2, 3};
  std::vector<uint8_t> s = slice_c_order(whole, shape, 2, start, count);
  ASSERT_EQ(s.size(), 24u);
  // element (1,2,1) is index 1*20+2*5+1 = 31; (2,3,3) is 40+15+3 = 58
  EXPECT_EQ(s[0], 62);
  EXPECT_EQ(s[22], 116);
  std::vector<uint8_t> blank(whole.size(), 0);
  paste_c_order(blank, shape, 2, start, count, s.data());
  EXPECT_EQ(slice_c_order(blank, shape, 2, start, count), s);
  EXPECT_EQ(blank[62], 62);
  EXPECT_EQ(blank[60], 0);
}

}  // namespace
}  // namespace zarr::interop
