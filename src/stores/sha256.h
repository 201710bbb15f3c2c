// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104): what AWS Signature
// Version 4 needs (stores/aws_sigv4.h). Written here rather than taken from
// OpenSSL so that libzarr depends on no crypto library of its own.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "base/bytes.h"

namespace zarr::crypto {

using Sha256Digest = std::array<uint8_t, 32>;

// Incremental SHA-256: update() any number of times, then finish() once.
class Sha256 {
 public:
  Sha256();
  void update(ByteView data);
  Sha256Digest finish();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> block_{};
  size_t block_used_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(ByteView data);
Sha256Digest hmac_sha256(ByteView key, ByteView message);

// Lower-case hexadecimal, as SigV4 writes hashes and signatures.
std::string to_hex(ByteView bytes);
inline std::string to_hex(const Sha256Digest& digest) { return to_hex(ByteView(digest.data(), digest.size())); }

}  // namespace zarr::crypto
