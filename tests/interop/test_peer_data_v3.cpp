// The Zarr v3 part of the ../shared/peer-data corpus: arrays zarr-python 3
// wrote (zarrita.js' fixtures, zarrs' compatibility data). manifest.json
// records what the peer readers read from each; libzarr must read the same.
//
// For every "zarr_format": 3 entry: zarr_open(<peer-data>/<path>, "r"), check
// the format, shape and data type name, read the whole array and compare the
// SHA-256 of the C-order little-endian bytes with the peers' hash (zarrita.js
// 0.7.5, or zarr-python where it read the array too), or the elements with the
// peers' "values" for variable-length strings and bytes, or with what the
// writer stored (the manifest's expected_note) where no peer reads the type.
// Then a few sub-regions must read as the same slice of the whole (sharded
// arrays take a partial read path), and attributes and dimension_names must be
// those of zarr.json.
//
// Arrays that need features libzarr does not have yet are listed in
// expected_unsupported() with the reason: zarr_open must then fail with
// ZARR_ERR_UNSUPPORTED and a message naming what is missing. When such an array
// opens after all it is verified like every other, and the test prints a note
// that its entry can be removed. The three zip files of zarrita's fixtures
// hold byte-identical copies of data.zarr's arrays: each is opened through a
// PATH|zip:NODE URL and verified against its data.zarr entry.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "interop_handles.h"
#include "interop_support.h"
#include "peer_corpus.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarr_config.h"

namespace zarr::interop {
namespace {

namespace fs = std::filesystem;

const char* const kZarrPython = kZarrPythonPeer;
const char* const kZarrita = kZarritaPeer;

struct Unsupported {
  const char* why;
  std::vector<const char*> mentions;  // zarr_last_error() must name one of these
};

// Paths (relative to peer-data) that libzarr cannot read yet, and why. (The
// 15 sharded arrays of zarrita's fixtures left this list when sharding_indexed
// landed.)
const std::map<std::string, Unsupported>& expected_unsupported() {
  static const std::map<std::string, Unsupported> table = {};
  return table;
}

// ---- expected values where no peer reader reads the array ----------------------

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), b, b + sizeof v);
}

// IEEE binary16 bits of a value exactly representable as a normal half or 0.
uint16_t half_bits(double v) {
  if (v == 0) return std::signbit(v) ? 0x8000 : 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  int e = 0;
  double m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, m in [0.5, 1)
  uint16_t exponent = static_cast<uint16_t>(e - 1 + 15);
  uint16_t mantissa = static_cast<uint16_t>((m * 2 - 1) * 1024);
  return static_cast<uint16_t>(sign | (exponent << 10) | mantissa);
}

constexpr int64_t kNaT = INT64_MIN;

// The instants of zarrs' datetime64 arrays in seconds (the note on
// datetime64[s]): 1970-01-01, NaT, 2005-02-03, 2005-02-03T04:05,
// 2005-02-03T04:05:06, NaT. 2005-02-03 is day 12817 of the epoch (35 years, 9
// of them leap years, then 31 + 2 days).
std::vector<uint8_t> datetime_values(const std::string& unit) {
  const int64_t day = 12817;
  const int64_t secs[] = {0, kNaT, day * 86400, day * 86400 + 4 * 3600 + 5 * 60, day * 86400 + 4 * 3600 + 5 * 60 + 6,
                          kNaT};
  std::vector<uint8_t> out;
  for (int64_t s : secs) {
    int64_t v = s;
    if (s != kNaT) {
      // Coarser units truncate (every instant here is at or after the epoch).
      if (unit == "Y") v = s == 0 ? 0 : 2005 - 1970;
      else if (unit == "W") v = s / 86400 / 7;
      else if (unit == "D") v = s / 86400;
      else if (unit == "h") v = s / 3600;
      else if (unit == "m") v = s / 60;
      else if (unit == "s") v = s;
      else if (unit == "10ms") v = s * 100;
      else if (unit == "ms") v = s * 1000;
      else if (unit == "10us") v = s * 100000;
      else if (unit == "us") v = s * 1000000;
      else if (unit == "ns") v = s * 1000000000;
      else return {};
    }
    put(out, v);
  }
  return out;
}

