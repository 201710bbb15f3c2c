// Logical paths of nodes in a hierarchy (v2 spec, "Logical storage paths").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace zarr::path {

// Normalise a node path: backslashes become '/', leading/trailing and repeated
// '/' are dropped. "." or ".." segments are ZARR_ERR_INVALID_ARGUMENT naming
// the path, so no path can reach outside the store's root. "" is the root.
std::string normalize(const std::string& path);

// The first "." or ".." segment of a path ('/' and '\\' separate segments,
// as in normalize), or "" when it has none: such a path could climb out of
// whatever it is relative to.
std::string dot_segment(const std::string& path);

// Why `name` cannot be one segment of a node path, or "" when it can. A
// name that comes from a listing or a document (a group's child, a
// consolidated entry, a member a tool copies) must be exactly one segment,
// unchanged by normalize(): empty, "." or "..", a '/' or '\\' (separators)
// or a NUL (the end of a C string) would make it name another node.
std::string segment_problem(const std::string& name);

// RFC 3986 percent-encoding: unreserved characters (A-Z a-z 0-9 - _ . ~)
// are kept, every other byte becomes %XX (upper-case hex); '/' is kept when
// keep_slash (paths) and encoded otherwise (query values).
std::string percent_encode(const std::string& text, bool keep_slash);
// The text with its %XX escapes decoded; nullopt for a '%' not followed by
// two hex digits.
std::optional<std::string> percent_decode(const std::string& text);

// A URL (stores/url.h's syntax) for `node_path`, a path taken literally
// ('/' separates its segments; a leading '/' is dropped), below the node
// `url` names, such that resolving it gives back exactly those segments:
//  - file://, http:// and https:// URLs have their path percent-decoded
//    (by libzarr or by the server): every segment is percent-encoded, so
//    that "%2e%2e" stays a name and never becomes ".."; http(s) paths go
//    before the URL's query;
//  - plain paths, memory://, s3://, a path after "|zip:" and the schemes
//    programs register take their path as written: the path is appended as
//    it is, except that a plain path onto which a '|' would be appended
//    (the start of a "|zip:" adapter) becomes a file:// URL.
// The caller checks the segments (segment_problem, dot_segment): this
// only makes sure that no decoding changes them.
std::string join_url(const std::string& url, const std::string& node_path);
// The file:// URL of a filesystem path (made absolute), percent-encoded, so
// that no byte of it reads as URL syntax ("|zip:", "://", '%').
std::string file_url(const std::string& filesystem_path);

// Join a normalised node path and a child name or key: join("a/b", ".zarray")
// is "a/b/.zarray"; join("", "x") is "x".
std::string join(const std::string& base, const std::string& name);

// "a/b/c" -> "a/b"; "a" -> ""; "" -> "".
std::string parent(const std::string& path);

// "a/b/c" -> "c".
std::string basename(const std::string& path);

// Split a normalised path into its segments ("" gives none).
std::vector<std::string> segments(const std::string& path);

}  // namespace zarr::path
