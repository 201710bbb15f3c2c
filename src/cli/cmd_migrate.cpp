// zarrtool migrate v1|v2 URL: the library's in-place migrations
// (zarr_migrate_v1_to_v2, zarr_migrate_v2_to_v3).
#include <cstdio>
#include <string>

#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kMigrateHelp[] =
    "usage: zarrtool migrate v1|v2 URL\n\n"
    "Convert the node at URL in place to the next Zarr format:\n"
    "  v1  a legacy Zarr v1 array (keys meta and attrs) becomes Zarr v2 (.zarray and\n"
    "      .zattrs); its chunks keep their keys and bytes.\n"
    "  v2  a Zarr v2 array, or a v2 group and everything below it, becomes Zarr v3:\n"
    "      each node gets a zarr.json (chunk key encoding \"v2\", so no chunk is\n"
    "      rewritten; attributes move inside) and loses .zarray/.zgroup/.zattrs.\n"
    "      Every node is checked before anything is written: one v3 cannot express\n"
    "      (json2 object arrays, structured types with subarray fields or padding)\n"
    "      stops the migration, named, with nothing changed; other structured types\n"
    "      become v3 struct. A node below a v2 group is refused (one hierarchy\n"
    "      has one format): migrate from the root group. Consolidated metadata is\n"
    "      kept: a group's .zmetadata becomes its v3 consolidated_metadata.\n"
    "To copy into a new array with other chunks or codecs instead, use zarrtool cp\n"
    "--format 3. The store options of --store-options do not apply here.\n";

}  // namespace

int run_migrate(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kMigrateHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{});
  require_positionals(args, 2, "zarrtool migrate v1|v2 URL");
  const std::string& from = args.positionals[0];
  const std::string& url = args.positionals[1];
  if (from != "v1" && from != "v2") usage_error("migrate takes v1 or v2 (the format to migrate from), not '" + from + "'");
  const std::string target = store_url(url);
  const int status = from == "v1" ? zarr_migrate_v1_to_v2(target.c_str()) : zarr_migrate_v2_to_v3(target.c_str());
  if (status == ZARR_ERR_NOT_FOUND) throw CliError(kExitMissing, "migrate " + url + ": " + zarr_last_error());
  check(status, "cannot migrate " + url);
  std::printf("%s: migrated from Zarr %s to Zarr %s\n", shown(url).c_str(), from.c_str(), from == "v1" ? "v2" : "v3");
  return kExitOk;
}

}  // namespace zarrtool
