// "blosc": a c-blosc 1.x buffer, as numcodecs.Blosc writes it with
// blosc_compress_ctx (one internal thread, typesize = the array's item size).
#include <blosc.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"
#include "codecs/v3_numcodecs.h"

namespace zarr::codecs {

namespace {

const std::string kId = "blosc";

// numcodecs' Blosc.AUTOSHUFFLE: bit shuffle for 1-byte items, else byte shuffle.
constexpr int kAutoShuffle = -1;

// Every cname c-blosc 1.x knows, whether or not this build of it has it.
const std::set<std::string> kKnownCnames = {"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"};

// The blosc header: version, versionlz, flags, typesize, then little-endian
// nbytes, blocksize and cbytes; the top 3 bits of flags name the compressor.
struct Header {
  int flags = 0;
  size_t nbytes = 0;
  size_t cbytes = 0;
};

uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void store_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Where each block of a compressed blosc buffer lies: after the 16-byte
// header, a table of nblocks 32-bit offsets, one per block in decoded order;
// a block's bytes run up to the next block's start in the buffer (blocks
// compressed by several threads may be stored out of order) or its end.
struct BlockLayout {
  size_t blocksize = 0;
  std::vector<uint32_t> begin, end;  // per block, in decoded order
};

// Blocks up to this size are decoded one at a time (they stay in a core's
// L2 cache); larger ones are decoded with the whole buffer.
constexpr size_t kMaxPieceBlock = size_t{2} << 20;
constexpr size_t kBlockHeaderBytes = BLOSC_MIN_HEADER_LENGTH + 4;  // header + a one-entry table

// The layout, or nothing when the buffer is stored uncompressed, is a single
// block, has blocks too large, or offsets that do not describe distinct
// blocks inside it (then the whole-buffer decoder reports what is wrong).
std::optional<BlockLayout> block_layout(ByteView in, const Header& h) {
  BlockLayout layout;
  layout.blocksize = load_le32(in.data + 8);
  if ((h.flags & BLOSC_MEMCPYED) || layout.blocksize == 0 || layout.blocksize > kMaxPieceBlock ||
      h.nbytes <= layout.blocksize) {
    return std::nullopt;
  }
  const size_t nblocks = (h.nbytes + layout.blocksize - 1) / layout.blocksize;
  const size_t table_end = BLOSC_MIN_HEADER_LENGTH + 4 * nblocks;
  if (table_end > in.size) return std::nullopt;
  for (size_t j = 0; j < nblocks; ++j) {
    const uint32_t begin = load_le32(in.data + BLOSC_MIN_HEADER_LENGTH + 4 * j);
    if (begin < table_end || begin >= in.size) return std::nullopt;
    layout.begin.push_back(begin);
  }
  std::vector<uint32_t> sorted = layout.begin;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return std::nullopt;
  for (uint32_t begin : layout.begin) {
    auto next = std::upper_bound(sorted.begin(), sorted.end(), begin);
    layout.end.push_back(next == sorted.end() ? static_cast<uint32_t>(in.size) : *next);
  }
  return layout;
}

// The thread's buffers for one block: its compressed bytes behind a header
// of their own, and its decoded bytes.
ScratchBuffer& block_input() {
  thread_local ScratchBuffer buffer;
  return buffer;
}
ScratchBuffer& block_output() {
  thread_local ScratchBuffer buffer;
  return buffer;
}

Header read_header(ByteView in) {
  if (in.size < BLOSC_MIN_HEADER_LENGTH) {
    codec_error(kId, "truncated input: " + std::to_string(in.size) + " bytes, a blosc header has " +
                         std::to_string(BLOSC_MIN_HEADER_LENGTH));
  }
  Header h;
  h.flags = in.data[2];
  h.nbytes = load_le32(in.data + 4);
  h.cbytes = load_le32(in.data + 12);
  return h;
}

std::set<std::string> split_names(const std::string& list) {
  std::set<std::string> names;
  std::stringstream ss(list);
  for (std::string name; std::getline(ss, name, ',');) names.insert(name);
  return names;
}

// The compressor that made a buffer, from its header flags (lz4 and lz4hc
// share a format; either one being present decodes it), and the most bytes
// one byte of its streams can decode to (c-blosc's own output, 64 MiB of
// zeros: 251, 251, 21, 933 and 32404).
struct Compressor {
  const char* name;
  size_t max_expansion;
};

std::optional<Compressor> compressor_of(int flags) {
  switch (flags >> 5) {
    case BLOSC_BLOSCLZ_FORMAT: return Compressor{"blosclz", kLz77MaxExpansion};
    case BLOSC_LZ4_FORMAT: return Compressor{"lz4", kLz77MaxExpansion};
    case BLOSC_SNAPPY_FORMAT: return Compressor{"snappy", kSnappyMaxExpansion};
    case BLOSC_ZLIB_FORMAT: return Compressor{"zlib", kDeflateMaxExpansion};
    case BLOSC_ZSTD_FORMAT: return Compressor{"zstd", kZstdMaxExpansion};
    default: return std::nullopt;
  }
}

class BloscCodec final : public SizedDecoderCodec {
 public:
  BloscCodec(std::string cname, int clevel, int shuffle, int blocksize, size_t typesize,
             std::set<std::string> available)
      : cname_(std::move(cname)),
        clevel_(clevel),
        shuffle_(shuffle),
        blocksize_(blocksize),
        typesize_(typesize),
        available_(std::move(available)) {}

