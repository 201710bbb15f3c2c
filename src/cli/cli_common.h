// What every zarrtool subcommand shares: argument parsing, errors with their
// exit codes, RAII handles over the C API, and small formatting helpers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "zarr/zarr.h"

namespace zarrtool {

// Exit codes, documented in docs/cli.md.
enum ExitCode : int {
  kExitOk = 0,
  kExitOther = 1,
  kExitUsage = 2,
  kExitMissing = 3,
  kExitCorrupt = 4,
};

// Thrown by subcommands; main() prints "zarrtool: <message>" and exits with code.
struct CliError : std::runtime_error {
  CliError(int exit_code, const std::string& message) : std::runtime_error(message), code(exit_code) {}
  int code;
};

[[noreturn]] void usage_error(const std::string& message);

// The exit code a libzarr status maps to: missing data 3, codec failures 4, else 1.
int exit_code_for(int status);

// Throws CliError "<what>: <zarr_last_error()>" when status is not ZARR_OK.
void check(int status, const std::string& what);

// Command-line arguments after the subcommand name: positionals in order and
// options by name ("--json" -> "" for flags). Options take "--name value" or
// "--name=value"; an option the subcommand did not declare is a usage error.
struct Args {
  std::vector<std::string> positionals;
  std::map<std::string, std::string> options;