// zarrs' timedelta64 arrays, shape 11 in chunks of 5: 365 days, 14 days, 3
// days, 4 hours, 5 minutes, 6, 7, 8, 9 and 0 seconds in the array's unit, and
// the last chunk unwritten (the NaT fill). The note gives no values: these are
// what numcodecs 0.11's Zstd and numpy read from the chunks when this test
// was written. In picoseconds 365 days overflows int64: numpy wrapped it
// around, and so does the computation here.
std::vector<uint8_t> timedelta_values(const std::string& unit) {
  const uint64_t secs[] = {365 * 86400, 14 * 86400, 3 * 86400, 4 * 3600, 5 * 60, 6, 7, 8, 9, 0};
  uint64_t scale = 0;
  if (unit == "10ms") scale = 100;
  else if (unit == "ms") scale = 1000;
  else if (unit == "10us") scale = 100000;
  else if (unit == "us") scale = 1000000;
  else if (unit == "ns") scale = 1000000000;
  else if (unit == "ps") scale = 1000000000000;
  else return {};
  std::vector<uint8_t> out;
  for (uint64_t s : secs) put(out, static_cast<int64_t>(s * scale));  // modulo 2^64, as numpy's int64
  put(out, kNaT);
  return out;
}

// zarrs' optional arrays, from the grids of their descriptions ("N"
// missing, "SN" Some(None)): each element a flag byte per optional level,
// then the uint8 (docs/dtypes.md).
std::vector<uint8_t> optional_values(const std::vector<const char*>& cells, int depth) {
  std::vector<uint8_t> out;
  for (const std::string cell : cells) {
    std::vector<uint8_t> e(static_cast<size_t>(depth) + 1, 0);
    if (cell == "SN") e[0] = 1;
    if (cell != "N" && cell != "SN") {
      for (int i = 0; i < depth; ++i) e[static_cast<size_t>(i)] = 1;
      e.back() = static_cast<uint8_t>(std::stoi(cell));
    }
    out.insert(out.end(), e.begin(), e.end());
  }
  return out;
}

std::vector<uint8_t> utf32_values(const std::vector<std::u32string>& values, size_t chars) {
  std::vector<uint8_t> out;
  for (const std::u32string& s : values) {
    for (size_t i = 0; i < chars; ++i) put(out, static_cast<uint32_t>(i < s.size() ? s[i] : 0));
  }
  return out;
}

// The bytes the writer stored, for entries whose expected_note describes them.
std::vector<uint8_t> expected_from_note(const std::string& path) {
  const std::string compat = "zarrs-data/zarr_python_compat/";
  auto unit_of = [&](const std::string& kind) -> std::string {
    std::string prefix = compat + kind + "[";
    if (path.rfind(prefix, 0) != 0) return "";
    size_t close = path.find(']', prefix.size());
    return close == std::string::npos ? "" : path.substr(prefix.size(), close - prefix.size());
  };
  if (std::string u = unit_of("datetime64"); !u.empty()) return datetime_values(u);
  if (std::string u = unit_of("timedelta64"); !u.empty()) return timedelta_values(u);
  if (path == compat + "fixed_length_utf32_v3_le.zarr") {
    return utf32_values({U"abc", U"\U0001F389", U"hi", U"te", U""}, 4);
  }
  if (path == "zarrs-data/v3/array_optional.zarr/array") {
    return optional_values({"0", "N", "2", "3", "N", "5", "N", "7", "8", "9", "N", "N", "12", "N", "N", "N"}, 1);
  }
  if (path == "zarrs-data/v3/array_optional_nested.zarr/array") {
    return optional_values({"N", "SN", "2", "3", "N", "5", "N", "7", "SN", "SN", "N", "N", "SN", "SN", "N", "N"}, 2);
  }
  if (path == "zarrita-fixtures/v3/data.zarr/1d.contiguous.f2.le") {  // [-1000.5, 0, 1000.5, 0]
    std::vector<uint8_t> out;
    for (double v : {-1000.5, 0.0, 1000.5, 0.0}) put(out, half_bits(v));
    return out;
  }
  // "float32 10x10, values 0..99 row-major (same as array_none.zarr)"
  for (const char* name : {"array_adler32", "array_bz2", "array_fletcher32"}) {
    if (path == std::string("zarrs-data/v3_zarr_python/") + name + ".zarr") {
      std::vector<uint8_t> out;
      for (int i = 0; i < 100; ++i) put(out, static_cast<float>(i));
      return out;
    }
  }
  return {};
}