  std::string id() const override { return kId; }

  std::string config_json() const override {
    return ConfigWriter(kId)
        .add_string("cname", cname_)
        .add_int("clevel", clevel_)
        .add_int("shuffle", shuffle_)
        .add_int("blocksize", blocksize_)
        .str();
  }

  Bytes encode(ByteView decoded) const override { return encode_through_bound(*this, decoded); }

  // The overhead makes room for the worst case, so compression into the
  // bound cannot fail for lack of space.
  size_t encoded_bound(size_t decoded_size) const override { return decoded_size + BLOSC_MAX_OVERHEAD; }

  size_t encode_into(ByteView decoded, uint8_t* out, size_t capacity) const override {
    if (decoded.size > BLOSC_MAX_BUFFERSIZE) {
      codec_error(kId, "input of " + std::to_string(decoded.size) + " bytes exceeds blosc's limit of " +
                           std::to_string(BLOSC_MAX_BUFFERSIZE));
    }
    int n = blosc_compress_ctx(clevel_, effective_shuffle(), typesize_, decoded.size, decoded.data, out, capacity,
                               cname_.c_str(), static_cast<size_t>(blocksize_), 1);
    if (n <= 0) codec_error(kId, "compression failed (c-blosc error " + std::to_string(n) + ")");
    return static_cast<size_t>(n);
  }


 private:
  // The decoded size, once the header describes exactly this buffer (and
  // `expected_size`, when known) with a compressor this build has.
  size_t stated_size(ByteView encoded, size_t expected_size) const override {
    Header h = read_header(encoded);
    check_sizes(h, encoded.size, expected_size);
    check_compressor(h.flags);
    check_valid(encoded);
    check_block_table(encoded, h);
    return h.nbytes;
  }

  void decompress(ByteView encoded, uint8_t* out, size_t nbytes) const override {
    // blosc_decompress_ctx returns 0 on error, which is also the size of an
    // empty buffer: only call it when there is something to decode.
    if (nbytes == 0) return;
    int n = blosc_decompress_ctx(encoded.data, out, nbytes, 1);
    if (n <= 0) codec_error(kId, "corrupt input (c-blosc error " + std::to_string(n) + ")");
    check_decoded_size(kId, static_cast<size_t>(n), nbytes);
  }

