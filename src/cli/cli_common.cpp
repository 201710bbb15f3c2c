#include "cli_common.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "base/scrub.h"
#include "base/text.h"

namespace fs = std::filesystem;

namespace zarrtool {

void usage_error(const std::string& message) { throw CliError(kExitUsage, message); }

namespace {

// The code point of the UTF-8 sequence at text[at], and its length; length 0
// for a byte that does not start a well-formed sequence.
std::pair<uint32_t, size_t> next_code_point(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return {lead, 1};
  const size_t length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  if (length == 0 || at + length > text.size()) return {0, 0};
  uint32_t code = lead & (0x7f >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xc0) != 0x80) return {0, 0};
    code = (code << 6) | (byte(at + i) & 0x3f);
  }
  const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return {0, 0};
  return {code, length};
}

// C1 controls (U+0080..U+009F: U+009B is CSI on many terminals) and the
// bidirectional controls that reorder what a terminal shows (a name that
// reads "gpj.exe" but is "exe.jpg").
bool is_unsafe_code_point(uint32_t code) {
  return (code >= 0x80 && code <= 0x9f) || code == 0x061c || code == 0x200e || code == 0x200f ||
         (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

}  // namespace

std::string terminal_safe(std::string_view text, std::string_view kept_controls) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    const auto [code, length] = next_code_point(text, at);
    const bool control = length == 1 && (code < 0x20 || code == 0x7f) && kept_controls.find(text[at]) == std::string_view::npos;
    char escape[12];
    if (length == 0 || control) {
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(text[at]));
      out += escape;
      at += 1;
    } else if (is_unsafe_code_point(code)) {
      std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(code));
      out += escape;
      at += length;
    } else {
      out.append(text.substr(at, length));
      at += length;
    }
  }
  return out;
}

std::string shown(const std::string& text) { return terminal_safe(zarr::scrub_secrets(text)); }

int exit_code_for(int status) {
  switch (status) {
    case ZARR_OK: return kExitOk;
    case ZARR_ERR_NOT_FOUND: return kExitMissing;
    case ZARR_ERR_CODEC: return kExitCorrupt;
    default: return kExitOther;
  }
}

void check(int status, const std::string& what) {
  if (status == ZARR_OK) return;
  throw CliError(exit_code_for(status), what + ": " + zarr_last_error());
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second;
}

bool wants_help(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  }
  return false;
}

// Splits "--name=value" into its two halves; value is empty without '='.
static std::pair<std::string, std::optional<std::string>> split_option(const std::string& word) {
  size_t eq = word.find('=');
  if (eq == std::string::npos) return {word, std::nullopt};
  return {word.substr(0, eq), word.substr(eq + 1)};
}

Args parse_args(int argc, char** argv, const OptionSpec& spec) {
  Args args;
  for (int i = 0; i < argc; ++i) {
    std::string word = argv[i];
    // A lone "-" or a negative number is a positional, not an option.
    if (word.size() < 3 || word.compare(0, 2, "--") != 0) {
      args.positionals.push_back(word);
      continue;
    }
    auto [name, inline_value] = split_option(word);
    if (name == "--store-options") {  // global: accepted by every subcommand
      if (!inline_value && i + 1 >= argc) usage_error("option --store-options needs a value");
      set_store_options(inline_value ? *inline_value : argv[++i]);
    } else if (name == "--no-consolidated") {  // global too
      if (inline_value) usage_error("option --no-consolidated takes no value");
      ignore_consolidated();
    } else if (spec.flags.count(name)) {
      if (inline_value) usage_error("option " + name + " takes no value");
      args.options[name] = "";
    } else if (spec.valued.count(name)) {
      if (inline_value) {
        args.options[name] = *inline_value;
      } else if (i + 1 < argc) {
        args.options[name] = argv[++i];
      } else {
        usage_error("option " + name + " needs a value");
      }
    } else {
      usage_error("unknown option " + name);
    }
  }
  return args;
}

void require_positionals(const Args& args, size_t n, const char* usage) {
  if (args.positionals.size() != n) usage_error(std::string("expected: ") + usage);
}

std::vector<uint64_t> parse_extents(const std::string& text, const std::string& option) {
  std::vector<uint64_t> extents;
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) {
      usage_error(option + " wants comma-separated non-negative integers, got '" + text + "'");
    }
    uint64_t extent = 0;
    if (std::from_chars(item.data(), item.data() + item.size(), extent).ec != std::errc()) {
      usage_error(option + ": " + item + " is out of range (at most " + std::to_string(UINT64_MAX) + ")");
    }
    extents.push_back(extent);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return extents;
}

