// docs/codecs.md lists every codec: each id the registry holds in the v2
// column, each v3 name make_v3_codec_chain accepts in the v3 column, so the
// table cannot fall behind the code.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/json.h"
#include "codecs/codec.h"
#include "codecs/v3_chain.h"

namespace zarr {
namespace {

struct Table {
  std::set<std::string> v2_ids, v3_names;
};

// The backquoted names of the first two columns of the table's rows.
Table read_table() {
  std::ifstream in(std::string(ZARR_SOURCE_ROOT) + "/docs/codecs.md");
  EXPECT_TRUE(in) << "cannot read docs/codecs.md";
  Table t;
  const std::regex quoted("`([^`]+)`");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    std::string cell;
    while (std::getline(row, cell, '|')) cells.push_back(cell);
    if (cells.size() < 2) continue;
    for (int column = 0; column < 2; ++column) {
      for (std::sregex_iterator it(cells[column].begin(), cells[column].end(), quoted), end; it != end; ++it) {
        (column == 0 ? t.v2_ids : t.v3_names).insert((*it)[1]);
      }
    }
  }
  return t;
}

// A v3 name is known when a chain holding it, in its place, does not fail
// as unsupported (a missing configuration is fine: the name was understood).
bool v3_name_known(const std::string& name) {
  const ArrayRepr repr{{4}, DataType::from_typestr("<i4", "test"), Bytes(4, 0)};
  const std::string item = "{\"name\":" + json::quote(name) + "}";
  const std::string bytes = R"({"name":"bytes","configuration":{"endian":"little"}})";
  const bool array_to_bytes = name == "bytes" || name == "sharding_indexed" || name.rfind("vlen-", 0) == 0;
  const bool array_to_array = name == "transpose";
  const std::string codecs = array_to_bytes ? "[" + item + "]"
                             : array_to_array ? "[" + item + "," + bytes + "]"
                                              : "[" + bytes + "," + item + "]";
  try {
    make_v3_codec_chain(json::parse(codecs, "test"), repr, "test");
  } catch (const Error& e) {
    return e.code() != ZARR_ERR_UNSUPPORTED;
  }
  return true;
}

TEST(CodecTable, NamesEveryRegisteredCodec) {
  const Table t = read_table();
  ASSERT_GT(t.v2_ids.size(), 15u) << "the table in docs/codecs.md was not found";
  for (const std::string& id : registered_bytes_codecs()) {
    if (id.rfind("test-", 0) == 0) continue;  // registered by other tests of this executable
    EXPECT_TRUE(t.v2_ids.count(id)) << "docs/codecs.md lacks the v2 id '" << id << "'";
    EXPECT_TRUE(t.v3_names.count("numcodecs." + id)) << "docs/codecs.md lacks 'numcodecs." << id << "'";
  }
  for (const char* core : {"bytes", "transpose", "sharding_indexed", "vlen-utf8", "vlen-bytes", "gzip", "zstd",
                           "blosc", "crc32c", "bitround", "reshape", "cast_value", "scale_offset", "packbits"}) {
    EXPECT_TRUE(t.v3_names.count(core)) << "docs/codecs.md lacks the v3 name '" << core << "'";
  }
}

TEST(CodecTable, ListsOnlyNamesTheLibraryKnows) {
  const Table t = read_table();
  const std::vector<std::string> ids = registered_bytes_codecs();
  const std::set<std::string> registered(ids.begin(), ids.end());
  for (const std::string& id : t.v2_ids) {
    if (id == "vlen-utf8" || id == "vlen-bytes") continue;  // v2 object-array filters, handled by the metadata
    EXPECT_TRUE(registered.count(id)) << "docs/codecs.md lists '" << id << "', which this build does not register";
  }
  EXPECT_FALSE(v3_name_known("no-such-codec"));
  for (const std::string& name : t.v3_names) {
    EXPECT_TRUE(v3_name_known(name)) << "docs/codecs.md lists the v3 name '" << name << "', which is unknown";
  }
}

}  // namespace
}  // namespace zarr
