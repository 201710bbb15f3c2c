#include "base/scrub.h"

#include <algorithm>
#include <cctype>

namespace zarr {

namespace {

// Sentence punctuation right after a URL ("GET http://h/x?t=1: failed")
// belongs to the message, not to the URL. Not '.': it ends the "?..." that
// stands for a query, and a scrubbed text must scrub to itself.
constexpr std::string_view kTrailingPunctuation = ":,;)]}!";
// Words of a secret at least this long are secrets too.
constexpr size_t kMinSecretWord = 8;

bool is_scheme_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
}

// Only white space and control characters end a URL in a text: any other
// character may be part of it (a quote in a password or a path).
bool ends_url(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return std::isspace(u) || std::iscntrl(u);
}

// The quote that closes one opening a URL ("'http://...'"), or 0.
char closing_quote(char opening) {
  switch (opening) {
    case '\'': return '\'';
    case '"': return '"';
    case '`': return '`';
    case '<': return '>';
    case '(': return ')';
    case '[': return ']';
    default: return 0;
  }
}

// Where a URL starting at text[begin] ("scheme://" at sep) ends: at white
// space or a control character; when a quote opens it, at the last closing
// quote before that (the quote may appear inside the URL too: everything up
// to the last one is taken, so nothing of it is left out); otherwise
// without the sentence punctuation after it.
size_t url_end(std::string_view text, size_t begin, size_t sep) {
  size_t end = sep + 3;
  while (end < text.size() && !ends_url(text[end])) ++end;
  const char closing = begin > 0 ? closing_quote(text[begin - 1]) : 0;
  if (closing) {
    const size_t last = text.substr(0, end).rfind(closing);
    if (last != std::string_view::npos && last > sep + 3) return last;
  }
  while (end > sep + 3 && kTrailingPunctuation.find(text[end - 1]) != std::string_view::npos) --end;
  return end;
}

struct UrlParts {
  std::string_view head;      // "scheme://"
  std::string_view userinfo;  // before the last '@' of the authority, or empty
  bool has_userinfo = false;
  std::string_view host_and_path;
  std::string_view query;  // from the first '?' or '#' on, or empty
};

// Where the userinfo of the URL whose authority starts at `authority` ends
// (its '@'), or npos. RFC 3986 puts it in the authority, before the first
// '/', '?' or '#'. A password typed with a raw '/', '?' or '#' moves its '@'
// past that point ("http://u:pa/ss@host/x"): an '@' later in the URL, before
// any URL nested in its query, is taken as the end of a userinfo too. That
// hides the host and path of a URL whose path holds an '@' (shown from after
// it), rather than a password.
size_t userinfo_end(std::string_view url, size_t authority) {
  const size_t authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  const size_t at = url.substr(authority, authority_end - authority).rfind('@');
  if (at != std::string_view::npos) return authority + at;
  const size_t nested = std::min(url.find("://", authority), url.size());
  const size_t late_at = url.substr(authority, nested - authority).rfind('@');
  return late_at == std::string_view::npos ? late_at : authority + late_at;
}

UrlParts split_url(std::string_view url) {
  UrlParts parts;
  const size_t sep = url.find("://");
  const size_t authority = sep == std::string_view::npos ? 0 : sep + 3;
  parts.head = url.substr(0, authority);
  const size_t at = userinfo_end(url, authority);
  size_t host = authority;
  if (at != std::string_view::npos) {
    parts.has_userinfo = true;
    parts.userinfo = url.substr(authority, at - authority);
    host = at + 1;
  }
  const size_t query = std::min(url.find_first_of("?#", host), url.size());
  parts.host_and_path = url.substr(host, query - host);
  parts.query = url.substr(query);
  return parts;
}

std::string scrub_urls(std::string_view text) {
  std::string out;
  size_t copied = 0;
  for (size_t sep = text.find("://"); sep != std::string_view::npos; sep = text.find("://", sep)) {
    size_t begin = sep;
    while (begin > copied && is_scheme_char(text[begin - 1])) --begin;
    if (begin == sep) {  // "://" without a scheme: not a URL
      sep += 3;
      continue;
    }
    const size_t end = url_end(text, begin, sep);
    out.append(text.substr(copied, begin - copied));
    out += scrubbed_url(text.substr(begin, end - begin));
    copied = end;
    sep = end;
  }
  out.append(text.substr(copied));
  return out;
}

// The secrets and their long words, longest first, so that a whole value
// goes before a word of it.
std::vector<std::string> searched_secrets(const std::vector<std::string>& secrets) {
  std::vector<std::string> out;
  for (const std::string& secret : secrets) {
    if (secret.size() >= kMinScrubbedSecret) out.push_back(secret);
    size_t word = 0;
    while (word < secret.size()) {
      const size_t space = std::min(secret.find(' ', word), secret.size());
      if (space - word >= kMinSecretWord && space - word < secret.size()) out.push_back(secret.substr(word, space - word));
      word = space + 1;
    }
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return out;
}

void replace_all(std::string& text, const std::string& secret) {
  static const std::string kHidden = "***";
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + kHidden.size())) {
    text.replace(at, secret.size(), kHidden);
  }
}

}  // namespace

std::string scrubbed_url(std::string_view url) {
  if (url.find("://") == std::string_view::npos) return std::string(url);
  const UrlParts parts = split_url(url);
  std::string out(parts.head);
  if (parts.has_userinfo) out += "***@";
  out += parts.host_and_path;
  if (!parts.query.empty()) out += std::string(1, parts.query.front()) + "...";
  return out;
}

std::vector<std::string> url_secrets(std::string_view url) {
  std::vector<std::string> out;
  if (url.find("://") == std::string_view::npos) return out;
  const UrlParts parts = split_url(url);
  if (!parts.userinfo.empty()) out.emplace_back(parts.userinfo);
  if (parts.query.size() > 1) out.emplace_back(parts.query.substr(1));
  return out;
}

std::string scrub_secrets(std::string_view text, const std::vector<std::string>& secrets) {
  std::string out = scrub_urls(text);
  for (const std::string& secret : searched_secrets(secrets)) replace_all(out, secret);
  return out;
}

}  // namespace zarr