namespace {

bool is_local(const std::string& url);

std::string& store_options() {
  static std::string options;  // "" or a JSON object
  return options;
}

bool& consolidated_ignored() {
  static bool ignored = false;  // --no-consolidated
  return ignored;
}

bool ends_with_zip(const std::string& name) {
  if (name.size() < 4) return false;
  std::string end = name.substr(name.size() - 4);
  std::transform(end.begin(), end.end(), end.begin(), [](unsigned char c) { return std::tolower(c); });
  return end == ".zip";
}

// A regular file that starts as a zip archive does ("PK\3\4", or "PK\5\6"
// for an empty one).
bool is_zip_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  char magic[4] = {};
  FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  const size_t got = std::fread(magic, 1, sizeof magic, file);
  std::fclose(file);
  return got == 4 && magic[0] == 'P' && magic[1] == 'K' && ((magic[2] == 3 && magic[3] == 4) || (magic[2] == 5 && magic[3] == 6));
}

// What to do when no node is found at url: for the root of a zip archive
// zarrtool opened inside, that the hierarchy may sit in a folder of the
// archive; for another file, " (PATH is a file: a zip archive opens as
// PATH|zip:)"; else "".
std::string zip_hint(const std::string& url) {
  const std::string path = local_directory(url);
  // Nothing at the root of an archive is most often `zip -r data.zip
  // folder`, which keeps folder/ in every name.
  const std::string archive = path.substr(0, path.find_last_not_of('/') + 1);
  if (!archive.empty() && store_url(url) == archive + "|zip:") {
    return " (no node at the root of the archive " + archive + ": an archive made with `zip -r " + archive +
           " FOLDER` holds the hierarchy under FOLDER/, which opens as " + archive + "/FOLDER)";
  }
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) return "";
  return " (" + path + " is a file: a zip archive opens as " + path + "|zip:)";
}

}  // namespace

void set_store_options(const std::string& json) {
  const rapidjson::Document doc = parse_json(json, "--store-options");
  if (!doc.IsObject()) usage_error("--store-options must be a JSON object, got " + json);
  store_options() = json;
}

void ignore_consolidated() { consolidated_ignored() = true; }

bool has_consolidated_metadata(const std::string& url) {
  zarr_group* raw = nullptr;
  const std::string options = api_options("\"consolidated\":true");
  if (zarr_group_open_ex(&raw, store_url(url).c_str(), "r", options.c_str()) != ZARR_OK) return false;
  zarr_group_close(raw);
  return true;
}

GroupHandle open_group_with(const std::string& url, bool consolidated) {
  zarr_group* raw = nullptr;
  const std::string options = api_options(consolidated ? "\"consolidated\":true" : "\"consolidated\":false");
  check(zarr_group_open_ex(&raw, store_url(url).c_str(), "r", options.c_str()), "cannot open group " + url);
  return GroupHandle(raw);
}

// A group's options: the store's, and {"consolidated": false} under --no-consolidated.
std::string group_options() { return api_options(consolidated_ignored() ? "\"consolidated\":false" : ""); }

std::string api_options(const std::string& members) {
  std::string text = "{" + members;
  if (!store_options().empty()) text += (members.empty() ? "" : ",") + std::string("\"store\":") + store_options();
  return text + "}";
}

std::string store_url(const std::string& url) {
  if (url.find('|') != std::string::npos || !is_local(url) || url.rfind("file://", 0) == 0) return url;
  // The shortest prefix ending in ".zip" at a '/' (or the end) that is a zip file.
  for (size_t end = url.find('/', 1);; end = url.find('/', end + 1)) {
    const std::string prefix = url.substr(0, end);
    if (ends_with_zip(prefix) && is_zip_file(prefix)) {
      return prefix + "|zip:" + (end == std::string::npos ? "" : url.substr(end + 1));
    }
    if (end == std::string::npos) return url;
  }
}

ArrayHandle open_array(const std::string& url, const char* mode) {
  zarr_array* raw = nullptr;
  const int status = zarr_open_ex(&raw, store_url(url).c_str(), mode, api_options().c_str());
  if (status == ZARR_ERR_NOT_FOUND) {
    throw CliError(kExitMissing, "cannot open array " + url + ": " + zarr_last_error() + zip_hint(url));
  }
  check(status, "cannot open array " + url);
  return ArrayHandle(raw);
}

GroupHandle open_group(const std::string& url, const char* mode) {
  zarr_group* raw = nullptr;
  check(zarr_group_open_ex(&raw, store_url(url).c_str(), mode, group_options().c_str()), "cannot open group " + url);
  return GroupHandle(raw);
}

ArrayHandle create_array(const std::string& url, const std::string& document) {
  zarr_array* raw = nullptr;
  check(zarr_create_ex(&raw, store_url(url).c_str(), document.c_str(), api_options().c_str()),
        "cannot create array " + url);
  return ArrayHandle(raw);
}

