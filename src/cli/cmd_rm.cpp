// zarrtool rm URL [--yes]: erase an array or group and everything below it
// (zarr_erase), on any store that can erase.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kRmHelp[] =
    "usage: zarrtool rm URL [--yes]\n\n"
    "Erase the array or group at URL with everything below it (chunks, children,\n"
    "attributes). URL must hold a Zarr node, so a mistyped path erases nothing. On a\n"
    "terminal rm asks for confirmation; otherwise --yes is required. Read-only stores\n"
    "(HTTP, an existing zip archive) refuse.\n\n"
    "  --yes   erase without asking\n";

// Ask on the terminal; anything but "y" or "yes" declines.
bool confirmed_on_terminal(const std::string& url) {
  std::fprintf(stderr, "erase %s and everything below it? [y/N] ", shown(url).c_str());
  std::fflush(stderr);
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "y" || answer == "Y" || answer == "yes";
}

}  // namespace

int run_rm(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kRmHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{"--yes"}, {}});
  require_positionals(args, 1, "zarrtool rm URL [--yes]");
  const std::string& url = args.positionals[0];
  if (!args.has("--yes")) {
    if (!::isatty(STDIN_FILENO)) usage_error("rm erases data: add --yes to confirm (stdin is not a terminal)");
    if (!confirmed_on_terminal(url)) throw CliError(kExitOther, "not erased: " + url);
  }
  erase_node(url);
  return kExitOk;
}

}  // namespace zarrtool
