#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
int run_create(int, char**) { throw CliError(kExitOther, "create: not implemented yet"); }
}  // namespace zarrtool
