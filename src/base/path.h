// Logical paths of nodes in a hierarchy (v2 spec, "Logical storage paths").
#pragma once

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
