// The little XML that S3 answers with: error documents and ListObjectsV2
// results. Elements are found by name; S3's documents nest no element inside
// one of the same name, which is all this relies on.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace zarr::s3xml {

// The content of every <tag>...</tag> (or <tag/>, empty) in `xml`, in order,
// as raw XML. An element left open is ZARR_ERR_IO naming `what`.
std::vector<std::string> elements(const std::string& xml, const std::string& tag, const std::string& what);

// The text of the first <tag> element, entities decoded; nullopt if none.
std::optional<std::string> first_text(const std::string& xml, const std::string& tag, const std::string& what);

// Character data with its entities decoded: &amp; &lt; &gt; &quot; &apos;
// and numeric references (&#38; &#x26;, written out as UTF-8). A malformed
// reference is ZARR_ERR_IO naming `what`.
std::string decode_text(const std::string& raw, const std::string& what);

// One page of a ListObjectsV2 answer.
struct ListPage {
  std::vector<std::string> keys;      // Contents/Key
  std::vector<std::string> prefixes;  // CommonPrefixes/Prefix
  bool truncated = false;             // IsTruncated
  std::string next_token;             // NextContinuationToken
};
ListPage parse_list_page(const std::string& xml, const std::string& what);

// Code and Message of an S3 error document ("" when absent or not XML).
struct ErrorInfo {
  std::string code;
  std::string message;
};
ErrorInfo parse_error(const std::string& xml);

}  // namespace zarr::s3xml
