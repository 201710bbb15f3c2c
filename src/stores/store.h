// The abstract store interface of the Zarr v3 specification, used for v2 too.
//
// Keys are '/'-separated relative paths ("a/b/.zarray", "a/0.0"). A store is
// thread-safe: concurrent get/set/erase on different keys never interfere.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/size_limits.h"

namespace zarr {

struct ByteRange {
  uint64_t offset = 0;
  std::optional<uint64_t> length;  // nullopt: to the end
  std::optional<uint64_t> suffix;  // set: the last `suffix` bytes instead (offset and length ignored)
};

struct DirListing {
  std::vector<std::string> keys;      // direct child keys (names only), sorted
  std::vector<std::string> prefixes;  // direct child "folders" (names only, no '/'), sorted
};

// A store implements the REQUIRED methods (the pure virtual ones, first
// below); everything after them has a default built on those, correct for
// any store. A store overrides an OPTIONAL method only to say something the
// default cannot know (writable, listable, identity, flush), or to do the
// same work faster (the ACCELERATIONS: the array engine calls them on its hot
// paths, so a store that can read into place or fetch concurrently saves a
// copy or a round trip). Plugin stores (plugin_store.cpp) implement only the
// required ones through their C vtable.
class Store {
 public:
  virtual ~Store() = default;

  // Every read has a byte limit (docs/stores.md, "Size limits"): a value, or
  // the part of it a read asks for, larger than the read's limit is
  // ZARR_ERR_IO naming the key and the limit (fail_too_large, below). Stores
  // that know a value's size refuse it before reading anything; the others
  // (HTTP, S3) once more than the limit has arrived, or when the server
  // announces more. Callers that know a bound pass it (the array engine:
  // what a chunk of its metadata can take, CodecChain::max_stored_size);
  // every other read is held to value_limit().

  // The limit of values whose size no metadata bounds: metadata documents,
  // variable-length chunks, byte ranges open at the end. The store option
  // "max_value_bytes" sets it (the URL resolver calls set_value_limit).
  uint64_t value_limit() const { return value_limit_.load(std::memory_order_relaxed); }
  void set_value_limit(uint64_t bytes) { value_limit_.store(bytes, std::memory_order_relaxed); }

  // ---- required -----------------------------------------------------------------

  // Whole value of at most max_size bytes, or std::nullopt when the key is
  // absent (absent is not an error).
  virtual std::optional<Bytes> get(const std::string& key, uint64_t max_size) const = 0;
  // The same held to value_limit().
  std::optional<Bytes> get(const std::string& key) const { return get(key, value_limit()); }
  // Byte range of a value; std::nullopt when absent. A range past the end is
  // clipped. The range bounds what is read (range_limit, below): one open at
  // the end is held to value_limit().
  virtual std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const = 0;
  virtual bool exists(const std::string& key) const = 0;
  // Atomic per key: readers see the old or the new value, never a mix.
  virtual void set(const std::string& key, ByteView value) = 0;
  // Erasing an absent key is not an error.
  virtual void erase(const std::string& key) = 0;
  // Erase every key starting with prefix ("" erases everything).
  virtual void erase_prefix(const std::string& prefix) = 0;
  // Every key starting with prefix (full keys), sorted.
  virtual std::vector<std::string> list_prefix(const std::string& prefix) const = 0;
  // Children of a "directory" prefix ("" for the root, else ending in '/').
  virtual DirListing list_dir(const std::string& prefix) const = 0;
  // Human-readable location for error messages ("/data/x.zarr", "memory://a").
  virtual std::string describe() const = 0;

  // ---- optional: what only the store can say ---------------------------------------