// Variable-length elements the writer stored, where no peer read them.
std::vector<std::string> vlen_from_note(const std::string& path) {
  if (path == "zarrs-data/zarr_python_compat/v3_bytes.zarr") return {"New York", "Los Angeles", "Chicago"};
  return {};
}

// ---- the corpus -----------------------------------------------------------------

using Entry = PeerEntry;

const PeerCorpus& corpus() { return peer_corpus(); }

std::vector<uint64_t> u64s(const rapidjson::Value& v) {
  std::vector<uint64_t> out;
  for (const auto& x : v.GetArray()) out.push_back(x.GetUint64());
  return out;
}

bool has(const rapidjson::Value* peer, const char* member) { return peer && peer->HasMember(member); }

std::string json_text(const rapidjson::Value& v) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  v.Accept(w);
  return sb.GetString();
}

int failures_so_far() {
  const testing::TestResult* r = testing::UnitTest::GetInstance()->current_test_info()->result();
  int n = 0;
  for (int i = 0; i < r->total_part_count(); ++i) n += r->GetTestPartResult(i).failed();
  return n;
}

// The peer whose reading is the reference: one with a hash (or values), and
// where both peers read the array, only when they agree.
const rapidjson::Value* reference(const Entry& e, const char* member, std::string* source) {
  bool zp = has(e.zp, member), zr = has(e.zarrita, member);
  if (zp && zr) {
    EXPECT_TRUE(e.peers_agree) << "the peers disagree on " << e.path;
  }
  if (zr) {
    *source = kZarrita;
    return e.zarrita;
  }
  if (zp) {
    *source = kZarrPython;
    return e.zp;
  }
  return nullptr;
}

// Some sub-regions of an array of `shape`: an unaligned interior box, the
// last element, and the first row.
std::vector<Box> sub_boxes(const std::vector<uint64_t>& shape) {
  std::vector<Box> out;
  size_t nd = shape.size();
  if (nd == 0 || product(shape) == 0) return out;
  Box inner, last, first_row;
  for (size_t d = 0; d < nd; ++d) {
    inner.start.push_back(shape[d] / 3);
    inner.count.push_back(std::max<uint64_t>(1, (shape[d] - shape[d] / 3 + 1) / 2));
    last.start.push_back(shape[d] - 1);
    last.count.push_back(1);
    first_row.start.push_back(0);
    first_row.count.push_back(d + 1 == nd ? shape[d] : 1);
  }
  out = {inner, last, first_row};
  return out;
}

// Element i of a vlen read as a string.
std::vector<std::string> read_vlen(zarr_array* a, const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) {
  size_t n = static_cast<size_t>(product(count));
  std::vector<uint64_t> offsets(n + 1);
  size_t needed = 0;
  int rc = zarr_read_region_vlen(a, count.size(), start.data(), count.data(), offsets.data(), offsets.size(), nullptr,
                                 0, &needed);
  EXPECT_TRUE(rc == ZARR_OK || rc == ZARR_ERR_BUFFER_SIZE) << status_text(rc);
  if (rc != ZARR_OK && rc != ZARR_ERR_BUFFER_SIZE) return {};
  std::string data(needed, '\0');
  rc = zarr_read_region_vlen(a, count.size(), start.data(), count.data(), offsets.data(), offsets.size(), data.data(),
                             data.size(), &needed);
  EXPECT_EQ(rc, ZARR_OK) << status_text(rc);
  if (rc != ZARR_OK) return {};
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(data.substr(offsets[i], offsets[i + 1] - offsets[i]));
  return out;
}

