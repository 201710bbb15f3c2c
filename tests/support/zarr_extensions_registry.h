// The zarr-extensions registry on disk (../shared/specs/zarr-extensions beside
// the source root): its folder, the extension folders of each point, and the
// JSON examples of an extension's README.md, for tests that hold libzarr to
// what the registry says.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "base/zarr_extensions.h"

namespace zarr::test {

// ../shared/specs/zarr-extensions beside the source root, whether present or
// not (tests GTEST_SKIP naming it when it is absent).
std::string zarr_extensions_registry_dir();
bool zarr_extensions_registry_present();

// The folder of one extension: <registry>/codecs/zstd.
std::string registry_extension_dir(ExtensionPoint point, const std::string& name);

// Every extension point, in the order of the registry's README.
const std::vector<ExtensionPoint>& registry_extension_points();

// The extension folders of one point (each holds a README.md); empty when
// the registry is absent.
std::set<std::string> registry_extension_folders(ExtensionPoint point);

// The code blocks of an extension's README.md that hold JSON (fenced as
// json, jsonc or javascript), in order and as written; empty when the README
// is absent.
std::vector<std::string> registry_readme_json_blocks(ExtensionPoint point, const std::string& name);

// A README's JSON as strict JSON: the READMEs write JSON for people, with
// // comments, "..." lines for what they leave out, and trailing commas;
// these are removed (outside strings), and a block that is one member
// ("fill_value": "foo") is made an object of it. Anything else stays as
// written.
std::string strict_json_of_readme_block(const std::string& block);

}  // namespace zarr::test
