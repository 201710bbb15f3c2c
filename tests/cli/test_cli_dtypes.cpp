// zarrtool create and cp with every data type libzarr reads (issue 24): they
// refused strings, bytes, datetimes and objects in v3 ("<U6" is not
// supported), and a group copy stopped at its first string array. The
// conversions are the library's (zarr_data_type_form: the same mapping as
// zarr_create_from_desc and zarr_migrate_v2_to_v3).
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "cli_runner.h"
#include "support/test_support.h"

namespace fs = std::filesystem;

namespace {

using namespace zarrtool_test;
using zarr::test::TempDir;

bool have_zarr_python() { return python_has("zarr, numcodecs"); }


// The data_type member of a v3 array, compact.
std::string v3_data_type(const fs::path& array) {
  rapidjson::Document doc = parse(read_text(array / "zarr.json"));
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  doc["data_type"].Accept(writer);
  return buffer.GetString();
}

// --dtype as a user types it -> what each format's metadata then holds.
struct TypeCase {
  const char* dtype;
  const char* v3;        // compact data_type JSON
  const char* v2;        // dtype
  const char* v2_codec;  // the object codec (first filter), or ""
};
const TypeCase kTypes[] = {
    {"<U6", R"({"name":"fixed_length_utf32","configuration":{"length_bytes":24}})", "<U6", ""},
    {"|S2", R"({"name":"null_terminated_bytes","configuration":{"length_bytes":2}})", "|S2", ""},
    {"|V4", R"({"name":"raw_bytes","configuration":{"length_bytes":4}})", "|V4", ""},
    {"string", R"("string")", "|O", "vlen-utf8"},
    {"variable_length_bytes", R"("variable_length_bytes")", "|O", "vlen-bytes"},
    {"<M8[s]", R"({"name":"numpy.datetime64","configuration":{"unit":"s","scale_factor":1}})", "<M8[s]", ""},
    {"<M8[ns]", R"({"name":"numpy.datetime64","configuration":{"unit":"ns","scale_factor":1}})", "<M8[ns]", ""},
    {"<M8[D]", R"({"name":"numpy.datetime64","configuration":{"unit":"D","scale_factor":1}})", "<M8[D]", ""},
    {"<m8[10ms]", R"({"name":"numpy.timedelta64","configuration":{"unit":"ms","scale_factor":10}})", "<m8[10ms]", ""},
    {"<f2", R"("float16")", "<f2", ""},
    {"complex128", R"("complex128")", "<c16", ""},
    {"bool", R"("bool")", "|b1", ""},
    {">i4", R"("int32")", ">i4", ""},
};

TEST(CliDtypes, CreateMakesEveryDataTypeInBothFormats) {
  TempDir dir;
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.dtype);
    const fs::path v3 = dir / (std::string("v3_") + std::to_string(&t - kTypes));
    RunResult r = run_tool({"create", v3.string(), "--shape", "4", "--dtype", t.dtype, "--format", "3"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(v3_data_type(v3), t.v3);
    const fs::path v2 = dir / (std::string("v2_") + std::to_string(&t - kTypes));
    r = run_tool({"create", v2.string(), "--shape", "4", "--dtype", t.dtype, "--format", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    rapidjson::Document zarray = parse(read_text(v2 / ".zarray"));
    EXPECT_STREQ(zarray["dtype"].GetString(), t.v2);
    if (*t.v2_codec) {
      ASSERT_TRUE(zarray["filters"].IsArray());
      EXPECT_STREQ(zarray["filters"][0]["id"].GetString(), t.v2_codec);
    }
    EXPECT_EQ(run_tool({"cat", v3.string()}).exit_code, 0);
    EXPECT_EQ(run_tool({"cat", v2.string()}).exit_code, 0);
  }
}

// What a format cannot hold is refused naming the type and why, and
// nothing is created.
TEST(CliDtypes, CreateRefusesByNameWhatAFormatCannotHold) {
  TempDir dir;
  // A structured type is a v3 struct, unless a field is a subarray.
  const std::string structured = R"([["a","<i4"],["b","<f8",[2]]])";
  RunResult r = run_tool({"create", dir / "s3", "--shape", "2", "--dtype", structured, "--format", "3"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("field \"b\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("subarray"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "s3"));
  r = run_tool({"create", dir / "s2", "--shape", "2", "--dtype", structured, "--format", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_tool({"create", dir / "struct", "--shape", "2", "--dtype", R"([["a","<i4"],["b","<f8"]])", "--format", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_text(fs::path(dir / "struct") / "zarr.json").find("\"name\": \"struct\""), std::string::npos);
  r = run_tool({"info", dir / "struct"});
  EXPECT_NE(r.out.find(R"([["a","<i4"],["b","<f8"]])"), std::string::npos) << r.out;
  for (const char* format : {"2", "3"}) {
    r = run_tool({"create", dir / (std::string("o") + format), "--shape", "2", "--dtype", "|O", "--format", format});
    EXPECT_EQ(r.exit_code, 1) << format;
    EXPECT_NE(r.err.find("name the type \"string\" or \"variable_length_bytes\""), std::string::npos) << r.err;
  }
  r = run_tool({"create", dir / "x", "--shape", "2", "--dtype", "<Q7"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("<Q7"), std::string::npos) << r.err;
}

// An xarray-like dataset as zarr-python 2.13 writes it (consolidated, with
// _ARRAY_DIMENSIONS): every data type libzarr reads and v3 can hold.
const char kWriteDataset[] =
    "import sys, zarr, numpy as np, numcodecs\n"
    "g = zarr.open_group(sys.argv[1], mode='w')\n"
    "g.attrs['title'] = 'every type'\n"
    "def put(name, values, **kw):\n"
    "    a = g.array(name, values, chunks=2, **kw)\n"
    "    a.attrs['_ARRAY_DIMENSIONS'] = ['x']\n"
    "put('fixed_text', np.array(['ab', 'cdef', '', 'g\\u00e9']))\n"
    "put('text', np.array(['ab', 'cdef', '', 'g\\u00e9'], dtype=object), object_codec=numcodecs.VLenUTF8())\n"
    "put('blobs', np.array([b'ab', b'\\x00c', b'', b'xyz'], dtype=object), object_codec=numcodecs.VLenBytes())\n"
    "put('fixed_bytes', np.array([b'ab', b'c', b'', b'de'], dtype='S2'))\n"
    "put('raw', np.array([b'ab', b'c', b'', b'de'], dtype='V2'))\n"
    "put('time', np.array(['2020-01-01', '2021-02-03T04:05:06', 'NaT', '1969-12-31'], dtype='M8[s]'))\n"
    "put('time_ns', np.array(['2020-01-01T00:00:00.000000001', 'NaT', '2262-04-11', '1677-09-22'], dtype='M8[ns]'))\n"
    "put('days', np.array(['2020-01-01', '1900-02-03', 'NaT', '2100-12-31'], dtype='M8[D]'))\n"
    "put('span', np.array([1, -2, 0, 2**40], dtype='m8[10ms]'))\n"
    "put('half', np.array([1.5, -0.0, np.inf, 65504], dtype='<f2'))\n"
    "put('wave', np.array([1+2j, -3j, np.nan, 0], dtype='<c16'))\n"
    "put('flag', np.array([True, False, True, True]))\n"
    "put('big', np.array([1, -2, 3, 2**31 - 1], dtype='>i4'), fill_value=7)\n"
    "zarr.consolidate_metadata(sys.argv[1])\n";

// Compares every array of argv[2] (as zarr-python 2.13 reads it) with argv[1]'s.
const char kCompare[] =
    "import sys, zarr, numpy as np\n"
    "a = zarr.open_group(sys.argv[1], mode='r')\n"
    "b = zarr.open_group(sys.argv[2], mode='r')\n"
    "assert sorted(a.array_keys()) == sorted(b.array_keys()), (list(a.array_keys()), list(b.array_keys()))\n"
    "assert b.attrs['title'] == 'every type'\n"
    "for k in a.array_keys():\n"
    "    x, y = a[k][:], b[k][:]\n"
    "    assert x.dtype.newbyteorder('=') == y.dtype.newbyteorder('='), (k, x.dtype, y.dtype)\n"
    "    same = [str(p) == str(q) if x.dtype.kind in 'MmcfO' else p == q for p, q in zip(x.tolist(), y.tolist())]\n"
    "    assert all(same), (k, x, y)\n"
    "    assert b[k].attrs['_ARRAY_DIMENSIONS'] == ['x'], k\n"
    "print('same')\n";

// v2 -> v3 -> v2, the values compared by zarr-python 2.13 with what it
// wrote. The copy of a group with strings used to stop at its first string
// array with one array copied.
TEST(CliDtypes, CpCopiesEveryDataTypeV2ToV3AndBackKeepingValues) {
  if (!have_zarr_python()) GTEST_SKIP() << python() << " has no zarr";
  TempDir dir;
  const std::string source = dir / "v2", v3 = dir / "v3", back = dir / "back", rechunked = dir / "rechunked";
  std::string out;
  ASSERT_EQ(run_python(kWriteDataset, {source}, &out), 0) << out;
  RunResult r = run_tool({"cp", source, v3, "--format", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(v3_data_type(fs::path(v3) / "fixed_text"), R"({"name":"fixed_length_utf32","configuration":{"length_bytes":16}})");
  EXPECT_EQ(v3_data_type(fs::path(v3) / "text"), R"("string")");
  EXPECT_EQ(v3_data_type(fs::path(v3) / "blobs"), R"("variable_length_bytes")");
  EXPECT_EQ(run_tool({"cat", v3 + "/time"}).out, run_tool({"cat", source + "/time"}).out);
  EXPECT_EQ(run_tool({"cat", v3 + "/text"}).out, "\"ab\",\"cdef\",\"\",\"g\xc3\xa9\"\n");
  r = run_tool({"cp", v3, back, "--format", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out.clear();
  EXPECT_EQ(run_python(kCompare, {source, back}, &out), 0) << out;
  // Within v2, rechunked: the object codec comes with the data type.
  r = run_tool({"cp", source, rechunked, "--chunks", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out.clear();
  EXPECT_EQ(run_python(kCompare, {source, rechunked}, &out), 0) << out;
}

// Structured types and json2 object arrays copy within v2; structured ones
// go to v3 (a struct) and back with their values; json2 to v3 is refused
// naming the array and the reason, before anything is written.
TEST(CliDtypes, CpKeepsStructuredAndJson2InV2AndRefusesJson2InV3ByName) {
  if (!have_zarr_python()) GTEST_SKIP() << python() << " has no zarr";
  TempDir dir;
  const std::string source = dir / "v2";
  std::string out;
  const char script[] =
      "import sys, zarr, numpy as np, numcodecs\n"
      "g = zarr.open_group(sys.argv[1], mode='w')\n"
      "g.attrs['title'] = 'every type'\n"
      "g.array('json', np.array(['x', 'yz', 'w', 'v'], dtype=object), object_codec=numcodecs.JSON(), chunks=2)\n"
      "g.array('record', np.array([(1, 2.5), (3, 4.5), (5, 6.5)], dtype=[('a', '<i4'), ('b', '<f8')]), chunks=2)\n"
      "for k in g.array_keys(): g[k].attrs['_ARRAY_DIMENSIONS'] = ['x']\n";
  ASSERT_EQ(run_python(script, {source}, &out), 0) << out;
  const std::string copy = dir / "copy";
  RunResult r = run_tool({"cp", source, copy, "--chunks", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out.clear();
  EXPECT_EQ(run_python(kCompare, {source, copy}, &out), 0) << out;
  r = run_tool({"cp", source + "/record", dir / "r3", "--format", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_text(fs::path(dir / "r3") / "zarr.json").find("\"name\": \"struct\""), std::string::npos);
  r = run_tool({"cp", dir / "r3", dir / "r2", "--format", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out.clear();
  EXPECT_EQ(run_python("import sys, zarr\n"
                       "a, b = zarr.open_array(sys.argv[1], mode='r'), zarr.open_array(sys.argv[2], mode='r')\n"
                       "assert a.dtype == b.dtype and a[:].tolist() == b[:].tolist(), (a[:], b[:])\n",
                       {source + "/record", dir / "r2"}, &out),
            0)
      << out;
  r = run_tool({"cp", source, dir / "g3", "--format", "3"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the json2 object codec has no Zarr v3 form"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "g3"));
}

// A v3 array of each extension type copies to v3 with new chunks and to v2.
TEST(CliDtypes, CpOfV3ExtensionTypesKeepsTheirSpellingAndValues) {
  TempDir dir;
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.dtype);
    const std::string n = std::to_string(&t - kTypes);
    const std::string source = dir / ("s" + n);
    ASSERT_EQ(run_tool({"create", source, "--shape", "4", "--dtype", t.dtype, "--chunks", "2", "--format", "3"}).exit_code, 0);
    RunResult r = run_tool({"cp", source, dir / ("c" + n), "--chunks", "4"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(v3_data_type(dir / ("c" + n)), t.v3);
    r = run_tool({"cp", source, dir / ("b" + n), "--format", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_STREQ(parse(read_text(fs::path(dir / ("b" + n)) / ".zarray"))["dtype"].GetString(),
                 std::string(t.v2) == ">i4" ? "<i4" : t.v2);
    EXPECT_EQ(run_tool({"cat", dir / ("b" + n)}).out, run_tool({"cat", source}).out);
  }
}

}  // namespace

namespace {

using namespace zarrtool_test;
using zarr::test::TempDir;

// A dataset as xarray writes it through zarr-python 2.13 (consolidated
// metadata, _ARRAY_DIMENSIONS, CF-encoded times, a fixed-width string
// coordinate), handled with zarrtool as a user would: looked at, verified, a
// variable removed (xarray's consolidated open no longer sees it), then
// copied to Zarr v3, which libzarr's xarray backend opens to the same values.
TEST(CliDtypes, AnXarrayDatasetIsInspectedChangedAndCopiedToV3) {
  if (!python_has("xarray, zarr")) {
    GTEST_SKIP() << python() << " has no xarray or zarr";
  }
  TempDir dir;
  const std::string ds = dir / "ds.zarr", v3 = dir / "ds3.zarr";
  const std::string write =
      "import sys, numpy as np, pandas as pd, xarray as xr\n"
      "ds = xr.Dataset({'temperature': (('time', 'lat'), np.arange(12.0).reshape(4, 3)),\n"
      "                 'station': (('lat',), np.array(['a', 'bb', 'ccc'])),\n"
      "                 'flag': (('lat',), np.array([1, 0, 1], dtype='i1'))},\n"
      "                coords={'time': pd.date_range('2020-01-01', periods=4), 'lat': [10., 20., 30.]},\n"
      "                attrs={'title': 'xarray test'})\n"
      "ds.to_zarr(sys.argv[1], consolidated=True)\n";
  std::string out;
  ASSERT_EQ(run_python(write, {ds}, &out), 0) << out;
  ASSERT_TRUE(fs::exists(fs::path(ds) / ".zmetadata"));

  RunResult tree = run_tool({"tree", ds});
  EXPECT_NE(tree.out.find("station (3,) <U3"), std::string::npos) << tree.out;
  EXPECT_NE(tree.out.find("temperature (4, 3) float64"), std::string::npos) << tree.out;
  RunResult dump = run_tool({"dump", ds});
  EXPECT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_NE(dump.out.find("xarray test"), std::string::npos) << dump.out;
  EXPECT_NE(dump.out.find("_ARRAY_DIMENSIONS"), std::string::npos) << dump.out;
  EXPECT_EQ(run_tool({"cat", ds + "/station"}).out, "\"a\",\"bb\",\"ccc\"\n");
  RunResult verify = run_tool({"verify", ds});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;

  ASSERT_EQ(run_tool({"rm", ds + "/flag", "--yes"}).exit_code, 0);
  out.clear();
  const std::string reopen =
      "import sys, xarray as xr\n"
      "ds = xr.open_zarr(sys.argv[1], consolidated=True)\n"
      "print(sorted(ds.variables), float(ds.temperature.sum()), list(ds.station.values))\n";
  ASSERT_EQ(run_python(reopen, {ds}, &out), 0) << out;
  EXPECT_EQ(out, "['lat', 'station', 'temperature', 'time'] 66.0 ['a', 'bb', 'ccc']\n");

  RunResult cp = run_tool({"cp", ds, v3, "--format", "3"});
  ASSERT_EQ(cp.exit_code, 0) << cp.err;
  EXPECT_NE(read_text(fs::path(v3) / "zarr.json").find("consolidated_metadata"), std::string::npos)
      << "the copy of a consolidated group is consolidated";
  if (!ZARR_BUILD_LOADS_IN_PYTHON) {
    GTEST_SKIP() << "the rest reads the copy through libzarr's Python binding, which cannot load a "
                    "sanitizer-built libzarr (the normal build runs it)";
  }
  const std::string through_libzarr =
      "import sys, xarray as xr\n"
      "sys.path.insert(0, sys.argv[2])\n"
      "from libzarr.xarray_backend import LibzarrBackendEntrypoint\n"
      "a = xr.open_zarr(sys.argv[1], consolidated=True).load()\n"
      "b = xr.open_dataset(sys.argv[3], engine=LibzarrBackendEntrypoint).load()\n"
      "xr.testing.assert_identical(a, b)\n"
      "print(b.time.dtype, list(b.station.values))\n";
  setenv("LIBZARR_PATH", ZARR_BUILD_ROOT, 1);  // the binding of this checkout loads this build
  out.clear();
  ASSERT_EQ(run_python(through_libzarr, {ds, std::string(ZARR_SOURCE_ROOT) + "/bindings/python", v3}, &out), 0)
      << out;
  EXPECT_EQ(out, "datetime64[ns] ['a', 'bb', 'ccc']\n");
}

}  // namespace

namespace {

// `zarrtool create --dtype i4` was refused ("data type \"i4\" is not
// supported": only '<i4' was taken), though zarr-python takes every NumPy
// spelling through numpy.dtype. Each is now the typestr numpy.dtype gives
// (little endian when no byte order is written), in both formats; what is
// no type is refused naming it as written.
TEST(CliDtypes, CreateTakesNumPysSpellings) {
  struct Spelling {
    const char* dtype;
    const char* v2;  // numpy.dtype(dtype).str (str: zarr-python's vlen-utf8 object array)
    const char* v3;  // compact data_type JSON
  };
  const Spelling spellings[] = {
      {"i4", "<i4", R"("int32")"},          {"f8", "<f8", R"("float64")"},       {"u1", "|u1", R"("uint8")"},
      {"i1", "|i1", R"("int8")"},           {"b1", "|b1", R"("bool")"},          {"?", "|b1", R"("bool")"},
      {"c8", "<c8", R"("complex64")"},      {"e", "<f2", R"("float16")"},        {"d", "<f8", R"("float64")"},
      {"=i2", "<i2", R"("int16")"},         {"int32", "<i4", R"("int32")"},      {"float32", "<f4", R"("float32")"},
      {"uint8", "|u1", R"("uint8")"},       {"bool", "|b1", R"("bool")"},        {"complex64", "<c8", R"("complex64")"},
      {"int", "<i8", R"("int64")"},         {"float", "<f8", R"("float64")"},    {"float64", "<f8", R"("float64")"},
      {"U6", "<U6", R"({"name":"fixed_length_utf32","configuration":{"length_bytes":24}})"},
      {"<U6", "<U6", R"({"name":"fixed_length_utf32","configuration":{"length_bytes":24}})"},
      {"S4", "|S4", R"({"name":"null_terminated_bytes","configuration":{"length_bytes":4}})"},
      {"M8[ns]", "<M8[ns]", R"({"name":"numpy.datetime64","configuration":{"unit":"ns","scale_factor":1}})"},
      {"datetime64[ns]", "<M8[ns]", R"({"name":"numpy.datetime64","configuration":{"unit":"ns","scale_factor":1}})"},
      {"m8[s]", "<m8[s]", R"({"name":"numpy.timedelta64","configuration":{"unit":"s","scale_factor":1}})"},
      {"timedelta64[s]", "<m8[s]", R"({"name":"numpy.timedelta64","configuration":{"unit":"s","scale_factor":1}})"},
      {"str", "|O", R"("string")"},         {"string", "|O", R"("string")"},
  };
  TempDir dir;
  for (const Spelling& s : spellings) {
    SCOPED_TRACE(s.dtype);
    const fs::path v2 = dir / (std::string("v2_") + std::to_string(&s - spellings));
    RunResult r = run_tool({"create", v2.string(), "--shape", "3", "--dtype", s.dtype, "--format", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_STREQ(parse(read_text(v2 / ".zarray"))["dtype"].GetString(), s.v2);
    const fs::path v3 = dir / (std::string("v3_") + std::to_string(&s - spellings));
    r = run_tool({"create", v3.string(), "--shape", "3", "--dtype", s.dtype});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(v3_data_type(v3), s.v3);
  }
  // A '>' is kept in v3 as the bytes codec's endian: the default chain,
  // which is little endian, was written instead.
  for (const char* big : {">i4", ">f2", ">M8[ns]"}) {
    SCOPED_TRACE(big);
    const fs::path v3 = dir / (std::string("big_") + big);
    ASSERT_EQ(run_tool({"create", v3.string(), "--shape", "3", "--dtype", big, "--format", "3"}).exit_code, 0);
    const rapidjson::Document meta = parse(read_text(v3 / "zarr.json"));
    ASSERT_TRUE(meta.HasMember("codecs"));
    EXPECT_STREQ(meta["codecs"][0]["configuration"]["endian"].GetString(), "big");
  }
  if (have_zarr_python()) {
    // numpy.dtype agrees with the table (str aside: zarr-python stores it as an object array).
    std::string script = "import sys, numpy\nfor a in sys.argv[1:]:\n  d, s = a.split(' ')\n"
                         "  assert numpy.dtype(d).str == s, (d, numpy.dtype(d).str, s)\n";
    std::vector<std::string> pairs;
    for (const Spelling& s : spellings) {
      if (std::string(s.v2) != "|O") pairs.push_back(std::string(s.dtype) + " " + s.v2);
    }
    std::string out;
    EXPECT_EQ(run_python(script, pairs, &out), 0) << out;
  }
  // The fields of a structured type too (v2), nested ones included.
  RunResult fields = run_tool({"create", dir / "fields", "--shape", "2", "--dtype",
                               R"([["a","i4"],["b","f8",[2]],["c",[["d","u1"]]]])", "--format", "2"});
  ASSERT_EQ(fields.exit_code, 0) << fields.err;
  EXPECT_EQ(read_text(fs::path(dir / "fields") / ".zarray").find("\"i4\""), std::string::npos);
  rapidjson::Document fields_doc = parse(read_text(fs::path(dir / "fields") / ".zarray"));
  EXPECT_STREQ(fields_doc["dtype"][0][1].GetString(), "<i4");
  EXPECT_STREQ(fields_doc["dtype"][1][1].GetString(), "<f8");
  EXPECT_STREQ(fields_doc["dtype"][2][1][0][1].GetString(), "|u1");
  for (const char* wrong : {"i3", "nonsense", "U", "M8"}) {
    SCOPED_TRACE(wrong);
    RunResult r = run_tool({"create", dir / "wrong", "--shape", "3", "--dtype", wrong});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(std::string("data type \"") + wrong + "\""), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "wrong"));
  }
}

}  // namespace
