// zarrtool consolidate URL: write a group's consolidated metadata
// (zarr_consolidate_metadata), as zarr.consolidate_metadata does.
#include <cstdio>
#include <string>

#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kConsolidateHelp[] =
    "usage: zarrtool consolidate URL\n\n"
    "Write the consolidated metadata of the group at URL: every node's metadata and\n"
    "attributes below it in one document, as zarr-python's consolidate_metadata does\n"
    "(Zarr v2: URL/.zmetadata; v3: the consolidated_metadata member of URL/zarr.json).\n"
    "Readers that open the group through it (zarr-python, xarray, GDAL, libzarr) then\n"
    "read one document instead of every node's. libzarr keeps it in step as it changes\n"
    "the hierarchy; run this after another tool changed it, or to add one. The store\n"
    "options of --store-options do not apply: S3 settings come from the environment.\n";

}  // namespace

int run_consolidate(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kConsolidateHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{});
  require_positionals(args, 1, "zarrtool consolidate URL");
  const std::string& url = args.positionals[0];
  const int status = zarr_consolidate_metadata(store_url(url).c_str());
  if (status == ZARR_ERR_NOT_FOUND) throw CliError(kExitMissing, "consolidate " + url + ": " + zarr_last_error());
  check(status, "cannot consolidate " + url);
  std::printf("%s: consolidated metadata written\n", shown(url).c_str());
  return kExitOk;
}

}  // namespace zarrtool
