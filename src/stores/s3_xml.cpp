#include "stores/s3_xml.h"

#include <cstdlib>

#include "base/error.h"

namespace zarr::s3xml {

namespace {

[[noreturn]] void fail_xml(const std::string& what, const std::string& why) {
  fail(ZARR_ERR_IO, what + ": malformed XML in the answer: " + why);
}

void append_utf8(std::string& out, unsigned long code_point, const std::string& what) {
  if (code_point == 0 || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    fail_xml(what, "character reference to " + std::to_string(code_point));
  }
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

// The reference between '&' and ';' ("amp", "#38", "#x26").
void append_reference(std::string& out, const std::string& name, const std::string& what) {
  if (name == "amp") out += '&';
  else if (name == "lt") out += '<';
  else if (name == "gt") out += '>';
  else if (name == "quot") out += '"';
  else if (name == "apos") out += '\'';
  else if (name.size() > 1 && name[0] == '#') {
    const bool hex = name[1] == 'x';
    const std::string digits = name.substr(hex ? 2 : 1);
    const char* allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
    if (digits.empty() || digits.size() > 8 || digits.find_first_not_of(allowed) != std::string::npos) {
      fail_xml(what, "bad character reference '&" + name + ";'");
    }
    append_utf8(out, std::strtoul(digits.c_str(), nullptr, hex ? 16 : 10), what);
  } else {
    fail_xml(what, "unknown entity '&" + name + ";'");
  }
}

}  // namespace

std::vector<std::string> elements(const std::string& xml, const std::string& tag, const std::string& what) {
  std::vector<std::string> out;
  const std::string open = "<" + tag, close = "</" + tag + ">";
  size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string::npos) {
    size_t name_end = pos + open.size();
    if (name_end >= xml.size()) fail_xml(what, "<" + tag + " is cut short");
    char next = xml[name_end];
    if (next != '>' && next != '/' && next != ' ') {  // a longer name (<Prefixes> for <Prefix>)
      pos = name_end;
      continue;
    }
    size_t tag_end = xml.find('>', name_end);
    if (tag_end == std::string::npos) fail_xml(what, "<" + tag + " is cut short");
    if (xml[tag_end - 1] == '/') {  // <tag/>
      out.emplace_back();
      pos = tag_end + 1;
      continue;
    }
    size_t end = xml.find(close, tag_end + 1);
    if (end == std::string::npos) fail_xml(what, "<" + tag + "> is not closed");
    out.push_back(xml.substr(tag_end + 1, end - tag_end - 1));
    pos = end + close.size();
  }
  return out;
}

std::optional<std::string> first_text(const std::string& xml, const std::string& tag, const std::string& what) {
  std::vector<std::string> found = elements(xml, tag, what);
  if (found.empty()) return std::nullopt;
  return decode_text(found.front(), what);
}

std::string decode_text(const std::string& raw, const std::string& what) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '<') fail_xml(what, "markup where text was expected");
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    size_t semicolon = raw.find(';', i);
    if (semicolon == std::string::npos) fail_xml(what, "'&' without ';'");
    append_reference(out, raw.substr(i + 1, semicolon - i - 1), what);
    i = semicolon;
  }
  return out;
}

ListPage parse_list_page(const std::string& xml, const std::string& what) {
  std::vector<std::string> results = elements(xml, "ListBucketResult", what);
  if (results.size() != 1) fail_xml(what, "no ListBucketResult element");
  const std::string& result = results.front();
  ListPage page;
  for (const std::string& contents : elements(result, "Contents", what)) {
    std::optional<std::string> key = first_text(contents, "Key", what);
    if (!key) fail_xml(what, "a Contents element without a Key");
    page.keys.push_back(*key);
  }
  for (const std::string& common : elements(result, "CommonPrefixes", what)) {
    std::optional<std::string> prefix = first_text(common, "Prefix", what);
    if (!prefix) fail_xml(what, "a CommonPrefixes element without a Prefix");
    page.prefixes.push_back(*prefix);
  }
  page.truncated = first_text(result, "IsTruncated", what).value_or("false") == "true";
  page.next_token = first_text(result, "NextContinuationToken", what).value_or("");
  return page;
}

ErrorInfo parse_error(const std::string& xml) {
  try {
    std::vector<std::string> errors = elements(xml, "Error", "");
    if (errors.empty()) return {};
    const std::string& error = errors.front();
    return {first_text(error, "Code", "").value_or(""), first_text(error, "Message", "").value_or("")};
  } catch (const Error&) {
    return {};  // an error answer we cannot read is reported by its status alone
  }
}

}  // namespace zarr::s3xml
