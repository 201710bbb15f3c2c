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
    {"dump", run_dump, "print the metadata and attributes of every node below a group (--json)"},
    {"tree", run_tree, "show a hierarchy with each array's shape and data type"},
    {"cat", run_cat, "print an array's values, or a region of them, as text or raw bytes"},
    {"create", run_create, "create an empty array"},
    {"verify", run_verify, "read every chunk and report missing or corrupt ones"},
    {"rm", run_rm, "delete an array or group from a filesystem store"},
    {"cp", run_cp, "copy an array, converting its format, chunks or codecs"},
    {"consolidate", run_consolidate, "write a group's consolidated metadata (.zmetadata or zarr.json)"},
    {"migrate", run_migrate, "convert a node in place: v1 to v2, or v2 (a whole group) to v3"},
};

void print_usage(FILE* to) {
  std::fprintf(to, "usage: zarrtool [--store-options JSON] [--no-consolidated] <command> [options] URL...\n\n"
                   "commands:\n");
  for (const auto& sub : kSubcommands) std::fprintf(to, "  %-11s %s\n", sub.name, sub.summary);
  std::fprintf(to,
               "\n'zarrtool help <command>' or 'zarrtool <command> --help' describes a command.\n"
               "URLs are as libzarr opens them: a path, file://, memory://, ARCHIVE.zip|zip:node\n"
               "(a path to a .zip file, or below one, opens inside it), http(s)://, s3://.\n"
               "--store-options JSON gives the store options of every URL (docs/urls.md), e.g.\n"
               "'{\"anonymous\": true}' for a public S3 bucket; it may also follow the command.\n"
               "--no-consolidated opens groups from each node's own metadata, ignoring the\n"
               "consolidated metadata (.zmetadata, or consolidated_metadata in zarr.json).\n"
               "Exit codes: 0 ok, 1 failure, 2 usage error, 3 missing data, 4 corrupt data.\n");
}

const Subcommand* find_subcommand(const char* name) {
  for (const auto& sub : kSubcommands) {
    if (std::strcmp(sub.name, name) == 0) return &sub;
  }
  return nullptr;
}

// `zarrtool help [COMMAND]`: the usage, or the command's own --help.
int run_help(int argc, char** argv) {
  if (argc == 0) {
    print_usage(stdout);
    return kExitOk;
  }
  const Subcommand* sub = find_subcommand(argv[0]);
  if (!sub || argc > 1) usage_error(std::string("help takes one command name, e.g. zarrtool help cp") +
                                    (sub ? "" : std::string(" ('") + argv[0] + "' is not one)"));
  char help_flag[] = "--help";
  char* help_argv[] = {help_flag, nullptr};
  return sub->run(1, help_argv);
}

// Runs the subcommand named after the global options; failures become one
// line on stderr and an exit code.
int dispatch(int argc, char** argv) {
  int at = 1;
  // Global options before the command: --store-options JSON (or =JSON).
  while (at < argc && (std::strncmp(argv[at], "--store-options", 15) == 0 ||
                       std::strcmp(argv[at], "--no-consolidated") == 0)) {
    const char* inline_value = std::strchr(argv[at], '=');
    if (std::strcmp(argv[at], "--no-consolidated") == 0) {
      ignore_consolidated();
      at += 1;
    } else if (inline_value) {
      set_store_options(inline_value + 1);
      at += 1;
    } else if (at + 1 < argc) {
      set_store_options(argv[at + 1]);
      at += 2;
    } else {
      usage_error("option --store-options needs a value");
    }
  }
  if (at >= argc) {
    print_usage(stderr);
    return kExitUsage;
  }
  const char* name = argv[at];
  if (std::strcmp(name, "--help") == 0 || std::strcmp(name, "-h") == 0) {
    print_usage(stdout);
    return kExitOk;
  }
  if (std::strcmp(name, "help") == 0) return run_help(argc - at - 1, argv + at + 1);
  if (std::strcmp(name, "--version") == 0) {
    std::printf("zarrtool (libzarr %s)\n", zarr_version_string());
    return kExitOk;
  }
  const Subcommand* sub = find_subcommand(name);
  if (!sub) usage_error(std::string("unknown command '") + name + "' (try zarrtool --help)");
  try {
    return sub->run(argc - at - 1, argv + at + 1);
  } catch (const CliError&) {
    throw;
  } catch (const std::exception& e) {
    throw CliError(kExitOther, std::string(sub->name) + ": " + e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const CliError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "zarrtool: %s\n", shown(e.what()).c_str());
    return e.code;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "zarrtool: %s\n", shown(e.what()).c_str());
    return kExitOther;
  }
}
