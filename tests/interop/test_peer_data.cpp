// The ../shared/peer-data corpus: Zarr v2 arrays other implementations wrote
// (zarr-python 2 and 3 through zarrita.js' and zarrs' fixtures, the
// zarr_implementations project). manifest.json records what the peer readers
// read from each array; libzarr must read the same bytes.
//
// For every "zarr_format": 2 entry: zarr_open(<peer-data>/<path>, "r"), read
// the whole array with zarr_read_region and compare the SHA-256 of those
// C-order little-endian bytes with the hash zarr-python 2.13.6 computed (the
// zarrita.js hash where zarr-python could not read the array but the peers
// agree; the writer's documented values where no peer could read it).
//
// Arrays that need features libzarr does not have yet are listed in
// kExpectedUnsupported with the reason: zarr_open must then fail with
// ZARR_ERR_UNSUPPORTED and a message naming the codec or "|O". When such an
// array opens after all, it is verified like every other, and the test prints
// a note that its entry can be removed.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
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

// Paths (relative to peer-data) that libzarr cannot read yet, and why. Empty:
// every v2 array of the corpus reads; an entry here must name the reason.
const std::map<std::string, Unsupported>& expected_unsupported() {
  static const std::map<std::string, Unsupported> table = {
  };
  return table;
}

// Where no peer reader could read an array, the expected bytes from what the
// writer stored (the manifest's expected_note).
std::vector<uint8_t> expected_from_note(const std::string& path) {
  if (path == "zarrs-data/zarr_python_compat/fletcher32.zarr") {  // "uint16 100x100, values 0..9999 row-major"
    std::vector<uint8_t> out(10000 * 2);
    for (uint16_t i = 0; i < 10000; ++i) std::memcpy(out.data() + 2 * i, &i, 2);
    return out;
  }
  return {};
}

using Entry = PeerEntry;

const PeerCorpus& corpus() { return peer_corpus(); }

std::vector<uint64_t> u64s(const rapidjson::Value& v) {
  std::vector<uint64_t> out;
  for (const auto& x : v.GetArray()) out.push_back(x.GetUint64());
  return out;
}

bool has_hash(const rapidjson::Value* peer) { return peer && peer->HasMember("c_order_bytes_sha256"); }

// Little-endian bytes of one manifest value for the simple numeric dtypes
// the null-fill entries use.
std::vector<uint8_t> value_bytes(const std::string& dtype, const rapidjson::Value& v) {
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    out.assign(b, b + n);
  };
  if (dtype == "bool") {
    uint8_t x = v.GetBool() ? 1 : 0;
    put(&x, 1);
  } else if (dtype == "int32") {
    int32_t x = v.GetInt();
    put(&x, 4);
  } else if (dtype == "float32") {
    float x = static_cast<float>(v.GetDouble());
    put(&x, 4);
  } else if (dtype == "float64") {
    double x = v.GetDouble();
    put(&x, 8);
  } else {
    throw std::runtime_error("value_bytes: no conversion for dtype " + dtype);
  }
  return out;
}

