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

bool ends_url(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return std::isspace(u) || std::iscntrl(u) || c == '\'' || c == '"' || c == '<' || c == '>' || c == '`';
}

// One URL, "scheme://" included: userinfo, query and fragment hidden.
std::string scrub_url(std::string_view url) {
  const size_t authority = url.find("://") + 3;
  const size_t authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  const std::string_view host_part = url.substr(authority, authority_end - authority);
  const size_t at = host_part.rfind('@');
  std::string out(url.substr(0, authority));
  out += at == std::string_view::npos ? host_part : "***@" + std::string(host_part.substr(at + 1));
  const std::string_view rest = url.substr(authority_end);
  const size_t query = rest.find_first_of("?#");
  out += rest.substr(0, query);
  if (query != std::string_view::npos) out += std::string(1, rest[query]) + "...";
  return out;
}

std::string scrub_urls(std::string_view text) {
  std::string out;
  size_t copied = 0;
  for (size_t sep = text.find("://"); sep != std::string_view::npos; sep = text.find("://", sep)) {
    size_t begin = sep;
    while (begin > copied && is_scheme_char(text[begin - 1])) --begin;
    size_t end = sep + 3;
    while (end < text.size() && !ends_url(text[end])) ++end;
    while (end > sep + 3 && kTrailingPunctuation.find(text[end - 1]) != std::string_view::npos) --end;
    if (begin == sep) {  // "://" without a scheme: not a URL
      sep += 3;
      continue;
    }
    out.append(text.substr(copied, begin - copied));
    out += scrub_url(text.substr(begin, end - begin));
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

std::string scrub_secrets(std::string_view text, const std::vector<std::string>& secrets) {
  std::string out = scrub_urls(text);
  for (const std::string& secret : searched_secrets(secrets)) replace_all(out, secret);
  return out;
}

}  // namespace zarr
