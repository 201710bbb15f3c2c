// zarrtool tree URL: the hierarchy below a group, drawn as zarr-python 2's
// Group.tree() draws it, each array with its shape and data type.
#include <cstdio>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"

namespace zarrtool {
namespace {

const char kTreeHelp[] =
    "usage: zarrtool tree URL\n\n"
    "Draw the hierarchy of the group at URL; each array is followed by its shape and\n"
    "data type, as zarr-python's Group.tree() shows them. An array URL prints its line only.\n";

std::string array_label(const std::string& name, const zarr_array* array) {
  return shown(name) + " " + python_shape(array_shape(array)) + " " + shown(display_data_type(array));
}

void print_group_children(zarr_group* group, const std::string& url, const std::string& indent) {
  std::vector<Child> children = group_children(group, url);
  for (size_t i = 0; i < children.size(); ++i) {
    const bool last = i + 1 == children.size();
    const Child& child = children[i];
    const std::string child_url = join_url(url, child.name);
    std::string branch = indent + (last ? "└── " : "├── ");
    if (child.kind == ZARR_NODE_ARRAY) {
      zarr_array* raw = nullptr;
      check(zarr_group_open_array(&raw, group, child.name.c_str(), "r"), "cannot open array " + child_url);
      ArrayHandle array(raw);
      std::printf("%s%s\n", branch.c_str(), array_label(child.name, array.get()).c_str());
      continue;
    }
    std::printf("%s%s\n", branch.c_str(), shown(child.name).c_str());
    print_group_children(open_child_group(group, child.name, child_url).get(), child_url,
                         indent + (last ? "    " : "│   "));
  }
}

}  // namespace

int run_tree(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kTreeHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{});
  require_positionals(args, 1, "zarrtool tree URL");
  const std::string& url = args.positionals[0];
  Node node = open_node(url, "r");
  if (node.array) {
    std::printf("%s\n", array_label("/", node.array.get()).c_str());
    return kExitOk;
  }
  std::printf("/\n");
  print_group_children(node.group.get(), url, " ");
  return kExitOk;
}

}  // namespace zarrtool