// zarrs wrote some v3 arrays with a v2 .zarray beside zarr.json (same chunks,
// "v2" chunk key encoding).
bool has_both_formats(const std::string& dir) {
  return fs::exists(dir + "/.zarray") && fs::exists(dir + "/zarr.json");
}

// Attributes and dimension_names as the metadata libzarr opened holds them
// (zarr.json, or .zattrs for an array opened as v2).
void verify_attributes(zarr_array* a, const std::string& dir) {
  rapidjson::Document z;
  if (zarr_format(a) == 2) {
    std::string attrs = fs::exists(dir + "/.zattrs") ? read_text(dir + "/.zattrs") : "{}";
    z.Parse(("{\"attributes\": " + attrs + "}").c_str());
  } else {
    std::string text = read_text(dir + "/zarr.json");
    z.Parse(text.c_str());
  }
  ASSERT_FALSE(z.HasParseError()) << dir << ": metadata";
  LibString attrs;
  ASSERT_EQ(zarr_get_attributes(a, attrs.out()), ZARR_OK) << zarr_last_error();
  rapidjson::Document got;
  got.Parse(attrs.str().c_str());
  rapidjson::Document want;
  want.Parse(z.HasMember("attributes") ? json_text(z["attributes"]).c_str() : "{}");
  EXPECT_TRUE(got == want) << "attributes " << attrs.str() << ", zarr.json has " << json_text(want);
  LibString names;
  ASSERT_EQ(zarr_get_dimension_names(a, names.out()), ZARR_OK) << zarr_last_error();
  rapidjson::Document got_names;
  got_names.Parse(names.str().c_str());
  rapidjson::Document want_names;
  want_names.Parse(z.HasMember("dimension_names") ? json_text(z["dimension_names"]).c_str() : "null");
  EXPECT_TRUE(got_names == want_names) << "dimension_names " << names.str() << ", zarr.json has "
                                       << json_text(want_names);
}

