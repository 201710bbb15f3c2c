// The selection calls against the peers (docs/c-api.md, "Selections"):
//
//  * LibzarrSelectionWrites: libzarr writes a v2 blosc array and a v3 sharded
//    array through zarr_write_orthogonal, zarr_write_points and
//    zarr_write_region_step (repeats included: the last value wins), keeping
//    its own model of the expected contents; zarr-python 2.13 (v2 only: it
//    reads no v3) and zarrita.js (both) read them whole and must find it.
//  * LibzarrSelectionWrites.ZarrPythonReadsTheV2StringArrayWhole: the same
//    selections through the _vlen writes on a v2 vlen-utf8 array of strings.
//  * ZarrPythonWritesLibzarrSelects: zarr-python writes a v2 blosc int32 array
//    and a v2 vlen-utf8 string array and prints its own oindex, vindex and
//    step results; zarr_read_orthogonal / _points / _region_step (and their
//    _vlen forms for the strings) must give the same.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "interop_handles.h"
#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarrita_runner.h"

namespace zarr::interop {
namespace {

using test::vlen_strings;
using test::VlenItems;

constexpr uint64_t kRows = 13, kCols = 11;

// Runs a zarr-python script with `args` as its argv[1..]; its output in *out.
int run_python(const std::string& script, const std::vector<std::string>& args, std::string* out) {
  std::string command = shell_quote(python_exe()) + " -c " + shell_quote(script);
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  return run_command(command + " 2>&1", out);
}

std::vector<int32_t> as_int32(const std::string& bytes) {
  std::vector<int32_t> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

// The selections libzarr writes, and the same applied to a model of the array.
struct SelectionWrites {
  std::vector<uint64_t> rows = {11, 0, 5, 7, 5}, cols = {10, 2, 3};
  std::vector<uint64_t> coords = {12, 10, 0, 0, 6, 4, 3, 9, 6, 4};  // point (6, 4) twice
  uint64_t start[2] = {1, 1}, count[2] = {4, 3}, step[2] = {3, 4};

  void apply(zarr_array* a, std::vector<int32_t>& model) const {
    std::vector<int32_t> outer(rows.size() * cols.size());
    std::iota(outer.begin(), outer.end(), 1000);
    const uint64_t* indices[2] = {rows.data(), cols.data()};
    const uint64_t counts[2] = {rows.size(), cols.size()};
    ASSERT_EQ(zarr_write_orthogonal(a, 2, indices, counts, outer.data(), outer.size() * 4), ZARR_OK)
        << zarr_last_error();
    for (size_t i = 0; i < rows.size(); ++i) {
      for (size_t j = 0; j < cols.size(); ++j) model[rows[i] * kCols + cols[j]] = outer[i * cols.size() + j];
    }
    const std::vector<int32_t> points = {-1, -2, -3, -4, -5};
    ASSERT_EQ(zarr_write_points(a, 2, points.size(), coords.data(), points.data(), points.size() * 4), ZARR_OK)
        << zarr_last_error();
    for (size_t p = 0; p < points.size(); ++p) model[coords[2 * p] * kCols + coords[2 * p + 1]] = points[p];
    std::vector<int32_t> slab(count[0] * count[1]);
    std::iota(slab.begin(), slab.end(), 2000);
    ASSERT_EQ(zarr_write_region_step(a, 2, start, count, step, slab.data(), slab.size() * 4), ZARR_OK)
        << zarr_last_error();
    for (uint64_t i = 0; i < count[0]; ++i) {
      for (uint64_t j = 0; j < count[1]; ++j) {
        model[(start[0] + i * step[0]) * kCols + start[1] + j * step[1]] = slab[i * count[1] + j];
      }
    }
  }
};

// SelectionWrites' selections through the _vlen writes, and the same on a model.
void apply_string_selections(zarr_array* a, std::vector<std::string>& model) {
  const SelectionWrites sel;
  const std::vector<std::string> outer = vlen_strings("o", 0, sel.rows.size() * sel.cols.size());
  const VlenItems outer_in(outer);
  const uint64_t* indices[2] = {sel.rows.data(), sel.cols.data()};
  const uint64_t counts[2] = {sel.rows.size(), sel.cols.size()};
  ASSERT_EQ(zarr_write_orthogonal_vlen(a, 2, indices, counts, outer_in.offsets.data(), outer_in.offsets.size(),
                                       outer_in.data.data(), outer_in.data.size()),
            ZARR_OK)
      << zarr_last_error();
  for (size_t i = 0; i < sel.rows.size(); ++i) {
    for (size_t j = 0; j < sel.cols.size(); ++j) model[sel.rows[i] * kCols + sel.cols[j]] = outer[i * sel.cols.size() + j];
  }
  const size_t npoints = sel.coords.size() / 2;
  const std::vector<std::string> points = vlen_strings("p", 1, npoints);
  const VlenItems points_in(points);
  ASSERT_EQ(zarr_write_points_vlen(a, 2, npoints, sel.coords.data(), points_in.offsets.data(),
                                   points_in.offsets.size(), points_in.data.data(), points_in.data.size()),
            ZARR_OK)
      << zarr_last_error();
  for (size_t p = 0; p < npoints; ++p) model[sel.coords[2 * p] * kCols + sel.coords[2 * p + 1]] = points[p];
  const std::vector<std::string> slab = vlen_strings("s", 1, sel.count[0] * sel.count[1]);
  const VlenItems slab_in(slab);
  ASSERT_EQ(zarr_write_region_step_vlen(a, 2, sel.start, sel.count, sel.step, slab_in.offsets.data(),
                                        slab_in.offsets.size(), slab_in.data.data(), slab_in.data.size()),
            ZARR_OK)
      << zarr_last_error();
  for (uint64_t i = 0; i < sel.count[0]; ++i) {
    for (uint64_t j = 0; j < sel.count[1]; ++j) {
      model[(sel.start[0] + i * sel.step[0]) * kCols + sel.start[1] + j * sel.step[1]] = slab[i * sel.count[1] + j];
    }
  }
}

// Creates `metadata` at `path`, writes 0, 1, 2, ... over part of it (rows 0..9:
// the rest stays the fill value -1), then the selections; the expected contents.
std::vector<int32_t> write_through_selections(const std::string& path, const std::string& metadata) {
  std::vector<int32_t> model(kRows * kCols, -1);
  Array a;
  EXPECT_EQ(zarr_create(a.out(), path.c_str(), metadata.c_str()), ZARR_OK) << zarr_last_error();
  std::vector<int32_t> base(10 * kCols);
  std::iota(base.begin(), base.end(), 0);
  const uint64_t start[2] = {0, 0}, count[2] = {10, kCols};
  EXPECT_EQ(zarr_write_region(a, 2, start, count, base.data(), base.size() * 4), ZARR_OK) << zarr_last_error();
  std::copy(base.begin(), base.end(), model.begin());
  SelectionWrites().apply(a, model);
  return model;
}

const char* kV2Blosc = R"({"shape": [13, 11], "chunks": [4, 3], "dtype": "<i4", "fill_value": -1,
  "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}})";

const char* kV3Sharded = R"({"zarr_format": 3, "node_type": "array", "shape": [13, 11], "data_type": "int32",
  "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 6]}}, "fill_value": -1,
  "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [4, 3],
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
               {"name": "gzip", "configuration": {"level": 1}}],
    "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})";

}  // namespace

TEST(LibzarrSelectionWrites, ZarrPythonReadsTheV2ArrayWhole) {
  const std::string why = python_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  zarr::test::TempDir dir;
  const std::vector<int32_t> model = write_through_selections(dir / "v2", kV2Blosc);
  const char* script = R"(
import sys, numpy as np, zarr
a = zarr.open_array(sys.argv[1], mode="r")
assert a.compressor.codec_id == "blosc", a.compressor
open(sys.argv[2], "wb").write(a[:].astype("<i4").tobytes())
)";
  std::string out;
  ASSERT_EQ(run_python(script, {dir / "v2", dir / "v2.bin"}, &out), 0) << out;
  EXPECT_EQ(as_int32(read_text(dir / "v2.bin")), model);
}

