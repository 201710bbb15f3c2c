// base/zarr_extensions.h's table of registered names against the registry's
// folders (../shared/specs/zarr-extensions), and docs/v3.md's table of
// registered extensions against both: a name the registry gains fails here
// until the table and the docs list it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/zarr_extensions.h"
#include "support/test_support.h"
#include "support/zarr_extensions_registry.h"

using namespace zarr;
using namespace zarr::test;

namespace {

std::set<std::string> table_names(ExtensionPoint point) {
  const std::vector<std::string>& names = registered_extension_names(point);
  return std::set<std::string>(names.begin(), names.end());
}

std::string trimmed(const std::string& s) {
  const size_t begin = s.find_first_not_of(" `");
  const size_t end = s.find_last_not_of(" `");
  return begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

// docs/v3.md's registry table: (noun, name) -> the "libzarr" column.
std::map<std::pair<std::string, std::string>, std::string> docs_table() {
  std::ifstream in(std::string(ZARR_SOURCE_ROOT) + "/docs/v3.md");
  std::map<std::pair<std::string, std::string>, std::string> rows;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.find("<!-- registry table") != std::string::npos) inside = true;
    if (line.find("<!-- end registry table") != std::string::npos) break;
    if (!inside || line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream cells_in(line.substr(1));
    for (std::string cell; std::getline(cells_in, cell, '|');) cells.push_back(trimmed(cell));
    if (cells.size() >= 4) rows[{cells[0], cells[1]}] = cells[2];
  }
  return rows;
}

}  // namespace

TEST(ZarrExtensions, TheTableHoldsEveryRegisteredNameAndNoOther) {
  if (!zarr_extensions_registry_present()) GTEST_SKIP() << "no registry at " << zarr_extensions_registry_dir();
  for (ExtensionPoint point : registry_extension_points()) {
    SCOPED_TRACE(extension_point_folder(point));
    EXPECT_EQ(table_names(point), registry_extension_folders(point));
  }
}

TEST(ZarrExtensions, DocsV3ListsEveryRegisteredExtensionWithYesOrNo) {
  const auto rows = docs_table();
  ASSERT_FALSE(rows.empty()) << "docs/v3.md has no <!-- registry table --> section";
  const bool have_registry = zarr_extensions_registry_present();
  for (ExtensionPoint point : registry_extension_points()) {
    // With the registry at hand its folders are the list; without it, the table in source.
    const std::set<std::string> names = have_registry ? registry_extension_folders(point) : table_names(point);
    for (const std::string& name : names) {
      const auto row = rows.find({extension_point_noun(point), name});
      if (row == rows.end()) {
        ADD_FAILURE() << "docs/v3.md's registry table has no row for " << extension_point_noun(point) << " " << name;
        continue;
      }
      EXPECT_TRUE(row->second == "yes" || row->second == "no")
          << extension_point_noun(point) << " " << name << ": " << row->second;
    }
  }
  if (!have_registry) GTEST_SKIP() << "no registry at " << zarr_extensions_registry_dir() << ": checked against the source table only";
}

TEST(ZarrExtensions, UnimplementedNoteNamesRegisteredExtensionsOnly) {
  EXPECT_EQ(registered_but_unimplemented_note(ExtensionPoint::Codec, "zfp"),
            "; 'zfp' is a codec of the zarr-extensions registry that libzarr does not implement yet");
  EXPECT_EQ(registered_but_unimplemented_note(ExtensionPoint::ChunkGrid, "rectilinear"),
            "; 'rectilinear' is a chunk grid of the zarr-extensions registry that libzarr does not implement yet");
  EXPECT_EQ(registered_but_unimplemented_note(ExtensionPoint::Codec, "frobnicate"), "");
  EXPECT_EQ(registered_but_unimplemented_note(ExtensionPoint::DataType, "zfp"), "");  // a codec, not a type
  EXPECT_EQ(registered_but_unimplemented_note(ExtensionPoint::DataType, "r"), "");    // r8, r16, ... only
}