  bool has(const std::string& name) const { return options.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
};

struct OptionSpec {
  std::set<std::string> flags;         // options without a value
  std::set<std::string> valued;        // options followed by a value
};

Args parse_args(int argc, char** argv, const OptionSpec& spec);

// True when argv holds --help or -h (checked before parsing, so it works
// whatever else is on the line).
bool wants_help(int argc, char** argv);

// Requires exactly n positionals, else a usage error naming the subcommand.
void require_positionals(const Args& args, size_t n, const char* usage);

// "100,100" -> {100, 100}; a usage error naming option on anything else.
std::vector<uint64_t> parse_extents(const std::string& text, const std::string& option);

// Owning handles: closed on scope exit.
struct ArrayCloser { void operator()(zarr_array* a) const { zarr_close(a); } };
struct GroupCloser { void operator()(zarr_group* g) const { zarr_group_close(g); } };
using ArrayHandle = std::unique_ptr<zarr_array, ArrayCloser>;
using GroupHandle = std::unique_ptr<zarr_group, GroupCloser>;

// --store-options JSON (a global option, before or after the subcommand):
// options of the store every URL names, passed to each open, create and
// erase as the "store" member of the C API's options (docs/urls.md). Not a
// JSON object is a usage error.
void set_store_options(const std::string& json);
// --no-consolidated: groups are opened from each node's own metadata,
// ignoring consolidated metadata.
void ignore_consolidated();
// True when the group at url has consolidated metadata.
bool has_consolidated_metadata(const std::string& url);
// The group at url opened "r" with consolidated metadata (true: required)
// or from each node's own metadata (false): what is stored.
GroupHandle open_group_with(const std::string& url, bool consolidated);
// The options JSON of the C API's _ex functions: `members` (e.g.
// "\"zarr_format\":3", or "") and the store options.
std::string api_options(const std::string& members = "");

// The URL libzarr is given for one a user typed: a path to a zip archive, or
// to a node inside one (data.zip, data.zip/group/a), opens inside it
// (data.zip|zip:, data.zip|zip:group/a); everything else is left as it is.
std::string store_url(const std::string& url);

ArrayHandle open_array(const std::string& url, const char* mode);
GroupHandle open_group(const std::string& url, const char* mode);
// zarr_create_ex / zarr_group_create_ex with the store options; a group of
// `format` (2 or 3), attributes_json may be empty.
ArrayHandle create_array(const std::string& url, const std::string& document);
GroupHandle create_group(const std::string& url, const std::string& attributes_json, int format);
// zarr_erase with the store options.
void erase_node(const std::string& url);

// The children of a group, as its listing gives them: name and
// ZARR_NODE_ARRAY or ZARR_NODE_GROUP.
struct Child {
  std::string name;
  int kind;
};
std::vector<Child> group_children(zarr_group* group, const std::string& url);
// The same, or nullopt when the group's store cannot list (HTTP without
// consolidated metadata).
std::optional<std::vector<Child>> group_children_if_listable(zarr_group* group, const std::string& url);
// A child group opened through its parent's handle, so that it is seen as the
// parent sees it (through the parent's consolidated metadata): opening
// child_url anew would not find a consolidated document above it.
GroupHandle open_child_group(zarr_group* parent, const std::string& name, const std::string& child_url);
// What the group's store holds at its child `name` (its own metadata, not a
// listing): ZARR_NODE_ARRAY, ZARR_NODE_GROUP, or 0 for nothing.
int stored_child_kind(zarr_group* group, const std::string& name, const std::string& child_url);

// Opens url as an array, or failing that as a group; exactly one is set.
// Neither there is a CliError with exit code 3.
struct Node {
  ArrayHandle array;
  GroupHandle group;
};
Node open_node(const std::string& url, const char* mode);

// A JSON string the library allocated, released with zarr_free.
std::string take_json(char* json);
std::string array_metadata_json(const zarr_array* array);
std::string array_attributes_json(const zarr_array* array);
rapidjson::Document parse_json(const std::string& text, const std::string& what);
std::string to_json(const rapidjson::Value& value);

std::vector<uint64_t> array_shape(const zarr_array* array);
std::vector<uint64_t> array_chunk_shape(const zarr_array* array);
// The element count of a box (1 for 0-d); more than 2^64 - 1 is a CliError.
uint64_t product(const std::vector<uint64_t>& extents);
// The bytes a buffer of `elements` items of `item_size` bytes needs; more than
// any buffer holds is a CliError naming `what`.
size_t buffer_bytes(uint64_t elements, size_t item_size, const std::string& what);

// "(100, 100)" as Python prints a shape tuple; "(5,)" for one dimension.
std::string python_shape(const std::vector<uint64_t>& extents);
// zarr_data_type() without the JSON quotes it has for v2 dtype strings.
std::string display_data_type(const zarr_array* array);

// The filesystem directory a URL names, or "" for other stores (memory://,
// zip archives, http, s3): stored-size statistics and rm need a directory.
std::string local_directory(const std::string& url);

// Where a URL points, to tell whether one node lies inside another: its
// store ("file" for the filesystem, "zip:ARCHIVE", "memory://NAME",
// "s3://BUCKET", "http://HOST") and the node's path segments there. A
// filesystem path (of a node or of an archive) is resolved as the kernel
// resolves it, links and ".." in order, so every spelling of a folder gives
// one location.
struct Location {
  std::string store;
  std::vector<std::string> segments;
};
Location locate(const std::string& url);
// True when `inner` is `outer` or lies below it.
bool is_within(const Location& inner, const Location& outer);

// The URL of the child named `child` (one node name) of the node at `url`
// ("a" + "b" -> "a/b"): zarr::path::join_url, which encodes the name where
// the URL is decoded. A name that is not one segment is a CliError.
std::string join_url(const std::string& url, const std::string& child);

}  // namespace zarrtool

namespace zarrtool {

// Text made inert for a terminal: control characters (but those in
// kept_controls) and bytes that are not well-formed UTF-8 as \xNN, C1 and
// bidirectional controls as \uNNNN (a name holding terminal escape
// sequences, or reordering what follows it, prints as text).
std::string terminal_safe(std::string_view text, std::string_view kept_controls = {});

// Text as zarrtool shows it: URLs without their userinfo, query and
// fragment (zarr::scrub_secrets, as libzarr's own messages), made
// terminal_safe.
std::string shown(const std::string& text);

// Prints help to stdout and returns true when argv asks for it.
bool print_help_if_asked(int argc, char** argv, const char* help);

// s as a JSON string literal, escaped.
std::string json_string(const std::string& s);

}  // namespace zarrtool