  // Block by block: each block's bytes are given a header of their own that
  // makes them a one-block blosc buffer (same version, flags and typesize;
  // the same blocksize, so that a short last block stays the "leftover"
  // block it was), which c-blosc decodes with its usual checks into a
  // buffer that stays in the cache.
  bool decodes_by_blocks() const override { return true; }
  bool decode_in_pieces(ByteView encoded, size_t out_size, const PieceArrived& arrived) const override {
    const size_t nbytes = stated_size(encoded, out_size);
    const std::optional<BlockLayout> layout = block_layout(encoded, read_header(encoded));
    if (!layout) return false;
    uint8_t* out = block_output().reserve(layout->blocksize);
    for (size_t j = 0; j < layout->begin.size(); ++j) {
      const size_t offset = j * layout->blocksize;
      const size_t block_bytes = std::min(layout->blocksize, nbytes - offset);
      const size_t stored_bytes = layout->end[j] - layout->begin[j];
      uint8_t* one = block_input().reserve(kBlockHeaderBytes + stored_bytes);
      std::memcpy(one, encoded.data, 4);  // version, versionlz, flags, typesize
      store_le32(one + 4, static_cast<uint32_t>(block_bytes));
      store_le32(one + 8, static_cast<uint32_t>(layout->blocksize));
      store_le32(one + 12, static_cast<uint32_t>(kBlockHeaderBytes + stored_bytes));
      store_le32(one + 16, static_cast<uint32_t>(kBlockHeaderBytes));
      std::memcpy(one + kBlockHeaderBytes, encoded.data + layout->begin[j], stored_bytes);
      size_t stated = 0;
      const int n = blosc_cbuffer_validate(one, kBlockHeaderBytes + stored_bytes, &stated) == 0
                        ? blosc_decompress_ctx(one, out, layout->blocksize, 1)  // it wants room for a whole block
                        : -1;
      if (n != static_cast<int>(block_bytes)) {
        codec_error(kId, "corrupt input: block " + std::to_string(j) + " of " + std::to_string(layout->begin.size()) +
                             " does not decode (c-blosc error " + std::to_string(n) + ")");
      }
      arrived(out, offset, block_bytes);
    }
    block_input().release_above(2 * kMaxPieceBlock);  // offsets of a hostile buffer can make one "block" huge
    return true;
  }

  int effective_shuffle() const {
    if (shuffle_ != kAutoShuffle) return shuffle_;
    return typesize_ == 1 ? BLOSC_BITSHUFFLE : BLOSC_SHUFFLE;
  }

  // The header must describe exactly this buffer and, when the metadata
  // gives it, the expected size: checked before allocating what it claims.
  static void check_sizes(const Header& h, size_t encoded_size, size_t expected_size) {
    if (h.cbytes != encoded_size) {
      codec_error(kId, (h.cbytes > encoded_size ? "truncated input: header says " : "corrupt input: header says ") +
                           std::to_string(h.cbytes) + " compressed bytes, got " + std::to_string(encoded_size));
    }
    if (expected_size != 0 && h.nbytes != expected_size) {
      codec_error(kId, "header claims " + std::to_string(h.nbytes) + " decoded bytes, expected " +
                           std::to_string(expected_size));
    }
  }

