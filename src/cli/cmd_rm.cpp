// zarrtool rm URL --yes: delete an array or group (and everything below it).
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli_common.h"
#include "commands.h"

namespace fs = std::filesystem;

namespace zarrtool {
namespace {

const char kRmHelp[] =
    "usage: zarrtool rm URL --yes\n\n"
    "Delete the array or group at URL with everything below it. URL must hold a Zarr\n"
    "node (so a mistyped path deletes nothing) and be on a filesystem store: the C\n"
    "API offers no way to erase keys of other stores.\n\n"
    "  --yes   required: confirms the deletion\n";

}  // namespace

int run_rm(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kRmHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{"--yes"}, {}});
  require_positionals(args, 1, "zarrtool rm URL --yes");
  if (!args.has("--yes")) usage_error("rm deletes data: add --yes to confirm");
  const std::string& url = args.positionals[0];
  const std::string dir = local_directory(url);
  if (dir.empty()) throw CliError(kExitOther, "cannot remove " + url + ": only filesystem stores are supported");
  // Opening proves a Zarr node is there before anything is deleted.
  { Node node = open_node(url, "r"); }
  const fs::path target = fs::absolute(dir).lexically_normal();
  if (target == target.root_path()) throw CliError(kExitOther, "cannot remove " + url + ": refusing the root");
  std::error_code ec;
  fs::remove_all(target, ec);
  if (ec) throw CliError(kExitOther, "cannot remove " + url + ": " + ec.message());
  return kExitOk;
}

}  // namespace zarrtool