// Verifies an open array against the peers. False when nothing could be
// compared beyond shape and type (no hash, no values, no note).
bool verify_array(zarr_array* a, const Entry& e, const std::string& dir) {
  // With both .zarray and zarr.json present, zarr.json wins as in
  // zarr-python 3 (zarrita tries v2 first on a fresh store).
  EXPECT_EQ(zarr_format(a), 3);
  size_t nd = zarr_ndim(a);
  std::vector<uint64_t> shape(nd);
  EXPECT_EQ(zarr_shape(a, shape.data()), ZARR_OK) << zarr_last_error();
  const rapidjson::Value* described = has(e.zarrita, "shape") ? e.zarrita : has(e.zp, "shape") ? e.zp : nullptr;
  if (described) {
    EXPECT_EQ(shape, u64s((*described)["shape"])) << "shape";
    const char* dtype = zarr_data_type(a);
    EXPECT_EQ(std::string(dtype ? dtype : "(null)"), std::string((*described)["dtype"].GetString())) << "data type";
  }
  verify_attributes(a, dir);

  size_t item = zarr_item_size(a);
  std::vector<uint64_t> origin(nd, 0);
  if (item == 0) {  // variable-length strings or bytes
    std::string source;
    const rapidjson::Value* peer = reference(e, "values", &source);
    if (!peer) peer = reference(e, "first_values", &source);
    std::vector<std::string> want;
    if (peer) {
      const char* member = peer->HasMember("values") ? "values" : "first_values";
      for (const auto& v : (*peer)[member].GetArray()) want.push_back(v.GetString());
      if (std::string(member) == "values") {
        EXPECT_EQ(want.size(), product(shape)) << "the peer lists fewer values than the array has";
      }
    } else {
      want = vlen_from_note(e.path);
      source = "the writer's note";
    }
    if (want.empty()) return false;
    std::vector<std::string> got = read_vlen(a, origin, shape);
    EXPECT_EQ(got.size(), product(shape));
    for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
      EXPECT_EQ(got[i], want[i]) << "element " << i << " against " << source;
    }
    for (const Box& b : sub_boxes(shape)) {
      std::vector<std::string> part = read_vlen(a, b.start, b.count);
      // C-order positions of the box's elements in the whole array (first
      // and last suffice for these boxes only in 1-d; compare all in general).
      std::vector<uint64_t> idx(nd, 0);
      for (size_t i = 0; i < part.size(); ++i) {
        uint64_t flat = 0;
        for (size_t d = 0; d < nd; ++d) flat = flat * shape[d] + b.start[d] + idx[d];
        EXPECT_EQ(part[i], got[flat]) << "sub-region element " << i;
        for (size_t d = nd; d-- > 0;) {
          if (++idx[d] < b.count[d]) break;
          idx[d] = 0;
        }
      }
    }
    return true;
  }

  size_t nbytes = static_cast<size_t>(product(shape)) * item;
  std::vector<uint8_t> got(nbytes, 0xCD);
  int rc = zarr_read_region(a, nd, origin.data(), shape.data(), got.data(), got.size());
  EXPECT_EQ(rc, ZARR_OK) << status_text(rc);
  if (rc != ZARR_OK) return true;

  std::string source;
  const rapidjson::Value* ref = reference(e, "c_order_bytes_sha256", &source);
  bool checked = false;
  if (ref) {
    EXPECT_EQ(sha256_hex(got.data(), got.size()), std::string((*ref)["c_order_bytes_sha256"].GetString()))
        << "SHA-256 of the C-order bytes differs from " << source << "'s; first bytes read: "
        << to_hex(got.data(), std::min<size_t>(got.size(), 32));
    checked = true;
  } else {
    std::vector<uint8_t> want = expected_from_note(e.path);
    if (!want.empty()) {
      EXPECT_EQ(compare_elements(got, want, {}, shape, item), "") << "against the writer's documented values";
      checked = true;
    }
  }
  for (const Box& b : sub_boxes(shape)) {
    std::vector<uint8_t> part(static_cast<size_t>(product(b.count)) * item, 0xCD);
    rc = zarr_read_region(a, nd, b.start.data(), b.count.data(), part.data(), part.size());
    EXPECT_EQ(rc, ZARR_OK) << status_text(rc);
    EXPECT_EQ(part, slice_c_order(got, shape, item, b.start, b.count)) << "a sub-region differs from the whole read";
  }
  return checked;
}

struct Tally {
  int identical = 0, now_supported = 0, unchecked = 0;
  std::map<int, int> opened_as;  // arrays with both .zarray and zarr.json: format libzarr chose
  std::map<std::string, int> unsupported;  // by reason
};

std::string tally_text(const Tally& t) {
  std::string s;
  int total = 0;
  for (const auto& u : t.unsupported) total += u.second;
  s += std::to_string(t.identical) + " identical, " + std::to_string(total) + " expected-unsupported (";
  bool first = true;
  for (const auto& u : t.unsupported) {
    s += (first ? "" : ", ") + std::to_string(u.second) + " " + u.first;
    first = false;
  }
  s += "), " + std::to_string(t.now_supported) + " listed as unsupported but now open, " +
       std::to_string(t.unchecked) + " opened without anything to compare";
  for (const auto& f : t.opened_as) {
    s += "; " + std::to_string(f.second) + " with both .zarray and zarr.json opened as v" + std::to_string(f.first);
  }
  return s;
}

