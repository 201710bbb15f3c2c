// The subcommands. Each takes the arguments after its name, returns an exit
// code, and throws CliError on failure.
#pragma once

namespace zarrtool {

int run_info(int argc, char** argv);
int run_dump(int argc, char** argv);
int run_tree(int argc, char** argv);
int run_cat(int argc, char** argv);
int run_create(int argc, char** argv);
int run_verify(int argc, char** argv);
int run_rm(int argc, char** argv);
int run_cp(int argc, char** argv);
int run_consolidate(int argc, char** argv);
int run_migrate(int argc, char** argv);

}  // namespace zarrtool
