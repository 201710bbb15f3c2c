// Byte buffers passed between stores, codecs and arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
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

inline void append(Bytes& out, ByteView more) { out.insert(out.end(), more.data, more.data + more.size); }

// A value of T from (into) possibly unaligned native-order bytes.
template <typename T>
T load_unaligned(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
template <typename T>
void store_unaligned(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof value);
}

// An owned buffer for a producer that writes its bytes itself (a
// compressor's output): allocated without zeroing, which a Bytes of the same
// capacity would pay for, then cut to the size actually written.
class RawBuffer {
 public:
  RawBuffer() = default;
  explicit RawBuffer(size_t capacity) : data_(new uint8_t[capacity]), capacity_(capacity) {}

  uint8_t* data() { return data_.get(); }
  size_t capacity() const { return capacity_; }
  void set_size(size_t n) { size_ = n < capacity_ ? n : capacity_; }
  ByteView view() const { return ByteView(data_.get(), size_); }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

// Bytes [offset, offset + n) of a value handed over piece by piece, in
// order; `data` is valid during the call only (stores reading a value in
// pieces, codecs decoding one block at a time).
using PieceArrived = std::function<void(const uint8_t* data, uint64_t offset, size_t n)>;

// A buffer reused from one chunk to the next (the engine keeps one or two
// per thread): it grows on demand and is never zeroed, so a chunk read into
// it costs no allocation, no zeroing and no page faults once it has grown.
// What it held before a resize is not kept.
class ScratchBuffer {
 public:
  // Room for at least n bytes; returns where they go.
  uint8_t* reserve(size_t n) {
    if (n > capacity_) {
      data_.reset();  // free first so that old and new never coexist
      capacity_ = 0;  // and if the allocation fails, the buffer is empty, not dangling
      data_.reset(new uint8_t[n]);
      capacity_ = n;
    }
    return data_.get();
  }
  uint8_t* data() { return data_.get(); }
  size_t capacity() const { return capacity_; }
  // Give the memory back when it grew past `limit` (one huge chunk should
  // not pin its size on a thread for the life of the process).
  void release_above(size_t limit) {
    if (capacity_ > limit) {
      data_.reset();
      capacity_ = 0;
    }
  }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t capacity_ = 0;
};

}  // namespace zarr
