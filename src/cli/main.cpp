// zarrtool: inspect, check and convert Zarr arrays and groups from the shell.
// Dispatches to one function per subcommand and turns failures into one line
// on stderr and an exit code (docs/cli.md).
#include <cstdio>
#include <cstring>
#include <string>

#include "cli_common.h"
#include "commands.h"

using namespace zarrtool;

namespace {

struct Subcommand {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;
};

const Subcommand kSubcommands[] = {
    {"info", run_info, "describe an array or group (--json for machines)"},
    {"tree", run_tree, "show a hierarchy with each array's shape and data type"},
    {"cat", run_cat, "print an array's values, or a region of them, as text or raw bytes"},
    {"create", run_create, "create an empty array"},
    {"verify", run_verify, "read every chunk and report missing or corrupt ones"},
    {"rm", run_rm, "delete an array or group from a filesystem store"},
    {"cp", run_cp, "copy an array, converting its format, chunks or codecs"},
};

void print_usage(FILE* to) {
  std::fprintf(to, "usage: zarrtool <command> [options] URL...\n\ncommands:\n");
  for (const auto& sub : kSubcommands) std::fprintf(to, "  %-8s %s\n", sub.name, sub.summary);
  std::fprintf(to,
               "\n'zarrtool <command> --help' describes a command. URLs are as libzarr opens them:\n"
               "a path, file://, memory://, ARCHIVE.zip|zip:node, http(s)://, s3://.\n"
               "Exit codes: 0 ok, 1 failure, 2 usage error, 3 missing data, 4 corrupt data.\n");
}

const Subcommand* find_subcommand(const char* name) {
  for (const auto& sub : kSubcommands) {
    if (std::strcmp(sub.name, name) == 0) return &sub;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return kExitUsage;
  }
  if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "help") == 0) {
    print_usage(stdout);
    return kExitOk;
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::printf("zarrtool (libzarr %s)\n", zarr_version_string());
    return kExitOk;
  }
  const Subcommand* sub = find_subcommand(argv[1]);
  if (!sub) {
    std::fprintf(stderr, "zarrtool: unknown command '%s' (try zarrtool --help)\n", argv[1]);
    return kExitUsage;
  }
  try {
    return sub->run(argc - 2, argv + 2);
  } catch (const CliError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "zarrtool: %s\n", shown(e.what()).c_str());
    return e.code;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "zarrtool: %s: %s\n", sub->name, shown(e.what()).c_str());
    return kExitOther;
  }
}