  // The decoded size a header claims must fit the buffer: a stored
  // (memcpyed) buffer is the header and the bytes themselves, and a
  // compressed one starts with one offset per block, followed by streams
  // that cannot expand beyond their compressor's ratio. A lying header is
  // refused before its size is allocated (when the caller does not know the
  // size, nothing else bounds it; c-blosc's check does not look).
  static void check_block_table(ByteView in, const Header& h) {
    if (h.flags & BLOSC_MEMCPYED) {
      if (h.nbytes + BLOSC_MAX_OVERHEAD != in.size) {
        codec_error(kId, "corrupt input: the header claims " + std::to_string(h.nbytes) +
                             " bytes stored uncompressed in a buffer of " + std::to_string(in.size));
      }
      return;
    }
    if (h.nbytes == 0) return;
    const size_t blocksize = load_le32(in.data + 8);
    if (blocksize == 0) codec_error(kId, "corrupt input: the header's block size is 0");
    const size_t nblocks = (h.nbytes + blocksize - 1) / blocksize;
    const size_t table_end = BLOSC_MIN_HEADER_LENGTH + 4 * nblocks;
    if (table_end > in.size) {
      codec_error(kId, "corrupt input: the header claims " + std::to_string(h.nbytes) + " bytes in " +
                           std::to_string(nblocks) + " blocks, whose offsets alone need " +
                           std::to_string(table_end) + " bytes; the buffer has " + std::to_string(in.size));
    }
    // A block whose streams are stored is its own size, within the ratio.
    const Compressor compressor = *compressor_of(h.flags);  // check_compressor has run
    const size_t stream_bytes = in.size - table_end;
    if (h.nbytes / compressor.max_expansion > stream_bytes) {
      codec_error(kId, "corrupt input: the header claims " + std::to_string(h.nbytes) + " bytes from " +
                           std::to_string(stream_bytes) + " compressed bytes, more than " +
                           compressor.name + " can expand to (" + std::to_string(compressor.max_expansion) +
                           " to 1)");
    }
  }

  // c-blosc's own check that decompressing is memory-safe.
  static void check_valid(ByteView encoded) {
    size_t nbytes = 0;
    if (blosc_cbuffer_validate(encoded.data, encoded.size, &nbytes) == 0) return;
    if (encoded.data[0] > BLOSC_VERSION_FORMAT) {
      codec_error(kId, "blosc format version " + std::to_string(encoded.data[0]) + " is newer than this c-blosc's " +
                           std::to_string(BLOSC_VERSION_FORMAT));
    }
    codec_error(kId, "corrupt input: invalid blosc header");
  }

  void check_compressor(int flags) const {
    if (flags & BLOSC_MEMCPYED) return;  // stored uncompressed
    const std::optional<Compressor> compressor = compressor_of(flags);
    if (!compressor) codec_error(kId, "corrupt input: unknown compressor code " + std::to_string(flags >> 5));
    const char* name = compressor->name;
    bool have = available_.count(name) || (std::strcmp(name, "lz4") == 0 && available_.count("lz4hc"));
    if (!have) {
      fail(ZARR_ERR_UNSUPPORTED, "codec 'blosc': the chunk was compressed with '" + std::string(name) +
                                     "', which this build's c-blosc lacks");
    }
  }

