// Byte buffers passed between stores, codecs and arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace zarr {

using Bytes = std::vector<uint8_t>;

// A non-owning view of contiguous bytes.
struct ByteView {
  const uint8_t* data = nullptr;
  size_t size = 0;

  ByteView() = default;
  ByteView(const uint8_t* d, size_t n) : data(d), size(n) {}
  ByteView(const void* d, size_t n) : data(static_cast<const uint8_t*>(d)), size(n) {}
  ByteView(const Bytes& b) : data(b.data()), size(b.size()) {}  // NOLINT: implicit by design
  ByteView(const std::string& s)                                // NOLINT: implicit by design
      : data(reinterpret_cast<const uint8_t*>(s.data())), size(s.size()) {}

  Bytes to_bytes() const { return Bytes(data, data + size); }
  std::string to_string() const { return std::string(reinterpret_cast<const char*>(data), size); }
};

}  // namespace zarr
