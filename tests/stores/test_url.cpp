// From URLs to stores (stores/url.h, docs/urls.md): which store each form
// gives, where the node lies in it, and how bad URLs and options are refused.
#include <filesystem>
#include <functional>

#include <gtest/gtest.h>

#include "base/error.h"
#include "stores/url.h"
#include "stores/zip_store.h"
#include "support/test_support.h"
#include "zarr_config.h"

namespace zarr {
namespace {

namespace fs = std::filesystem;

using test::Caught;
using test::catch_error;

// resolve_url with the "store" member of an options document.
NodeLocation resolve_with(const std::string& url, StoreAccess access, const char* options_json) {
  OpenOptions options = parse_open_options(options_json);
  return resolve_url(url, access, options.store);
}

void expect_refused(const std::string& url, int code, const std::string& fragment,
                    const char* options_json = nullptr, StoreAccess access = StoreAccess::kRead) {
  SCOPED_TRACE(url);
  Caught caught = catch_error([&] { resolve_with(url, access, options_json); });
  EXPECT_EQ(caught.code, code) << caught.message;
  EXPECT_NE(caught.message.find(fragment), std::string::npos) << caught.message;
}

// ---- filesystem and memory --------------------------------------------------------------

TEST(Urls, PlainPathsAndFileUrlsAreTheNodesFolder) {
  test::TempDir dir;
  NodeLocation plain = resolve_url(dir / "a.zarr", StoreAccess::kRead);
  EXPECT_EQ(plain.store->describe(), dir / "a.zarr");
  EXPECT_EQ(plain.path, "");
  EXPECT_FALSE(plain.store->writable()) << "opened \"r\": the store refuses writes too";
  EXPECT_TRUE(resolve_url(dir / "a.zarr", StoreAccess::kReadWrite).store->writable());

  NodeLocation file = resolve_url("file://" + dir.path() + "/with%20space.zarr", StoreAccess::kRead);
  EXPECT_EQ(file.store->describe(), dir / "with space.zarr");
  // A '|' not followed by an adapter name and ':' is part of the path.
  EXPECT_EQ(resolve_url(dir / "run|2024", StoreAccess::kRead).store->describe(), dir / "run|2024");
}

TEST(Urls, CreatingRootsTheStoreAtTheEnclosingHierarchy) {
  test::TempDir dir;
  fs::create_directory(dir / "h.zarr");
  test::write_file(dir / "h.zarr/.zgroup", ByteView(std::string("{\"zarr_format\": 2}")));
  NodeLocation loc = resolve_url(dir / "h.zarr/new/arr", StoreAccess::kCreate);
  EXPECT_EQ(loc.store->describe(), dir / "h.zarr");
  EXPECT_EQ(loc.path, "new/arr");
}

TEST(Urls, MemoryUrlsNameAStoreAndAPathInIt) {
  NodeLocation loc = resolve_url("memory://url-test/a//b/", StoreAccess::kReadWrite);
  EXPECT_EQ(loc.store->describe(), "memory://url-test");
  EXPECT_EQ(loc.path, "a/b");
  loc.store->set("k", ByteView(std::string("v")));
  NodeLocation reader = resolve_url("memory://url-test", StoreAccess::kRead);
  EXPECT_TRUE(reader.store->exists("k"));
  EXPECT_FALSE(reader.store->writable());
}

TEST(Urls, MalformedUrlsAndUnknownSchemesAreInvalidArguments) {
  expect_refused("", ZARR_ERR_INVALID_ARGUMENT, "empty");
  expect_refused(std::string("a\0b", 3), ZARR_ERR_INVALID_ARGUMENT, "NUL");
  expect_refused("gopher://x/y", ZARR_ERR_INVALID_ARGUMENT, "'gopher://x/y': unknown scheme 'gopher'");
  expect_refused("HTTP://x", ZARR_ERR_INVALID_ARGUMENT, "malformed scheme 'HTTP'");
  expect_refused("://x", ZARR_ERR_INVALID_ARGUMENT, "malformed scheme ''");
  expect_refused("file://relative", ZARR_ERR_INVALID_ARGUMENT, "absolute path");
  expect_refused("file:///x%2", ZARR_ERR_INVALID_ARGUMENT, "percent escape");
  expect_refused("memory://", ZARR_ERR_INVALID_ARGUMENT, "'memory://': memory URLs need a name");
  expect_refused("memory:///x", ZARR_ERR_INVALID_ARGUMENT, "need a name");
  expect_refused("memory://m/../x", ZARR_ERR_INVALID_ARGUMENT, "..");
}

// With libcurl the remote stores open (tests/stores/test_remote_urls.cpp);
// without it their schemes are still recognised, and refused saying why.
#if !ZARR_HAVE_CURL
TEST(Urls, RemoteSchemesNeedLibcurl) {
  for (const char* url : {"http://127.0.0.1:9/a.zarr", "https://127.0.0.1:9/a.zarr", "s3://bucket/a.zarr"}) {
    expect_refused(url, ZARR_ERR_UNSUPPORTED, std::string("'") + url + "': libzarr was built without libcurl");
  }
}
#endif

// ---- zip ------------------------------------------------------------------------------------

#if ZARR_HAVE_ZIP
TEST(Urls, ZipPipelineNamesTheArchiveAndThePathInside) {
  test::TempDir dir;
  const std::string archive = dir / "a.zip";
  NodeLocation loc = resolve_url(archive + "|zip:foo//bar/", StoreAccess::kCreate);
  EXPECT_EQ(loc.store->describe(), archive + "|zip:");
  EXPECT_EQ(loc.path, "foo/bar");
  // Every spelling of the archive reaches the store being written.
  EXPECT_EQ(resolve_url("file://" + archive + "|zip:", StoreAccess::kReadWrite).store, loc.store);
  EXPECT_EQ(resolve_url(archive + "|zip:other", StoreAccess::kRead).store, loc.store);
  EXPECT_EQ(resolve_url("file://" + dir.path() + "/%61.zip|zip:", StoreAccess::kRead).store, loc.store);
}

TEST(Urls, ZipStoreOptions) {
  test::TempDir dir;
  NodeLocation loc = resolve_with(dir / "d.zip|zip:", StoreAccess::kCreate,
                                  R"({"store": {"compression": "deflate", "deflate_level": 9}})");
  EXPECT_TRUE(loc.store->writable());
  expect_refused(dir / "e.zip|zip:", ZARR_ERR_INVALID_ARGUMENT, "'compression' must be \"stored\" or \"deflate\"",
                 R"({"store": {"compression": "lzma"}})", StoreAccess::kCreate);
  expect_refused(dir / "e.zip|zip:", ZARR_ERR_INVALID_ARGUMENT, "store option 'compression' must be a string",
                 R"({"store": {"compression": 5}})", StoreAccess::kCreate);
  expect_refused(dir / "e.zip|zip:", ZARR_ERR_INVALID_ARGUMENT, "'deflate_level' needs",
                 R"({"store": {"deflate_level": 5}})", StoreAccess::kCreate);
  expect_refused(dir / "e.zip|zip:", ZARR_ERR_INVALID_ARGUMENT, "'deflate_level' must be an integer from 1 to 9",
                 R"({"store": {"compression": "deflate", "deflate_level": 0}})", StoreAccess::kCreate);
  expect_refused(dir / "e.zip|zip:", ZARR_ERR_INVALID_ARGUMENT, "'fsync' is not an option of the zip store",
                 R"({"store": {"fsync": true}})", StoreAccess::kCreate);
  EXPECT_FALSE(fs::exists(dir / "e.zip"));
}
#else
TEST(Urls, ZipUrlsSayTheBuildLacksZip) {
  test::TempDir dir;
  expect_refused(dir / "a.zip|zip:", ZARR_ERR_UNSUPPORTED, "built without zip support", nullptr,
                 StoreAccess::kCreate);
}
#endif

TEST(Urls, MalformedZipUrls) {
  test::TempDir dir;
  expect_refused("|zip:a", ZARR_ERR_INVALID_ARGUMENT, "no path or URL before '|zip:'");
  expect_refused(dir / "a.zip|zip:../x", ZARR_ERR_INVALID_ARGUMENT, "..");
  expect_refused(dir / "a.zip|tar:x", ZARR_ERR_INVALID_ARGUMENT, "unknown adapter 'tar:'");
  expect_refused("gopher://h/a.zip|zip:x", ZARR_ERR_INVALID_ARGUMENT, "unknown scheme 'gopher'");
  expect_refused("memory://m|zip:x", ZARR_ERR_UNSUPPORTED, "local files only");
  expect_refused("http://127.0.0.1:9/a.zip|zip:x", ZARR_ERR_UNSUPPORTED, "local files only");
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// ---- store options -------------------------------------------------------------------------

TEST(Urls, StoreOptionsOfTheFilesystemAndMemoryStores) {
  test::TempDir dir;
  EXPECT_TRUE(resolve_with(dir / "a", StoreAccess::kReadWrite, R"({"store": {"fsync": true}})").store->writable());
  expect_refused(dir / "a", ZARR_ERR_INVALID_ARGUMENT, "'fsync' must be true or false", R"({"store": {"fsync": 1}})");
  expect_refused(dir / "a", ZARR_ERR_INVALID_ARGUMENT,
                 "store option 'bogus' is not an option of the filesystem store (URL '" + (dir / "a") +
                     "'; its options: fsync, max_value_bytes)",
                 R"({"store": {"bogus": 1}})");
  expect_refused("memory://m", ZARR_ERR_INVALID_ARGUMENT, "its options: max_value_bytes)",
                 R"({"store": {"fsync": true}})");
}

// "max_value_bytes" is libzarr's option of every store: it sets the store's
// limit of values no metadata bounds, checked before any store opens.
TEST(Urls, MaxValueBytesIsAnOptionOfEveryStore) {
  test::TempDir dir;
  EXPECT_EQ(resolve_with(dir / "a", StoreAccess::kRead, "{}").store->value_limit(), kDefaultMaxValueBytes);
  EXPECT_EQ(resolve_with(dir / "a", StoreAccess::kRead, R"({"store": {"max_value_bytes": 1000}})").store->value_limit(),
            1000u);
  EXPECT_EQ(resolve_with("memory://limits", StoreAccess::kRead, R"({"store": {"max_value_bytes": 7}})")
                .store->value_limit(),
            7u);
  for (const char* bad : {"0", "-1", "\"big\"", "1.5"}) {
    expect_refused(dir / "b", ZARR_ERR_INVALID_ARGUMENT, "store option 'max_value_bytes' must be an integer from 1",
                   (std::string(R"({"store": {"max_value_bytes": )") + bad + "}}").c_str());
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

TEST(Urls, OptionsDocumentIsCheckedBeforeAnyStore) {
  EXPECT_TRUE(parse_open_options(nullptr).document.IsObject());
  EXPECT_EQ(parse_open_options("").store, nullptr);
  EXPECT_NE(parse_open_options(R"({"store": {}})").store, nullptr);
  EXPECT_EQ(catch_error([] { parse_open_options("[1]"); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([] { parse_open_options("{\"store\": 3}"); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([] { parse_open_options("{\"store\": "); }).code, ZARR_ERR_INVALID_METADATA);
}

}  // namespace
}  // namespace zarr
