#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
int run_tree(int, char**) { throw CliError(kExitOther, "tree: not implemented yet"); }
}  // namespace zarrtool