// A v2 vlen-utf8 array of strings, zlib-compressed, written whole first, then
// through the _vlen selection writes: zarr-python reads every element as the model has it.
TEST(LibzarrSelectionWrites, ZarrPythonReadsTheV2StringArrayWhole) {
  const std::string why = python_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  zarr::test::TempDir dir;
  Array a;
  ASSERT_EQ(zarr_create(a.out(), (dir / "strings").c_str(), R"({"shape": [13, 11], "chunks": [4, 3], "dtype": "|O",
    "fill_value": null, "filters": [{"id": "vlen-utf8"}], "compressor": {"id": "zlib", "level": 1}})"),
            ZARR_OK)
      << zarr_last_error();
  std::vector<std::string> model = vlen_strings("b", 0, kRows * kCols);
  const VlenItems base(model);
  const uint64_t start[2] = {0, 0}, count[2] = {kRows, kCols};
  ASSERT_EQ(zarr_write_region_vlen(a, 2, start, count, base.offsets.data(), base.offsets.size(), base.data.data(),
                                   base.data.size()),
            ZARR_OK)
      << zarr_last_error();
  apply_string_selections(a, model);
  const char* script = R"(
import sys, json, zarr
a = zarr.open_array(sys.argv[1], mode="r")
assert a.filters[0].codec_id == "vlen-utf8", a.filters
json.dump(a[:].ravel().tolist(), open(sys.argv[2], "w"))
)";
  std::string out;
  ASSERT_EQ(run_python(script, {dir / "strings", dir / "strings.json"}, &out), 0) << out;
  rapidjson::Document got;
  got.Parse(read_text(dir / "strings.json").c_str());
  ASSERT_FALSE(got.HasParseError());
  std::vector<std::string> read;
  for (const auto& v : got.GetArray()) read.emplace_back(v.GetString(), v.GetStringLength());
  EXPECT_EQ(read, model);
}