TEST(PeerDataV3, EveryV3ArrayReadsAsThePeersReadIt) {
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  ASSERT_TRUE(c.error.empty()) << c.error;
  ASSERT_GE(c.v3.size(), 80u) << "the manifest lists fewer v3 arrays than expected";
  Tally t;
  std::set<std::string> seen;
  for (const Entry& e : c.v3) {
    SCOPED_TRACE(e.path);
    seen.insert(e.path);
    std::string full = c.dir + "/" + e.path;
    EXPECT_TRUE(fs::exists(full + "/zarr.json")) << "no zarr.json at " << full;
    auto unsup = expected_unsupported().find(e.path);
    Array a;
    int rc = zarr_open(a.out(), full.c_str(), "r");
    if (rc == ZARR_OK) {
      int before = failures_so_far();
      if (has_both_formats(full)) ++t.opened_as[zarr_format(a)];
      bool checked = verify_array(a, e, full);
      if (!checked) {
        ++t.unchecked;
        ADD_FAILURE() << "nothing to compare with: no peer hash or values and no expected_note values";
      } else if (failures_so_far() == before) {
        ++t.identical;
      }
      if (unsup != expected_unsupported().end()) {
        ++t.now_supported;
        std::cout << "[ note     ] " << e.path << " now opens (" << unsup->second.why << ")"
                  << (failures_so_far() == before ? " and reads as the peers read it" : " but does NOT read correctly")
                  << ": remove it from expected_unsupported() in " << __FILE__ << "\n";
      }
      continue;
    }
    ASSERT_NE(unsup, expected_unsupported().end())
        << "libzarr cannot open an array the peers read: " << status_text(rc);
    ++t.unsupported[unsup->second.why];
    EXPECT_EQ(rc, ZARR_ERR_UNSUPPORTED) << status_text(rc) << " (expected unsupported: " << unsup->second.why << ")";
    std::string msg = zarr_last_error();
    bool named = false;
    for (const char* m : unsup->second.mentions) named = named || msg.find(m) != std::string::npos;
    EXPECT_TRUE(named) << "the message should name what is missing (" << unsup->second.why << "): " << msg;
  }
  for (const auto& u : expected_unsupported()) EXPECT_TRUE(seen.count(u.first)) << "stale entry " << u.first;
  std::cout << "[ peer-data] " << c.v3.size() << " v3 arrays: " << tally_text(t) << "\n";
}

// Whole array in C order through zarr_read_region (fixed-size types).
std::vector<uint8_t> read_whole(zarr_array* a) {
  size_t nd = zarr_ndim(a);
  std::vector<uint64_t> shape(nd), origin(nd, 0);
  EXPECT_EQ(zarr_shape(a, shape.data()), ZARR_OK);
  size_t n = zarr_item_size(a);
  for (uint64_t s : shape) n *= s;
  std::vector<uint8_t> out(n);
  EXPECT_EQ(zarr_read_region(a, nd, origin.data(), shape.data(), out.data(), out.size()), ZARR_OK)
      << zarr_last_error();
  return out;
}

TEST(PeerDataV3, BothFormatsOpenAsV3UnlessTheV2ViewIsAskedFor) {
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  int dual = 0;
  for (const Entry& e : c.v3) {
    const std::string full = c.dir + "/" + e.path;
    if (!has_both_formats(full)) continue;
    SCOPED_TRACE(e.path);
    ++dual;
    Array v3, v2;
    ASSERT_EQ(zarr_open(v3.out(), full.c_str(), "r"), ZARR_OK) << zarr_last_error();
    ASSERT_EQ(zarr_open_ex(v2.out(), full.c_str(), "r", "{\"zarr_format\": 2}"), ZARR_OK) << zarr_last_error();
    EXPECT_EQ(zarr_format(v3), 3);
    EXPECT_EQ(zarr_format(v2), 2);
    EXPECT_EQ(read_whole(v3), read_whole(v2));
  }
  EXPECT_GE(dual, 7) << "zarrs-data/v3 holds 7 arrays with both .zarray and zarr.json";
}

