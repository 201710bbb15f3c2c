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
//  - in every URL ("scheme://" up to white space or a control character,
//    or up to the last closing quote when a quote opens it), the userinfo
//    ("user:password@", up to the last '@' before the first '/', '?' or
//    '#') replaced by "***@" and the query string and fragment by "?..."
//    ("#..."), so "http://u:p@h/x?token=1" reads "http://***@h/x?...".
//    Quotes and other characters a URL may hold (RFC 3986 allows ' in
//    userinfo and paths) do not end it;
//  - every occurrence of one of `secrets` (header values, S3 access keys,
//    secret keys and session tokens, a URL's userinfo and query, as the
//    store that holds them passes them) replaced by "***", as are the
//    space-separated words of at least 8 bytes inside a secret ("Bearer
//    XYZ..." hides "XYZ..." when a server echoes the token alone).
// Scrubbing a scrubbed text changes nothing.
std::string scrub_secrets(std::string_view text, const std::vector<std::string>& secrets = {});

// One URL as messages show it, from its parts: the userinfo replaced by
// "***@", the query and fragment by "?..." and "#..." (a text without
// "://" is returned as it is). Where a message quotes a URL or a part of
// one (a bucket, a host), it quotes this form.
std::string scrubbed_url(std::string_view url);

// The parts of a URL that may be secrets, as the stores parse them: its
// userinfo (before the last '@' of the authority) and its query and
// fragment, each when present; for scrub_secrets' `secrets`.
std::vector<std::string> url_secrets(std::string_view url);

}  // namespace zarr