GroupHandle create_group(const std::string& url, const std::string& attributes_json, int format) {
  zarr_group* raw = nullptr;
  const std::string options = api_options("\"zarr_format\":" + std::to_string(format));
  check(zarr_group_create_ex(&raw, store_url(url).c_str(), attributes_json.empty() ? nullptr : attributes_json.c_str(),
                             options.c_str()),
        "cannot create group " + url);
  return GroupHandle(raw);
}

void erase_node(const std::string& url) {
  check(zarr_erase(store_url(url).c_str(), api_options().c_str()), "cannot erase " + url);
}

std::vector<Child> group_children(zarr_group* group, const std::string& url) {
  std::optional<std::vector<Child>> children = group_children_if_listable(group, url);
  // zarr_last_error() still holds the listing's message for check().
  if (!children) check(ZARR_ERR_UNSUPPORTED, "cannot list group " + url);
  return std::move(*children);
}

std::optional<std::vector<Child>> group_children_if_listable(zarr_group* group, const std::string& url) {
  size_t count = 0;
  const int status = zarr_group_child_count(group, &count);
  if (status == ZARR_ERR_UNSUPPORTED) return std::nullopt;
  check(status, "cannot list group " + url);
  // Copied out: opening children may refresh the listing the names live in.
  std::vector<Child> children;
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    int kind = 0;
    check(zarr_group_child(group, i, &name, &kind), "cannot list group " + url);
    children.push_back({name, kind});
  }
  return children;
}

GroupHandle open_child_group(zarr_group* parent, const std::string& name, const std::string& child_url) {
  zarr_group* raw = nullptr;
  check(zarr_group_open_group(&raw, parent, name.c_str()), "cannot open group " + child_url);
  return GroupHandle(raw);
}

int stored_child_kind(zarr_group* group, const std::string& name, const std::string& child_url) {
  zarr_array* array = nullptr;
  int status = zarr_group_open_array(&array, group, name.c_str(), "r");
  zarr_close(array);
  if (status == ZARR_OK) return ZARR_NODE_ARRAY;
  if (status != ZARR_ERR_NOT_FOUND) check(status, "cannot open array " + child_url);
  zarr_group* sub = nullptr;
  status = zarr_group_open_group(&sub, group, name.c_str());
  zarr_group_close(sub);
  if (status == ZARR_OK) return ZARR_NODE_GROUP;
  if (status != ZARR_ERR_NOT_FOUND) check(status, "cannot open group " + child_url);
  return 0;
}

Node open_node(const std::string& url, const char* mode) {
  Node node;
  const std::string target = store_url(url);
  zarr_array* array = nullptr;
  int status = zarr_open_ex(&array, target.c_str(), mode, api_options().c_str());
  if (status == ZARR_OK) {
    node.array.reset(array);
    return node;
  }
  // Only "nothing there" sends us on to groups: a broken array must be
  // reported as itself, not as "no group".
  if (status != ZARR_ERR_NOT_FOUND) check(status, "cannot open array " + url);
  zarr_group* group = nullptr;
  status = zarr_group_open_ex(&group, target.c_str(), mode, group_options().c_str());
  if (status == ZARR_ERR_NOT_FOUND) {
    throw CliError(kExitMissing, "no array or group at " + url + ": " + zarr_last_error() + zip_hint(url));
  }
  check(status, "cannot open group " + url);
  node.group.reset(group);
  return node;
}

std::string take_json(char* json) {
  std::string text = json ? json : "";
  zarr_free(json);
  return text;
}

std::string array_metadata_json(const zarr_array* array) {
  char* json = nullptr;
  check(zarr_get_metadata(array, &json), "cannot read metadata");
  return take_json(json);
}

std::string array_attributes_json(const zarr_array* array) {
  char* json = nullptr;
  check(zarr_get_attributes(array, &json), "cannot read attributes");
  return take_json(json);
}

rapidjson::Document parse_json(const std::string& text, const std::string& what) {
  try {
    return zarr::json::parse(text, what);
  } catch (const zarr::Error& e) {
    usage_error(std::string(e.what()) + " (" + what + " is not valid JSON)");
  }
}

std::string to_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

std::vector<uint64_t> array_shape(const zarr_array* array) {
  std::vector<uint64_t> shape(zarr_ndim(array));
  check(zarr_shape(array, shape.data()), "cannot read shape");
  return shape;
}

std::vector<uint64_t> array_chunk_shape(const zarr_array* array) {
  std::vector<uint64_t> chunks(zarr_ndim(array));
  check(zarr_chunk_shape(array, chunks.data()), "cannot read chunk shape");
  return chunks;
}