// zarr_group_list of the group at url, or the failure.
std::string group_listing(const std::string& url) {
  Group g;
  int rc = zarr_group_open(g.out(), url.c_str(), "r");
  if (rc != ZARR_OK) return status_text(rc);
  LibString json;
  rc = zarr_group_list(g, json.out());
  return rc == ZARR_OK ? json.str() : status_text(rc);
}

// The zip files of zarrita's v3 fixtures hold byte-identical copies of
// data.zarr (checked when this test was written), at the zip's root
// ("zipped_from_within"; "uncompressed", whose entries are all stored) or
// below "data.zarr/" ("zipped_from_parent"). Through PATH|zip:NODE URLs the
// root group lists what data.zarr's does and every array reads as its
// data.zarr entry.
TEST(PeerDataV3, ZipFilesReadAsTheFolderTheyHold) {
  if (!ZARR_HAVE_ZIP) GTEST_SKIP() << "libzarr built without zip support";
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const std::string base = "zarrita-fixtures/v3/";
  const std::vector<std::pair<std::string, std::string>> zips = {
      {"data.zipped_from_within.zarr.zip", ""},
      {"data.zipped_from_parent.zarr.zip", "data.zarr/"},
      {"data.uncompressed.zarr.zip", ""},
  };
  int zip_files = 0, arrays = 0, identical = 0;
  for (const auto& [file, root] : zips) {
    const std::string zip = c.dir + "/" + base + file;
    if (!fs::exists(zip)) continue;
    ++zip_files;
    SCOPED_TRACE(zip);
    EXPECT_EQ(group_listing(zip + "|zip:" + root), group_listing(c.dir + "/" + base + "data.zarr"));
    for (const Entry& e : c.v3) {
      if (e.path.rfind(base + "data.zarr/", 0) != 0) continue;
      const std::string url = zip + "|zip:" + root + e.path.substr((base + "data.zarr/").size());
      SCOPED_TRACE(url);
      Array a;
      int rc = zarr_open(a.out(), url.c_str(), "r");
      ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
      ++arrays;
      int before = failures_so_far();
      EXPECT_TRUE(verify_array(a, e, c.dir + "/" + e.path)) << "nothing to compare with";
      if (failures_so_far() == before) ++identical;
    }
  }
  EXPECT_EQ(zip_files, 3) << "expected the three zip files of zarrita's v3 fixtures";
  EXPECT_GE(arrays, 3 * 20) << "expected data.zarr's arrays in each zip";
  EXPECT_EQ(identical, arrays);
  std::cout << "[ peer-data] " << zip_files << " v3 zip files: " << identical << " of " << arrays
            << " arrays inside read identical to the peers\n";
}

