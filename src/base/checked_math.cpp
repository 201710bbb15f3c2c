#include "base/checked_math.h"

#include "base/error.h"

namespace zarr {

std::optional<uint64_t> product_of(const std::vector<uint64_t>& extents) {
  uint64_t product = 1;
  for (uint64_t e : extents) {
    if (e == 0) return 0;  // empty, however large the other extents
  }
  for (uint64_t e : extents) {
    std::optional<uint64_t> next = checked_mul(product, e);
    if (!next) return std::nullopt;
    product = *next;
  }
  return product;
}

uint64_t checked_product(const std::vector<uint64_t>& extents, const std::string& what, int code) {
  const std::optional<uint64_t> product = product_of(extents);
  if (!product) fail(code, what + ": element count overflows 64 bits");
  return *product;
}

std::vector<uint64_t> ceil_div(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks) {
  std::vector<uint64_t> out(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) out[d] = ceil_div(shape[d], chunks[d]);
  return out;
}

std::optional<size_t> byte_count(uint64_t elements, size_t item_size) {
  const std::optional<uint64_t> bytes = checked_mul<uint64_t>(elements, item_size);
  if (!bytes || *bytes > kMaxBufferBytes) return std::nullopt;
  return static_cast<size_t>(*bytes);
}

std::string byte_count_text(std::optional<size_t> bytes) {
  return bytes ? std::to_string(*bytes) : "more than " + std::to_string(kMaxBufferBytes);
}

}  // namespace zarr
