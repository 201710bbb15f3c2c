#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
int run_cp(int, char**) { throw CliError(kExitOther, "cp: not implemented yet"); }
}  // namespace zarrtool