uint64_t product(const std::vector<uint64_t>& extents) {
  const std::optional<uint64_t> n = zarr::product_of(extents);
  if (!n) throw CliError(kExitOther, "a box of " + zarr::list_text(extents, ",") + " has more than 2^64 - 1 elements");
  return *n;
}

size_t buffer_bytes(uint64_t elements, size_t item_size, const std::string& what) {
  const std::optional<size_t> bytes = zarr::byte_count(elements, item_size);
  if (!bytes) {
    throw CliError(kExitOther, what + ": " + std::to_string(elements) + " elements of " + std::to_string(item_size) +
                                   " bytes need " + zarr::byte_count_text(bytes) + " bytes of memory");
  }
  return *bytes;
}

std::string python_shape(const std::vector<uint64_t>& extents) {
  std::string text = "(";
  for (size_t i = 0; i < extents.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(extents[i]);
  }
  if (extents.size() == 1) text += ",";
  return text + ")";
}

std::string display_data_type(const zarr_array* array) {
  std::string type = zarr_data_type(array);
  if (type.size() >= 2 && type.front() == '"' && type.back() == '"') return type.substr(1, type.size() - 2);
  return type;
}

std::string local_directory(const std::string& url) {
  if (url.find('|') != std::string::npos) return "";  // a node inside an archive
  if (url.rfind("file://", 0) == 0) return url.substr(7);
  if (url.find("://") != std::string::npos) return "";
  return url;
}

namespace {

// "/a//b/" -> {"a", "b"}.
std::vector<std::string> split_segments(const std::string& path) {
  std::vector<std::string> out;
  for (size_t begin = 0; begin < path.size();) {
    size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end > begin) out.push_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

bool is_local(const std::string& url) {
  return url.rfind("file://", 0) == 0 || url.find("://") == std::string::npos;
}

// A local URL's path: a plain path as it is, a file:// URL's with its
// percent escapes decoded (a bad escape leaves it as it is: opening the URL
// reports it).
std::string local_path(const std::string& url) {
  if (url.rfind("file://", 0) != 0) return url;
  return zarr::path::percent_decode(url.substr(7)).value_or(url.substr(7));
}

// The folder the kernel reaches from a local URL; the part that does not
// exist yet is taken as written, normalised.
std::string resolved_path(const std::string& url) {
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(fs::absolute(local_path(url), ec), ec);
  if (ec) throw CliError(kExitOther, "cannot resolve the path " + url + ": " + ec.message());
  return resolved.generic_string();
}

}  // namespace

Location locate(const std::string& url) {
  const size_t zip = url.find("|zip:");
  if (zip != std::string::npos) {
    const std::string archive = url.substr(0, zip);
    return {"zip:" + (is_local(archive) ? resolved_path(archive) : archive), split_segments(url.substr(zip + 5))};
  }
  if (is_local(url)) return {"file", split_segments(resolved_path(url))};
  const size_t store_end = url.find('/', url.find("://") + 3);
  if (store_end == std::string::npos) return {url, {}};
  return {url.substr(0, store_end), split_segments(url.substr(store_end))};
}

bool is_within(const Location& inner, const Location& outer) {
  return inner.store == outer.store && inner.segments.size() >= outer.segments.size() &&
         std::equal(outer.segments.begin(), outer.segments.end(), inner.segments.begin());
}

std::string join_url(const std::string& url, const std::string& child) {
  // The library lists only node names; a name from elsewhere is checked
  // here too, before it can become a separator or a dot segment.
  const std::string problem = zarr::path::segment_problem(child);
  if (!problem.empty()) {
    throw CliError(kExitOther, "child " + json_string(child) + " of " + url + " is not a node name: " + problem);
  }
  return zarr::path::join_url(url, child);
}

}  // namespace zarrtool

namespace zarrtool {

bool print_help_if_asked(int argc, char** argv, const char* help) {
  if (!wants_help(argc, argv)) return false;
  std::fputs(help, stdout);
  return true;
}

std::string json_string(const std::string& s) {
  rapidjson::Value value(rapidjson::StringRef(s.data(), s.size()));
  // The writer escapes C0 controls; C1 and bidirectional controls are
  // escaped too (the same string to a JSON reader, inert in a terminal).
  const std::string json = to_json(value);
  std::string out;
  for (size_t at = 0; at < json.size();) {
    const auto [code, length] = next_code_point(json, at);
    if (length > 1 && is_unsafe_code_point(code)) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(code));
      out += escape;
    } else {
      out.append(json, at, std::max<size_t>(length, 1));
    }
    at += std::max<size_t>(length, 1);
  }
  return out;
}

}  // namespace zarrtool
