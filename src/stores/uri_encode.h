// RFC 3986 percent-encoding of keys in the URLs of the remote stores, in the
// form AWS Signature Version 4 requires of paths and query strings.
#pragma once

#include <string>

#include "base/path.h"

namespace zarr {

// path::percent_encode, the one encoder: unreserved characters (A-Z a-z
// 0-9 - _ . ~) are kept, every other byte becomes %XX (upper-case hex); '/'
// is kept when keep_slash (paths) and encoded otherwise (query values).
inline std::string uri_encode(const std::string& text, bool keep_slash) { return path::percent_encode(text, keep_slash); }

}  // namespace zarr
