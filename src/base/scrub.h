// Secrets out of what users see. Every text that leaves libzarr for a person
// (error messages through zarr_last_error, zarr_info's "store", what zarrtool
// prints) and every message that quotes a URL, a server's answer or a
// transport error passes through scrub_secrets, the one place that decides
// what a secret looks like (docs/reliability.md, "Secrets in messages").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace zarr {

// Secrets shorter than this are not searched for: replacing every "1" or
// "ab" in a message would garble it, and such values protect nothing.
inline constexpr size_t kMinScrubbedSecret = 4;

// `text` with
//  - in every URL ("scheme://" up to white space, a quote, '<' or '>'), the
//    userinfo ("user:password@") replaced by "***@" and the query string
//    and fragment by "?..." ("#..."), so "http://u:p@h/x?token=1" reads
//    "http://***@h/x?...";
//  - every occurrence of one of `secrets` (header values, S3 access keys,
//    secret keys and session tokens, as the store that holds them passes
//    them) replaced by "***", as are the space-separated words of at least
//    8 bytes inside a secret ("Bearer XYZ..." hides "XYZ..." when a server
//    echoes the token alone).
// Scrubbing a scrubbed text changes nothing.
std::string scrub_secrets(std::string_view text, const std::vector<std::string>& secrets = {});

}  // namespace zarr