  // Finish work the store holds back (the zip store writes its archive
  // here). The store stays usable: changes made later are finished by a later
  // flush. The C API calls it when the last handle on a store is closed and
  // returns what it throws (release_store). Default: nothing is held back.
  virtual void flush() {}
  // False when the store refuses set/erase/erase_prefix (ZARR_ERR_READ_ONLY
  // naming the store): callers ask before writing. Default true.
  virtual bool writable() const { return true; }
  // False when the store cannot list (HTTP: list_prefix and list_dir are
  // ZARR_ERR_UNSUPPORTED): callers ask before listing. Default true.
  virtual bool listable() const { return true; }
  // The same for every store object on the same data, however its URL was
  // spelled (the filesystem: the absolute root), so that handles opened
  // separately share the locks of a key (Array::chunk_lock). Default: describe().
  virtual std::string identity() const { return describe(); }
  // Bytes a value occupies in the store, std::nullopt when absent: its size,
  // except in a zip archive, where it is the compressed size (as zarr-python's
  // getsize). The default reads the value in pieces of 16 MiB, so that
  // memory stays at one piece whatever its size; stores that know sizes
  // without reading (filesystem, memory, zip, HEAD over HTTP and S3) answer
  // directly.
  virtual std::optional<uint64_t> value_size(const std::string& key) const;
  // Throws what erase(key) would throw for a reason the store can tell
  // without erasing anything (the filesystem store: a symbolic link on the
  // way). Lets a caller that erases many keys refuse before it changes
  // anything (Array::resize). Default: nothing to tell.
  virtual void check_erasable(const std::string& key) const { (void)key; }
  // The same data seen from one folder higher: a store whose root is this
  // store's parent folder, and the name of this store's root in it. A change
  // made through a URL below a hierarchy's root climbs through it to the
  // root's consolidated metadata (capi/consolidated_sync). Default: none
  // (stores without folders above their root, or that cannot say).
  struct Above {
    std::shared_ptr<Store> store;
    std::string name;
  };
  virtual std::optional<Above> store_above() const { return std::nullopt; }

  // ---- optional accelerations (defaults: get() or get_range() and a copy) ----------

  // The whole values of many keys, each handed over as it arrives:
  // arrived(i, value) once for every keys[i] (std::nullopt when absent), on
  // the calling thread, in any order. Remote stores keep their requests in
  // flight while arrived works (what it throws ends the call, the other
  // requests abandoned); by default the keys are read one after another.
  using ValueArrived = std::function<void(size_t index, std::optional<Bytes> value)>;
  virtual void get_each(const std::vector<std::string>& keys, uint64_t max_size, const ValueArrived& arrived) const;
  // get_each's values in the order of the keys.
  std::vector<std::optional<Bytes>> get_many(const std::vector<std::string>& keys, uint64_t max_size) const;
  // True when get_each fetches its keys concurrently (remote stores): the
  // array engine then fetches a region's chunks through it, decoding each as
  // it arrives, instead of one chunk per thread.
  virtual bool fetches_concurrently() const { return false; }

  // A byte range with the version of the value it was read from: a token
  // that changes whenever the value may have (the filesystem: the file's
  // device, inode, size and modification time; HTTP and S3: the ETag sent
  // with the bytes), or "" when the store cannot tell (the default). Two
  // reads that give the same non-empty version read the same value, so the
  // array engine can keep a shard's index and check each later read of the
  // shard against it.
  struct VersionedBytes {
    std::optional<Bytes> bytes;
    std::string version;
  };
  virtual VersionedBytes get_range_versioned(const std::string& key, const ByteRange& range) const {
    return {get_range(key, range), {}};
  }

  // Where get_into puts a value: asked once, with the value's size, it
  // gives a buffer of at least that many bytes.
  using Destination = std::function<uint8_t*(size_t size)>;
  // The whole value written into the buffer `destination` gives for its
  // size, sparing get()'s fresh zeroed buffer: the array engine passes a
  // buffer it reuses across chunks, or the caller's own memory. Returns the
  // bytes written (fewer than the size only when the value was cut short
  // meanwhile), std::nullopt when absent; a value of more than max_size
  // bytes is refused before destination is asked. By default, get() and a copy.
  virtual std::optional<size_t> get_into(const std::string& key, uint64_t max_size,
                                         const Destination& destination) const;

