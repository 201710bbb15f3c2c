// The "chunk_store" option against zarr-python 2.13's chunk_store argument:
// an array libzarr writes with its chunks in a separate folder is read by
// zarr-python given the same two stores, and the other way round.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

using namespace zarr::interop;

namespace {

std::string chunk_store_options(const std::string& url) { return R"({"chunk_store": ")" + url + "\"}"; }

// Runs a zarr-python script given the metadata and chunk folders as argv[1], argv[2].
int run_peer(const std::string& script, const std::string& meta, const std::string& chunks, std::string* out) {
  return run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(meta) + " " +
                         shell_quote(chunks) + " 2>&1",
                     out);
}

}  // namespace

TEST(ChunkStorePython, ZarrPythonReadsWhatLibzarrWrote) {
  const std::string why = python_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  zarr::test::TempDir dir;
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_create_ex(&a, (dir / "meta/a").c_str(),
                           R"({"shape": [6, 10], "chunks": [4, 4], "dtype": "<i4", "compressor": {"id": "zlib"}})",
                           chunk_store_options(dir / "chunks").c_str()),
            ZARR_OK)
      << zarr_last_error();
  std::vector<int32_t> values(60);
  std::iota(values.begin(), values.end(), -30);
  const uint64_t start[] = {0, 0}, count[] = {6, 10};
  ASSERT_EQ(zarr_write_region(a, 2, start, count, values.data(), values.size() * 4), ZARR_OK) << zarr_last_error();
  ASSERT_EQ(zarr_close(a), ZARR_OK);
  const char* script = R"(
import sys, numpy as np, zarr
a = zarr.open_array(store=zarr.DirectoryStore(sys.argv[1]), chunk_store=zarr.DirectoryStore(sys.argv[2]), mode="r")
assert (a[:] == np.arange(-30, 30, dtype="<i4").reshape(6, 10)).all(), a[:]
print("ok")
)";
  std::string out;
  EXPECT_EQ(run_peer(script, dir / "meta/a", dir / "chunks", &out), 0) << out;
}

TEST(ChunkStorePython, LibzarrReadsWhatZarrPythonWrote) {
  const std::string why = python_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  zarr::test::TempDir dir;
  const char* script = R"(
import sys, numpy as np, zarr
a = zarr.open_array(store=zarr.DirectoryStore(sys.argv[1]), chunk_store=zarr.DirectoryStore(sys.argv[2]),
                    mode="w", shape=(6, 10), chunks=(4, 4), dtype="<i4")
a[:] = np.arange(60, dtype="<i4").reshape(6, 10) * 3
)";
  std::string out;
  ASSERT_EQ(run_peer(script, dir / "meta/b", dir / "chunks", &out), 0) << out;
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_open_ex(&a, (dir / "meta/b").c_str(), "r", chunk_store_options(dir / "chunks").c_str()), ZARR_OK)
      << zarr_last_error();
  std::vector<int32_t> got(60), want(60);
  for (int i = 0; i < 60; ++i) want[i] = 3 * i;
  const uint64_t start[] = {0, 0}, count[] = {6, 10};
  EXPECT_EQ(zarr_read_region(a, 2, start, count, got.data(), got.size() * 4), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(got, want);
  zarr_close(a);
}
