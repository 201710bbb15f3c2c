#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
int run_rm(int, char**) { throw CliError(kExitOther, "rm: not implemented yet"); }
}  // namespace zarrtool
