#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
int run_cat(int, char**) { throw CliError(kExitOther, "cat: not implemented yet"); }
}  // namespace zarrtool
