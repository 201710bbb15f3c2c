// SHA-256 and HMAC-SHA-256 against their standards' test vectors, AWS
// Signature Version 4 against the S3 examples AWS publishes ("Signature
// Calculations for the Authorization Header", examplebucket, 2013-05-24),
// and against botocore signing the same requests.
#include <ctime>
#include <string>

#include <gtest/gtest.h>

#include "stores/aws_sigv4.h"
#include "stores/local_servers.h"
#include "stores/sha256.h"
#include "stores/uri_encode.h"

namespace zarr {
namespace {

std::string sha256_hex(const std::string& text) { return crypto::to_hex(crypto::sha256(text)); }

std::string bytes_of_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

std::string hmac_hex(const std::string& key, const std::string& data) {
  return crypto::to_hex(crypto::hmac_sha256(key, data));
}

// ---- SHA-256: FIPS 180-4 examples (NIST CSRC "SHA256.pdf") ----------------------------

TEST(Sha256, NistExamples) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Every split of a message into two update() calls gives the same digest,
// across the 55/56/64-byte padding boundaries.
TEST(Sha256, IncrementalUpdatesMatchOneShot) {
  std::string message;
  for (int i = 0; i < 200; ++i) message += static_cast<char>('a' + i % 26);
  for (size_t length : {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200}) {
    const std::string part = message.substr(0, length);
    const std::string whole = sha256_hex(part);
    for (size_t split = 0; split <= length; split += 7) {
      crypto::Sha256 hash;
      hash.update(part.substr(0, split));
      hash.update(part.substr(split));
      EXPECT_EQ(crypto::to_hex(hash.finish()), whole) << "length " << length << " split " << split;
    }
  }
}

// ---- HMAC-SHA-256: RFC 4231 test cases 1, 2, 3, 4, 6 and 7 -------------------------------

TEST(HmacSha256, Rfc4231Vectors) {
  EXPECT_EQ(hmac_hex(std::string(20, '\x0b'), "Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(hmac_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(hmac_hex(std::string(20, '\xaa'), std::string(50, '\xdd')),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  EXPECT_EQ(hmac_hex(bytes_of_hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), std::string(50, '\xcd')),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  // Keys longer than the block are hashed first.
  EXPECT_EQ(hmac_hex(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  EXPECT_EQ(hmac_hex(std::string(131, '\xaa'),
                     "This is a test using a larger than block-size key and a larger than block-size data. "
                     "The key needs to be hashed before being used by the HMAC algorithm."),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

// ---- SigV4: the S3 examples of AWS's documentation ---------------------------------------

const char kExampleKey[] = "AKIAIOSFODNN7EXAMPLE";
const char kExampleSecret[] = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const char kExampleDate[] = "20130524T000000Z";
const char kEmptyHash[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

std::time_t example_time() {
  std::tm t{};
  t.tm_year = 2013 - 1900;
  t.tm_mon = 4;
  t.tm_mday = 24;
  return timegm(&t);
}

std::string authorization_of(aws::SignedRequest request) {
  aws::sign(request, {kExampleKey, kExampleSecret, ""}, "us-east-1", example_time());
  for (const auto& [name, value] : request.headers) {
    if (name == "Authorization") return value;
  }
  return "";
}

TEST(SigV4, GetObjectExampleStepByStep) {
  aws::SignedRequest request;
  request.method = "GET";
  request.encoded_path = "/test.txt";
  request.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"Range", "bytes=0-9"},
                     {"x-amz-content-sha256", kEmptyHash},
                     {"x-amz-date", kExampleDate}};
  const std::string canonical = aws::canonical_request(request);
  EXPECT_EQ(canonical,
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
            "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string to_sign = aws::string_to_sign(kExampleDate, "us-east-1", canonical);
  EXPECT_EQ(to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(aws::signature(kExampleSecret, kExampleDate, "us-east-1", to_sign),
            "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, GetObjectExampleAuthorizationHeader) {
  aws::SignedRequest request;
  request.method = "GET";
  request.encoded_path = "/test.txt";
  request.headers = {{"host", "examplebucket.s3.amazonaws.com"}, {"range", "bytes=0-9"}};
  EXPECT_EQ(authorization_of(request),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, PutObjectExample) {
  const std::string body = "Welcome to Amazon S3.";
  aws::SignedRequest request;
  request.method = "PUT";
  request.encoded_path = "/" + uri_encode("test$file.text", true);
  request.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                     {"x-amz-storage-class", "REDUCED_REDUNDANCY"}};
  request.payload_sha256 = sha256_hex(body);
  EXPECT_EQ(request.payload_sha256, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  EXPECT_EQ(request.encoded_path, "/test%24file.text");
  std::string authorization = authorization_of(request);
  EXPECT_NE(authorization.find("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,"),
            std::string::npos)
      << authorization;
  EXPECT_NE(authorization.find("Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"),
            std::string::npos)
      << authorization;
}

TEST(SigV4, QueryStringExamples) {
  aws::SignedRequest lifecycle;
  lifecycle.method = "GET";
  lifecycle.encoded_path = "/";
  lifecycle.query = {{"lifecycle", ""}};
  lifecycle.headers = {{"host", "examplebucket.s3.amazonaws.com"}};
  EXPECT_NE(
      authorization_of(lifecycle).find("Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
      std::string::npos);

  aws::SignedRequest list;
  list.method = "GET";
  list.encoded_path = "/";
  list.query = {{"prefix", "J"}, {"max-keys", "2"}};  // signed sorted, whatever the order given
  list.headers = {{"host", "examplebucket.s3.amazonaws.com"}};
  EXPECT_NE(authorization_of(list).find("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
            std::string::npos);
}

TEST(SigV4, SessionTokenIsSentAndSigned) {
  aws::SignedRequest request;
  request.method = "GET";
  request.encoded_path = "/k";
  request.headers = {{"host", "b.example"}};
  aws::sign(request, {"AKID", "SECRET", "TOKEN/+="}, "eu-west-1", example_time());
  bool token_sent = false;
  std::string authorization;
  for (const auto& [name, value] : request.headers) {
    if (name == "x-amz-security-token") token_sent = value == "TOKEN/+=";
    if (name == "Authorization") authorization = value;
  }
  EXPECT_TRUE(token_sent);
  EXPECT_NE(authorization.find("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"),
            std::string::npos);
  EXPECT_NE(authorization.find("/20130524/eu-west-1/s3/aws4_request,"), std::string::npos);
}

TEST(SigV4, HeaderValuesAreTrimmedAndSpacesCollapsed) {
  aws::SignedRequest request;
  request.method = "GET";
  request.encoded_path = "/";
  request.headers = {{"X-Amz-Meta-Note", "  a   b  c "}, {"host", "h"}};
  EXPECT_NE(aws::canonical_request(request).find("x-amz-meta-note:a b c\n"), std::string::npos);
}

TEST(SigV4, UriEncoding) {
  EXPECT_EQ(uri_encode("a b/c~d_e-f.g", true), "a%20b/c~d_e-f.g");
  EXPECT_EQ(uri_encode("a b/c", false), "a%20b%2Fc");
  EXPECT_EQ(uri_encode("\xc3\xa9+=&?%", true), "%C3%A9%2B%3D%26%3F%25");
}

// ---- SigV4 against botocore (Debian's python3-boto3) ----------------------------------------

// Requests botocore signs with S3SigV4Auth at the example time; libzarr must
// produce the same Authorization header for each.
TEST(SigV4, MatchesBotocore) {
  std::string probe;
  if (test::run_shell("/usr/bin/python3 -c 'import botocore.auth' 2>&1", &probe) != 0) {
    GTEST_SKIP() << "botocore is not importable by /usr/bin/python3 (scripts/setup.sh installs python3-boto3)";
  }
  struct Case {
    std::string method, host, key;  // key as stored, before encoding
    aws::NameValues query, headers;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"GET", "127.0.0.1:9000", "bucket/a/zarr.json", {}, {{"range", "bytes=-16"}}, ""},
      {"PUT", "127.0.0.1:9000", "bucket/a b/\xc3\xa9t\xc3\xa9/c.0", {},
       {{"content-type", "application/octet-stream"}}, "chunk bytes"},
      {"GET", "bucket.s3.localhost:9000", "",
       {{"list-type", "2"}, {"prefix", "a b/"}, {"delimiter", "/"}, {"max-keys", "7"}, {"continuation-token", "tok/en+=="}},
       {}, ""},
      {"DELETE", "s3.eu-west-1.amazonaws.com", "bucket/x/.zarray", {}, {}, ""},
  };
  std::string script =
      "import datetime, hashlib, json, sys\n"
      "from unittest import mock\n"
      "from urllib.parse import quote\n"
      "from botocore.auth import S3SigV4Auth\n"
      "from botocore.awsrequest import AWSRequest\n"
      "from botocore.credentials import Credentials\n"
      "creds = Credentials('AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')\n"
      "for case in json.load(sys.stdin):\n"
      "    body = case['body'].encode()\n"
      "    url = 'http://' + case['host'] + '/' + quote(case['key'], safe='/~')\n"
      "    if case['query']:\n"
      "        url += '?' + '&'.join(quote(k, safe='~') + '=' + quote(v, safe='~') for k, v in case['query'])\n"
      "    headers = dict(case['headers'])\n"
      "    headers['x-amz-content-sha256'] = hashlib.sha256(body).hexdigest()\n"
      "    request = AWSRequest(method=case['method'], url=url, headers=headers, data=body)\n"
      "    with mock.patch('botocore.auth.datetime') as dt:\n"
      "        dt.datetime.utcnow.return_value = datetime.datetime(2013, 5, 24)\n"
      "        S3SigV4Auth(creds, 's3', 'us-east-1').add_auth(request)\n"
      "    print(request.headers['Authorization'].split('Signature=')[1])\n";
  std::string input = "[";
  auto quote_json = [](const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<char>(c);
    }
    return out + "\"";
  };
  auto pairs_json = [&](const aws::NameValues& pairs) {
    std::string out = "[";
    for (const auto& [n, v] : pairs) {
      out += (out.size() > 1 ? "," : "") + ("[" + quote_json(n) + "," + quote_json(v) + "]");
    }
    return out + "]";
  };
  for (const Case& c : cases) {
    input += (input.size() > 1 ? "," : "") + std::string("{\"method\":") + quote_json(c.method) + ",\"host\":" +
             quote_json(c.host) + ",\"key\":" + quote_json(c.key) + ",\"query\":" + pairs_json(c.query) +
             ",\"headers\":" + pairs_json(c.headers) + ",\"body\":" + quote_json(c.body) + "}";
  }
  input += "]";
  test::TempDir dir;
  test::write_file(dir / "sign.py", script);
  test::write_file(dir / "cases.json", input);
  std::string out;
  ASSERT_EQ(test::run_shell("/usr/bin/python3 " + test::shell_quote(dir / "sign.py") + " < " +
                                test::shell_quote(dir / "cases.json") + " 2>&1",
                            &out),
            0)
      << out;
  size_t line_start = 0;
  for (const Case& c : cases) {
    size_t line_end = out.find('\n', line_start);
    ASSERT_NE(line_end, std::string::npos) << out;
    const std::string botocore_signature = out.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    aws::SignedRequest request;
    request.method = c.method;
    request.encoded_path = "/" + uri_encode(c.key, true);
    request.query = c.query;
    request.headers = c.headers;
    request.headers.emplace_back("host", c.host);
    request.payload_sha256 = sha256_hex(c.body);
    std::string authorization = authorization_of(request);
    EXPECT_EQ(authorization.substr(authorization.find("Signature=") + 10), botocore_signature)
        << c.method << " " << c.host << "/" << c.key;
  }
}

}  // namespace
}  // namespace zarr