// The v3 groups of the corpus: libzarr lists the children the store holds
// (folders with a zarr.json) and reads the group's attributes as zarr.json has
// them.
TEST(PeerDataV3, V3GroupsListTheirChildren) {
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  int groups = 0;
  for (const auto& entry : fs::recursive_directory_iterator(c.dir)) {
    if (entry.path().filename() != "zarr.json") continue;
    rapidjson::Document meta;
    std::string text = read_text(entry.path().string());
    meta.Parse(text.c_str());
    if (meta.HasParseError() || !meta.IsObject() || !meta.HasMember("node_type") || meta["node_type"] != "group") {
      continue;
    }
    fs::path dir = entry.path().parent_path();
    SCOPED_TRACE(dir.string());
    ++groups;
    std::vector<std::pair<std::string, int>> want;
    for (const auto& child : fs::directory_iterator(dir)) {
      if (!child.is_directory() || !fs::exists(child.path() / "zarr.json")) continue;
      rapidjson::Document cm;
      std::string ct = read_text((child.path() / "zarr.json").string());
      cm.Parse(ct.c_str());
      ASSERT_FALSE(cm.HasParseError()) << child.path();
      want.emplace_back(child.path().filename().string(),
                        cm["node_type"] == "array" ? ZARR_NODE_ARRAY : ZARR_NODE_GROUP);
    }
    std::sort(want.begin(), want.end());
    Group g;
    int rc = zarr_group_open(g.out(), dir.string().c_str(), "r");
    ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
    size_t count = 0;
    ASSERT_EQ(zarr_group_child_count(g, &count), ZARR_OK) << zarr_last_error();
    std::vector<std::pair<std::string, int>> got;
    for (size_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      int kind = 0;
      ASSERT_EQ(zarr_group_child(g, i, &name, &kind), ZARR_OK) << zarr_last_error();
      got.emplace_back(name, kind);
    }
    EXPECT_EQ(got, want);
    LibString attrs;
    ASSERT_EQ(zarr_group_get_attributes(g, attrs.out()), ZARR_OK) << zarr_last_error();
    rapidjson::Document got_attrs, want_attrs;
    got_attrs.Parse(attrs.str().c_str());
    want_attrs.Parse(meta.HasMember("attributes") ? json_text(meta["attributes"]).c_str() : "{}");
    EXPECT_TRUE(got_attrs == want_attrs) << attrs.str() << " vs zarr.json " << json_text(want_attrs);
  }
  EXPECT_GE(groups, 4) << "expected data.zarr, consolidated, consolidated/nested and 'my group with spaces'";
}

// The same strings through both formats: zarrs' cities_v3 (v3 "string") and
// cities_v2 (v2 object array) read identically, all 47868 of them (the
// manifest lists only the first values).
TEST(PeerDataV3, CitiesReadTheSameInV2AndV3) {
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  std::string dir = c.dir + "/zarrs-data/zarr_python_compat/";
  Array v2, v3;
  ASSERT_EQ(zarr_open(v2.out(), (dir + "cities_v2.zarr").c_str(), "r"), ZARR_OK) << zarr_last_error();
  ASSERT_EQ(zarr_open(v3.out(), (dir + "cities_v3.zarr").c_str(), "r"), ZARR_OK) << zarr_last_error();
  ASSERT_EQ(zarr_ndim(v2), 1u);
  ASSERT_EQ(zarr_ndim(v3), 1u);
  uint64_t n2 = 0, n3 = 0;
  zarr_shape(v2, &n2);
  zarr_shape(v3, &n3);
  ASSERT_EQ(n2, n3);
  std::vector<uint64_t> origin{0}, count{n3};
  std::vector<std::string> a = read_vlen(v2, origin, count), b = read_vlen(v3, origin, count);
  ASSERT_EQ(a.size(), n3);
  EXPECT_TRUE(a == b) << "the v2 and v3 city lists differ";
  EXPECT_EQ(b.at(7), "S\xc3\xa3o Paulo");
}

TEST(PeerDataV3, ExpectedValueHelpers) {
  EXPECT_EQ(half_bits(1000.5), 0x63D1);
  EXPECT_EQ(half_bits(-1000.5), 0xE3D1);
  EXPECT_EQ(half_bits(1.0), 0x3C00);
  EXPECT_EQ(half_bits(-2.0), 0xC000);
  // 2005-02-03T04:05:06 is 1107403506 seconds after the epoch.
  std::vector<uint8_t> s = datetime_values("s");
  ASSERT_EQ(s.size(), 48u);
  int64_t v = 0;
  std::memcpy(&v, s.data() + 4 * 8, 8);
  EXPECT_EQ(v, 1107403506);
  std::vector<uint8_t> w = datetime_values("W");
  std::memcpy(&v, w.data() + 2 * 8, 8);
  EXPECT_EQ(v, 1831);
  EXPECT_TRUE(datetime_values("fortnight").empty());
  std::vector<uint8_t> ps = timedelta_values("ps");
  std::memcpy(&v, ps.data(), 8);
  EXPECT_EQ(v, -5357488147419103232);  // 31536000000000000000 - 2^64
}

}  // namespace
}  // namespace zarr::interop