  std::string cname_;
  int clevel_;
  int shuffle_;
  int blocksize_;
  size_t typesize_;
  std::set<std::string> available_;
};

// "shuffle": numcodecs' integer (-1 auto, 0 none, 1 byte, 2 bit), or the
// name GDAL 3.6 writes ("NONE", "BYTE", "BIT"), which zarr-python and GDAL
// read too (a tolerated deviation: docs/compressors.md).
int read_shuffle(const ConfigReader& cfg) {
  const rapidjson::Value* named = cfg.find("shuffle");
  if (!named || !named->IsString()) return static_cast<int>(cfg.integer("shuffle", 1, kAutoShuffle, BLOSC_BITSHUFFLE));
  const std::string name = named->GetString();
  if (name == "NONE") return BLOSC_NOSHUFFLE;
  if (name == "BYTE") return BLOSC_SHUFFLE;
  if (name == "BIT") return BLOSC_BITSHUFFLE;
  cfg.invalid("shuffle", "an integer -1..2 or \"NONE\", \"BYTE\" or \"BIT\"", *named);
}

}  // namespace

std::unique_ptr<BytesCodec> make_blosc_codec_limited(const rapidjson::Value& config, const ChunkRepr& repr,
                                                     const std::string& available) {
  ConfigReader cfg(config, kId);
  std::string cname = cfg.string("cname", "lz4");
  if (!kKnownCnames.count(cname)) {
    cfg.invalid("cname", "one of blosclz, lz4, lz4hc, snappy, zlib, zstd", *cfg.find("cname"));
  }
  std::set<std::string> have = split_names(available);
  if (!have.count(cname)) {
    cfg.unsupported("cname '" + cname + "' is not in this build's c-blosc (it has " + available + ")");
  }
  int clevel = static_cast<int>(cfg.integer("clevel", 5, 0, 9));
  int shuffle = read_shuffle(cfg);
  int blocksize = static_cast<int>(cfg.integer("blocksize", 0, 0, INT_MAX));
  size_t typesize = repr.item_size == 0 ? 1 : repr.item_size;
  return std::make_unique<BloscCodec>(cname, clevel, shuffle, blocksize, typesize, std::move(have));
}

std::unique_ptr<BytesCodec> make_blosc_codec(const rapidjson::Value& config, const ChunkRepr& repr) {
  return make_blosc_codec_limited(config, repr, blosc_list_compressors());
}

// ---- v3: "blosc" names its shuffle and carries the typesize ----

namespace {

// The numcodecs codec of a v3 configuration.
std::unique_ptr<BytesCodec> make_blosc_from_v3(const V3CodecRequest& request) {
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, request.where + ": 'configuration' is required");
  const rapidjson::Value& c = *request.configuration;
  ChunkRepr repr = request.bytes_repr;
  std::string config = "{\"id\":\"blosc\"";
  for (const char* field : {"cname", "clevel", "blocksize"}) {
    if (const rapidjson::Value* v = json::find(c, field)) config += ",\"" + std::string(field) + "\":" + json::to_string(*v);
  }
  if (const rapidjson::Value* shuffle = json::find(c, "shuffle")) {
    std::string name = json::get_string(*shuffle, "shuffle", request.where);
    int code = name == "noshuffle" ? 0 : name == "shuffle" ? 1 : name == "bitshuffle" ? 2 : -9;
    if (code == -9) {
      fail(ZARR_ERR_INVALID_METADATA, request.where + ": field 'shuffle' must be \"noshuffle\", \"shuffle\" or "
                                                      "\"bitshuffle\", got " + json::quote(name));
    }
    config += ",\"shuffle\":" + std::to_string(code);
  }
  if (const rapidjson::Value* typesize = json::find(c, "typesize")) {
    uint64_t t = json::get_uint(*typesize, "typesize", request.where);
    if (t == 0) fail(ZARR_ERR_INVALID_METADATA, request.where + ": field 'typesize' must be positive");
    repr.item_size = static_cast<size_t>(t);
  }
  return make_from_v2(config + "}", repr, request.where);
}

}  // namespace

V3Codec make_blosc_v3(const V3CodecRequest& request) {
  size_t typesize = request.bytes_repr.item_size;
  if (request.configuration) {
    if (const rapidjson::Value* t = json::find(*request.configuration, "typesize")) {
      typesize = static_cast<size_t>(json::get_uint(*t, "typesize", request.where));
    }
  }
  std::unique_ptr<BytesCodec> codec = make_blosc_from_v3(request);
  std::string v3 = blosc_v3_json(*codec, typesize);
  return named_v2_codec(std::move(codec), std::move(v3));
}

std::string blosc_v3_json(const BytesCodec& codec, size_t typesize) {
  rapidjson::Document c = json::parse(codec.config_json(), "blosc");
  static const char* kShuffleNames[] = {"noshuffle", "shuffle", "bitshuffle"};
  int shuffle = c["shuffle"].GetInt();
  // Key order as zarr-python 3 writes it.
  return "{\"name\":\"blosc\",\"configuration\":{\"typesize\":" + std::to_string(typesize) +
         ",\"cname\":" + json::to_string(c["cname"]) + ",\"clevel\":" + json::to_string(c["clevel"]) +
         ",\"shuffle\":\"" + (shuffle >= 0 && shuffle <= 2 ? kShuffleNames[shuffle] : "shuffle") +
         "\",\"blocksize\":" + json::to_string(c["blocksize"]) + "}}";
}

}  // namespace zarr::codecs
