#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
int run_verify(int, char**) { throw CliError(kExitOther, "verify: not implemented yet"); }
}  // namespace zarrtool
