#include "stores/sha256.h"

#include <algorithm>
#include <cstring>

namespace zarr::crypto {

namespace {

// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the
// cube roots of the first 64 primes.
constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// Section 5.3.3: the first 32 bits of the fractional parts of the square
// roots of the first 8 primes.
constexpr std::array<uint32_t, 8> kInitialState = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr size_t kBlockSize = 64;

inline uint32_t rotate_right(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline uint32_t load_big_endian(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

}  // namespace

Sha256::Sha256() : state_(kInitialState) {}

// Section 6.2.2: one 512-bit block.
void Sha256::compress(const uint8_t* block) {
  uint32_t schedule[64];
  for (int t = 0; t < 16; ++t) schedule[t] = load_big_endian(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    uint32_t w15 = schedule[t - 15], w2 = schedule[t - 2];
    uint32_t sigma0 = rotate_right(w15, 7) ^ rotate_right(w15, 18) ^ (w15 >> 3);
    uint32_t sigma1 = rotate_right(w2, 17) ^ rotate_right(w2, 19) ^ (w2 >> 10);
    schedule[t] = sigma1 + schedule[t - 7] + sigma0 + schedule[t - 16];
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t big_sigma1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
    uint32_t choose = (e & f) ^ (~e & g);
    uint32_t t1 = h + big_sigma1 + choose + kRoundConstants[t] + schedule[t];
    uint32_t big_sigma0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
    uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = big_sigma0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

void Sha256::update(ByteView data) {
  total_bytes_ += data.size;
  const uint8_t* p = data.data;
  size_t left = data.size;
  if (block_used_ > 0) {
    size_t take = std::min(left, kBlockSize - block_used_);
    std::memcpy(block_.data() + block_used_, p, take);
    block_used_ += take;
    p += take;
    left -= take;
    if (block_used_ < kBlockSize) return;
    compress(block_.data());
    block_used_ = 0;
  }
  for (; left >= kBlockSize; p += kBlockSize, left -= kBlockSize) compress(p);
  if (left > 0) std::memcpy(block_.data(), p, left);
  block_used_ = left;
}

// Section 5.1.1: a 1 bit, zeros up to 56 bytes mod 64, the bit length as 64
// bits big-endian.
Sha256Digest Sha256::finish() {
  const uint64_t bit_length = total_bytes_ * 8;
  uint8_t padding[kBlockSize * 2] = {0x80};
  size_t pad = (block_used_ < 56 ? 56 : 120) - block_used_;
  for (int i = 0; i < 8; ++i) padding[pad + i] = static_cast<uint8_t>(bit_length >> (56 - 8 * i));
  update(ByteView(padding, pad + 8));
  Sha256Digest digest;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
  }
  return digest;
}

Sha256Digest sha256(ByteView data) {
  Sha256 hash;
  hash.update(data);
  return hash.finish();
}

// RFC 2104: H((K ^ opad) || H((K ^ ipad) || message)), a key longer than the
// block hashed first.
Sha256Digest hmac_sha256(ByteView key, ByteView message) {
  uint8_t key_block[kBlockSize] = {0};
  if (key.size > kBlockSize) {
    Sha256Digest hashed = sha256(key);
    std::memcpy(key_block, hashed.data(), hashed.size());
  } else if (key.size > 0) {
    std::memcpy(key_block, key.data, key.size);
  }
  uint8_t inner_pad[kBlockSize], outer_pad[kBlockSize];
  for (size_t i = 0; i < kBlockSize; ++i) {
    inner_pad[i] = key_block[i] ^ 0x36;
    outer_pad[i] = key_block[i] ^ 0x5c;
  }
  Sha256 inner;
  inner.update(ByteView(inner_pad, kBlockSize));
  inner.update(message);
  Sha256Digest inner_digest = inner.finish();
  Sha256 outer;
  outer.update(ByteView(outer_pad, kBlockSize));
  outer.update(ByteView(inner_digest.data(), inner_digest.size()));
  return outer.finish();
}

std::string to_hex(ByteView bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size * 2);
  for (size_t i = 0; i < bytes.size; ++i) {
    out += kDigits[bytes.data[i] >> 4];
    out += kDigits[bytes.data[i] & 15];
  }
  return out;
}

}  // namespace zarr::crypto