  // Bytes [offset, offset + size) of a value, to be put at `to`.
  struct Piece {
    uint64_t offset;
    uint8_t* to;
    size_t size;
  };
  // The pieces of a value read straight to where they go (an uncompressed
  // chunk's rows into the caller's region: one copy, the store's), when the
  // value is `expected_size` bytes; pieces lie inside that size, in
  // increasing order of offset. Returns the value's size (the pieces are
  // written only when it is expected_size), std::nullopt when absent; a
  // value larger than expected_size is refused (expected_size is the read's
  // limit). By default, get() and a copy of each piece.
  virtual std::optional<size_t> get_scattered(const std::string& key, size_t expected_size,
                                              const std::vector<Piece>& pieces) const;
  static void copy_pieces(const uint8_t* value, const std::vector<Piece>& pieces) {
    for (const Piece& p : pieces) std::memcpy(p.to, value + p.offset, p.size);
  }

  // A value handed over in order, piece by piece, when it is `expected_size`
  // bytes: arrived(data, offset, n) gets its bytes [offset, offset + n), at
  // most piece_size of them, read into `buffer` (piece_size bytes, the
  // caller's) or lying in the store's own memory, valid during the call
  // only. A large value so passes through a buffer that stays in the
  // processor's cache. Returns the value's size (fewer bytes than expected
  // only when it was cut short meanwhile; nothing is handed over when the
  // size differs from the start), std::nullopt when absent; a value larger
  // than expected_size is refused, as by get_scattered. By default, get()
  // handed over in pieces.
  virtual std::optional<size_t> get_in_pieces(const std::string& key, size_t expected_size, uint8_t* buffer,
                                              size_t piece_size, const PieceArrived& arrived) const;

 private:
  std::atomic<uint64_t> value_limit_{kDefaultMaxValueBytes};
};

// Rules every store applies to its keys and prefixes (see key_rules.h):
//  - a key is non-empty, relative (no leading '/'), without empty segments
//    (no "//", no trailing '/'), without "." or ".." segments, without NUL
//    bytes, and no segment starts with ".zarr-tmp." (reserved for the
//    filesystem store's temporary files). Anything else is
//    ZARR_ERR_INVALID_ARGUMENT naming the key, so no key reaches outside a root.
//  - a prefix follows the same rules for its complete segments, except that
//    it may be "" or end with '/'; its last, partial segment may be anything
//    without NUL or '/' (list_prefix("a/.z") matches "a/.zarray").
//  - list_dir also accepts a prefix without its trailing '/' ("a/b" = "a/b/").
//  - get_range: an offset past the end gives an empty value (the key exists);
//    a length past the end is clipped.

// ---- size limits (see Store::get) ----------------------------------------------

// ZARR_ERR_IO: the value of `key` in the store `where` (a describe() string)
// is larger than `limit`, the most its read allows; `size` is the value's
// size when the store knows it (else: more than the limit arrived).
[[noreturn]] void fail_too_large(const std::string& where, const std::string& key, uint64_t limit,
                                 std::optional<uint64_t> size = std::nullopt);
// fail_too_large when size > limit.
void check_value_size(const std::string& where, const std::string& key, uint64_t size, uint64_t limit);
// The most bytes a range read may give: its length or suffix, or
// `open_limit` (the store's value_limit()) for a range open at the end.
uint64_t range_limit(const ByteRange& range, uint64_t open_limit);

// Drops one user's reference to a store. When nobody else holds it, the store
// is flushed first, so that a failure to write (a zip archive) reaches the
// caller of zarr_close instead of being lost in a destructor. Throws what
// flush throws; the reference is dropped either way.
void release_store(std::shared_ptr<Store> store);

}  // namespace zarr