TEST(LibzarrSelectionWrites, ZarritaReadsTheV2AndV3ArraysWhole) {
  if (!zarrita_peer().skip.empty()) GTEST_SKIP() << zarrita_peer().skip;
  zarr::test::TempDir dir;
  const std::vector<int32_t> v2 = write_through_selections(dir / "v2", kV2Blosc);
  const std::vector<int32_t> v3 = write_through_selections(dir / "v3", kV3Sharded);
  const std::string spec = R"({"cases": [{"name": "v2", "format": 2, "path": ")" + (dir / "v2") +
                           R"(", "out": ")" + (dir / "v2") + R"(", "box": null}, {"name": "v3", "path": ")" +
                           (dir / "v3") + R"(", "out": ")" + (dir / "v3") + R"(", "box": null}]})";
  rapidjson::Document results;
  ASSERT_EQ(run_zarrita("read", spec, dir.path(), results), "");
  for (const auto& r : results.GetArray()) {
    EXPECT_TRUE(r["ok"].GetBool()) << r["name"].GetString() << ": "
                                   << (r.HasMember("error") ? r["error"].GetString() : "");
  }
  EXPECT_EQ(as_int32(read_text(dir / "v2.whole.bin")), v2);
  EXPECT_EQ(as_int32(read_text(dir / "v3.whole.bin")), v3);
}

namespace {

// zarr-python writes two v2 arrays (int32 blosc, strings vlen-utf8) and the
// results of its own oindex, vindex and step selections on them.
const char* kZarrPythonSelects = R"(
import sys, json, numpy as np, zarr, numcodecs
root = sys.argv[1]
rng = np.random.default_rng(22)
numbers = rng.integers(-10**6, 10**6, size=(13, 11), dtype="<i4")
a = zarr.open_array(root + "/numbers", mode="w", shape=(13, 11), chunks=(4, 3), dtype="<i4",
                    compressor=numcodecs.Blosc("zstd", 3, numcodecs.Blosc.BITSHUFFLE))
a[:] = numbers
rows, cols = [12, 0, 5, 5, 3], [10, 1, 2, 2]
pr, pc = [12, 0, 6, 6, 3, 9], [10, 0, 4, 4, 7, 1]
open(root + "/oindex.bin", "wb").write(a.oindex[rows, cols].astype("<i4").tobytes())
open(root + "/vindex.bin", "wb").write(a.vindex[pr, pc].astype("<i4").tobytes())
open(root + "/step.bin", "wb").write(a[1:13:3, 2:11:4].astype("<i4").tobytes())
words = np.array(["w%d-%d%s" % (i, j, "\u00e9" * ((i + j) % 4)) for i in range(13) for j in range(11)],
                 dtype=object).reshape(13, 11)
s = zarr.open_array(root + "/strings", mode="w", shape=(13, 11), chunks=(4, 3), dtype=object,
                    object_codec=numcodecs.VLenUTF8(), compressor=numcodecs.Zlib(1))
s[:] = words
json.dump({"oindex": s.oindex[rows, cols].ravel().tolist(), "vindex": s.vindex[pr, pc].tolist(),
           "step": s[1:13:3, 2:11:4].ravel().tolist()}, open(root + "/strings.json", "w"))
)";