// One byte per element: 1 where the chunk holding the element is stored.
std::vector<uint8_t> stored_chunk_mask(const std::string& array_dir, const std::vector<uint64_t>& shape) {
  rapidjson::Document z;
  std::string text = read_text(array_dir + "/.zarray");
  z.Parse(text.c_str());
  std::vector<uint64_t> chunks = u64s(z["chunks"]);
  std::string sep = z.HasMember("dimension_separator") && z["dimension_separator"].IsString()
                        ? z["dimension_separator"].GetString()
                        : ".";
  size_t n = static_cast<size_t>(product(shape));
  std::vector<uint8_t> mask(n, 0);
  std::vector<uint64_t> idx(shape.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    std::string key;
    for (size_t d = 0; d < shape.size(); ++d) key += (d ? sep : "") + std::to_string(idx[d] / chunks[d]);
    if (shape.empty()) key = "0";
    mask[i] = fs::exists(array_dir + "/" + key) ? 1 : 0;
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return mask;
}

// Failed assertions so far in the running test.
int failures_so_far() {
  const testing::TestResult* r = testing::UnitTest::GetInstance()->current_test_info()->result();
  int n = 0;
  for (int i = 0; i < r->total_part_count(); ++i) n += r->GetTestPartResult(i).failed();
  return n;
}

// Arrays of variable-length elements (v2 object arrays of strings): read the
// whole array through zarr_read_region_vlen and compare with the peers'
// "values" (or the listed "first_values"). An element zarr-python reports as
// a non-string (the 0 or None fill of an object array) reads as "" in libzarr.
void verify_vlen_values(zarr_array* a, const Entry& e, const std::vector<uint64_t>& shape) {
  const rapidjson::Value* peer = e.zp ? e.zp : e.zarrita;
  ASSERT_NE(peer, nullptr) << "no peer description";
  const char* member = peer->HasMember("values") ? "values" : "first_values";
  ASSERT_TRUE(peer->HasMember(member)) << "no values for a variable-length array";
  const auto& values = (*peer)[member].GetArray();
  size_t n = static_cast<size_t>(product(shape));
  std::vector<uint64_t> origin(shape.size(), 0), offsets(n + 1);
  size_t needed = 0;
  int rc = zarr_read_region_vlen(a, shape.size(), origin.data(), shape.data(), offsets.data(), offsets.size(),
                                 nullptr, 0, &needed);
  ASSERT_TRUE(rc == ZARR_OK || rc == ZARR_ERR_BUFFER_SIZE) << status_text(rc);
  std::string data(needed, '\0');
  rc = zarr_read_region_vlen(a, shape.size(), origin.data(), shape.data(), offsets.data(), offsets.size(),
                             data.data(), data.size(), &needed);
  ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
  ASSERT_LE(values.Size(), n);
  for (rapidjson::SizeType i = 0; i < values.Size(); ++i) {
    std::string want = values[i].IsString() ? values[i].GetString() : "";
    EXPECT_EQ(data.substr(offsets[i], offsets[i + 1] - offsets[i]), want) << "element " << i;
  }
}

struct Tally {
  int identical = 0, unsupported = 0, now_supported = 0, shape_only = 0;
};

// Reads an open array whole and checks it against the peers. Returns
// false when the bytes could not be checked beyond shape and dtype.
bool verify_array(zarr_array* a, const Entry& e, const std::string& full_path) {
  const rapidjson::Value* ref = has_hash(e.zp) ? e.zp : nullptr;
  std::string source = kZarrPython;
  if (!ref && e.peers_agree && has_hash(e.zarrita)) {
    // zarr-python 2.13.6 could not read it (e.g. zstd's "checksum" key, which
    // numcodecs 0.11 refuses); the other peer read it and nothing disagrees.
    ref = e.zarrita;
    source = kZarrita;
  }
  size_t nd = zarr_ndim(a);
  std::vector<uint64_t> shape(nd);
  EXPECT_EQ(zarr_shape(a, shape.data()), ZARR_OK) << zarr_last_error();
  const rapidjson::Value* described = ref ? ref : (e.zp && e.zp->HasMember("shape") ? e.zp : nullptr);
  if (described) {
    EXPECT_EQ(shape, u64s((*described)["shape"])) << "shape " << source;
  }
  size_t item = zarr_item_size(a);
  if (item == 0) {
    verify_vlen_values(a, e, shape);
    return true;
  }
  size_t nbytes = static_cast<size_t>(product(shape)) * item;
  if (described && described->HasMember("nbytes")) {
    EXPECT_EQ(nbytes, (*described)["nbytes"].GetUint64()) << "nbytes (item size " << item << ")";
  }
  std::vector<uint8_t> got(nbytes, 0xCD);
  std::vector<uint64_t> origin(nd, 0);
  int rc = zarr_read_region(a, nd, origin.data(), shape.data(), got.data(), got.size());
  EXPECT_EQ(rc, ZARR_OK) << status_text(rc);
  if (rc != ZARR_OK) return true;

  if (!e.peers_agree && !e.agree_is_null) {
    // fill_value null: chunks never written are undefined. zarr-python 2.13.6
    // returns whatever np.empty held there (the manifest's hashes differ
    // between peers), libzarr reads zeros. Compare the elements of stored
    // chunks with zarr-python's values and require zeros elsewhere.
    EXPECT_TRUE(e.zp && e.zp->HasMember("values")) << "no zarr-python values for a null-fill entry";
    if (!e.zp || !e.zp->HasMember("values")) return true;
    std::string dtype = (*e.zp)["dtype"].GetString();
    const auto& values = (*e.zp)["values"].GetArray();
    EXPECT_EQ(values.Size(), product(shape));
    if (values.Size() != product(shape)) return true;
    std::vector<uint8_t> want;
    for (const auto& v : values) {
      std::vector<uint8_t> b = value_bytes(dtype, v);
      EXPECT_EQ(b.size(), item) << dtype;
      want.insert(want.end(), b.begin(), b.end());
    }
    std::vector<uint8_t> mask = stored_chunk_mask(full_path, shape);
    size_t defined = 0;
    for (uint8_t m : mask) defined += m;
    EXPECT_GT(defined, 0u) << "no stored chunk: nothing to compare";
    EXPECT_EQ(compare_elements(got, want, mask, shape, item), "") << "stored chunks vs " << kZarrPython;
    return true;
  }

  if (ref) {
    EXPECT_EQ(sha256_hex(got.data(), got.size()), std::string((*ref)["c_order_bytes_sha256"].GetString()))
        << "SHA-256 of the C-order bytes differs from " << source << "'s; first bytes read: "
        << to_hex(got.data(), std::min<size_t>(got.size(), 32));
    return true;
  }
  std::vector<uint8_t> want = expected_from_note(e.path);
  if (!want.empty()) {
    EXPECT_EQ(compare_elements(got, want, {}, shape, item), "") << "against the writer's documented values";
    return true;
  }
  return false;  // e.g. object arrays: no hash to compare with
}

TEST(PeerData, EveryV2ArrayReadsAsThePeersReadIt) {
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  ASSERT_TRUE(c.error.empty()) << c.error;
  ASSERT_GE(c.v2.size(), 40u) << "the manifest lists fewer v2 arrays than expected";
  Tally t;
  std::set<std::string> seen;
  for (const Entry& e : c.v2) {
    SCOPED_TRACE(e.path);
    seen.insert(e.path);
    std::string full = c.dir + "/" + e.path;
    // Each entry is an array stored at the path itself (some are directories
    // named like files, e.g. zarr.zr/blosc): its .zarray is right there.
    EXPECT_TRUE(fs::exists(full + "/.zarray")) << "no .zarray at " << full;
    auto unsup = expected_unsupported().find(e.path);
    Array a;
    int rc = zarr_open(a.out(), full.c_str(), "r");
    if (rc == ZARR_OK) {
      int before = failures_so_far();
      EXPECT_EQ(zarr_format(a), 2);
      bool checked = verify_array(a, e, full);
      if (!checked) {
        ++t.shape_only;
      } else if (failures_so_far() == before) {
        ++t.identical;
      }
      if (unsup != expected_unsupported().end()) {
        ++t.now_supported;
        std::cout << "[ note     ] " << e.path << " now opens (" << unsup->second.why << ")"
                  << (checked ? " and was verified" : ", but has no hash to verify against")
                  << ": remove it from expected_unsupported() in " << __FILE__ << "\n";
      }
      continue;
    }
    ASSERT_NE(unsup, expected_unsupported().end())
        << "libzarr cannot open an array the peers read: " << status_text(rc);
    ++t.unsupported;
    EXPECT_EQ(rc, ZARR_ERR_UNSUPPORTED) << status_text(rc) << " (expected unsupported: " << unsup->second.why << ")";
    std::string msg = zarr_last_error();
    bool named = false;
    for (const char* m : unsup->second.mentions) named = named || msg.find(m) != std::string::npos;
    EXPECT_TRUE(named) << "the message should name what is missing (" << unsup->second.why << "): " << msg;
  }
  // A path in the list that the manifest no longer has is a stale entry.
  for (const auto& u : expected_unsupported()) EXPECT_TRUE(seen.count(u.first)) << "stale entry " << u.first;
  std::cout << "[ peer-data] " << c.v2.size() << " v2 arrays: " << t.identical << " read identical to the peers, "
            << t.unsupported << " expected-unsupported, " << t.now_supported
            << " listed as unsupported but now open, " << t.shape_only << " opened without a hash to compare\n";
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

// zarrita's v2 fixtures zipped twice: from within data.zarr (the hierarchy at
// the zip's root) and from its parent (below "data.zarr/"), stored and
// deflated entries mixed. Through PATH|zip:NODE URLs the root group lists
// what data.zarr's does and every array reads as its data.zarr entry.
TEST(PeerData, V2ZipFilesReadAsTheFolderTheyHold) {
  if (!ZARR_HAVE_ZIP) GTEST_SKIP() << "libzarr built without zip support";
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const std::string base = "zarrita-fixtures/v2/";
  const std::vector<std::pair<std::string, std::string>> zips = {
      {"data.zipped_from_within.zarr.zip", ""},
      {"data.zipped_from_parent.zarr.zip", "data.zarr/"},
  };
  int zip_files = 0, arrays = 0, identical = 0;
  for (const auto& [file, root] : zips) {
    const std::string zip = c.dir + "/" + base + file;
    if (!fs::exists(zip)) continue;
    ++zip_files;
    SCOPED_TRACE(zip);
    EXPECT_EQ(group_listing(zip + "|zip:" + root), group_listing(c.dir + "/" + base + "data.zarr"));
    for (const Entry& e : c.v2) {
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
  EXPECT_EQ(zip_files, 2) << "expected the two zip files of zarrita's v2 fixtures";
  EXPECT_GE(arrays, 2 * 30) << "expected data.zarr's arrays in each zip";
  EXPECT_EQ(identical, arrays);
  std::cout << "[ peer-data] " << zip_files << " v2 zip files: " << identical << " of " << arrays
            << " arrays inside read identical to the peers\n";
}

// The v2 groups of the corpus: libzarr lists the same children the store holds.
TEST(PeerData, V2GroupsListTheirChildren) {
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  int groups = 0;
  for (const auto& entry : fs::recursive_directory_iterator(c.dir)) {
    if (entry.path().filename() != ".zgroup") continue;
    fs::path dir = entry.path().parent_path();
    SCOPED_TRACE(dir.string());
    ++groups;
    std::vector<std::pair<std::string, int>> want;
    for (const auto& child : fs::directory_iterator(dir)) {
      if (!child.is_directory()) continue;
      if (fs::exists(child.path() / ".zarray")) want.emplace_back(child.path().filename().string(), ZARR_NODE_ARRAY);
      else if (fs::exists(child.path() / ".zgroup")) want.emplace_back(child.path().filename().string(), ZARR_NODE_GROUP);
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
    EXPECT_EQ(zarr_group_get_attributes(g, attrs.out()), ZARR_OK) << zarr_last_error();
  }
  EXPECT_GE(groups, 3) << "expected the v2 groups of zarrita-fixtures and zarr-implementations";
}

TEST(PeerData, ChunkMaskHelperFindsStoredChunks) {
  // The null-fill comparison above depends on it: check it on a corpus entry
  // whose stored chunks are known (chunk 0 of 3 stored, chunks of 2).
  const PeerCorpus& c = corpus();
  if (c.dir.empty()) GTEST_SKIP() << "no peer data at " << zarr::test::peer_data_expected_location();
  std::string p = c.dir + "/zarrs-data/zarr_python_compat/float_v2_fv_null.zarr";
  if (!fs::exists(p + "/.zarray")) GTEST_SKIP() << "no " << p;
  std::vector<uint8_t> mask = stored_chunk_mask(p, {5});
  std::vector<uint8_t> want(5);
  for (uint64_t i = 0; i < 5; ++i) want[i] = fs::exists(p + "/" + std::to_string(i / 2)) ? 1 : 0;
  EXPECT_EQ(mask, want);
  EXPECT_EQ(mask[0], 1);
}

}  // namespace
}  // namespace zarr::interop