struct PeerSelections {
  std::vector<uint64_t> rows = {12, 0, 5, 5, 3}, cols = {10, 1, 2, 2};
  std::vector<uint64_t> coords = {12, 10, 0, 0, 6, 4, 6, 4, 3, 7, 9, 1};
  uint64_t start[2] = {1, 2}, count[2] = {4, 3}, step[2] = {3, 4};
};

// A _vlen read of n elements, sized first with capacity 0.
template <typename Read>
std::vector<std::string> read_strings(size_t n, Read read) {
  std::vector<uint64_t> offsets(n + 1);
  size_t needed = 0;
  read(offsets.data(), offsets.size(), nullptr, 0, &needed);
  std::string data(needed, '\0');
  EXPECT_EQ(read(offsets.data(), offsets.size(), data.data(), data.size(), &needed), ZARR_OK) << zarr_last_error();
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(data.substr(offsets[i], offsets[i + 1] - offsets[i]));
  return out;
}

std::vector<std::string> string_list(const rapidjson::Value& v) {
  std::vector<std::string> out;
  for (const auto& s : v.GetArray()) out.emplace_back(s.GetString(), s.GetStringLength());
  return out;
}

}  // namespace

TEST(ZarrPythonWritesLibzarrSelects, SelectionsMatchZarrPythonsOwn) {
  const std::string why = python_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  zarr::test::TempDir dir;
  std::string out;
  ASSERT_EQ(run_python(kZarrPythonSelects, {dir.path()}, &out), 0) << out;
  const PeerSelections sel;
  const uint64_t* indices[2] = {sel.rows.data(), sel.cols.data()};
  const uint64_t counts[2] = {sel.rows.size(), sel.cols.size()};
  const uint64_t npoints = sel.coords.size() / 2;

  Array a;
  ASSERT_EQ(zarr_open(a.out(), (dir / "numbers").c_str(), "r"), ZARR_OK) << zarr_last_error();
  std::vector<int32_t> outer(sel.rows.size() * sel.cols.size()), points(npoints), slab(12);
  ASSERT_EQ(zarr_read_orthogonal(a, 2, indices, counts, outer.data(), outer.size() * 4), ZARR_OK)
      << zarr_last_error();
  EXPECT_EQ(outer, as_int32(read_text(dir / "oindex.bin")));
  ASSERT_EQ(zarr_read_points(a, 2, npoints, sel.coords.data(), points.data(), points.size() * 4), ZARR_OK);
  EXPECT_EQ(points, as_int32(read_text(dir / "vindex.bin")));
  ASSERT_EQ(zarr_read_region_step(a, 2, sel.start, sel.count, sel.step, slab.data(), slab.size() * 4), ZARR_OK);
  EXPECT_EQ(slab, as_int32(read_text(dir / "step.bin")));

  Array s;
  ASSERT_EQ(zarr_open(s.out(), (dir / "strings").c_str(), "r"), ZARR_OK) << zarr_last_error();
  rapidjson::Document want;
  want.Parse(read_text(dir / "strings.json").c_str());
  ASSERT_FALSE(want.HasParseError());
  EXPECT_EQ(read_strings(outer.size(), [&](uint64_t* o, size_t n, void* d, size_t c, size_t* z) {
              return zarr_read_orthogonal_vlen(s, 2, indices, counts, o, n, d, c, z);
            }),
            string_list(want["oindex"]));
  EXPECT_EQ(read_strings(npoints, [&](uint64_t* o, size_t n, void* d, size_t c, size_t* z) {
              return zarr_read_points_vlen(s, 2, npoints, sel.coords.data(), o, n, d, c, z);
            }),
            string_list(want["vindex"]));
  EXPECT_EQ(read_strings(12, [&](uint64_t* o, size_t n, void* d, size_t c, size_t* z) {
              return zarr_read_region_step_vlen(s, 2, sel.start, sel.count, sel.step, o, n, d, c, z);
            }),
            string_list(want["step"]));
}

}  // namespace zarr::interop
