#include "stores/consolidated_store.h"

#include <algorithm>
#include <mutex>
#include <set>

#include <rapidjson/document.h>

#include "base/error.h"
#include "base/metadata_keys.h"
#include "base/path.h"

namespace zarr {

namespace {

class ConsolidatedStore final : public Store {
 public:
  ConsolidatedStore(std::shared_ptr<Store> inner, std::string root, std::map<std::string, std::string> documents)
      : inner_(std::move(inner)), root_(std::move(root)), documents_(std::move(documents)) {
    set_value_limit(inner_->value_limit());
  }

  // The consolidated documents were read (held to the limit) with the
  // document that holds them: they are handed out whole.
  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    Source s = source(key);
    if (s == Source::Consolidated) return to_bytes(documents_.at(key));
    if (s == Source::Absent) return std::nullopt;
    return checked_absence(key, inner_->get(key, max_size));
  }

  // Chunk keys go to the inner store in one call, so that a remote store
  // fetches them concurrently.
  void get_each(const std::vector<std::string>& keys, uint64_t max_size, const ValueArrived& arrived) const override {
    std::vector<std::string> inner_keys;
    std::vector<size_t> index_of;  // of each inner key in keys
    for (size_t i = 0; i < keys.size(); ++i) {
      if (source(keys[i]) == Source::Inner) {
        inner_keys.push_back(keys[i]);
        index_of.push_back(i);
      } else {
        arrived(i, get(keys[i], max_size));
      }
    }
    inner_->get_each(inner_keys, max_size, [&](size_t j, std::optional<Bytes> value) {
      arrived(index_of[j], checked_absence(inner_keys[j], std::move(value)));
    });
  }

  std::optional<size_t> get_into(const std::string& key, uint64_t max_size,
                                 const Destination& destination) const override {
    if (source(key) == Source::Inner) return checked_absence(key, inner_->get_into(key, max_size, destination));
    return Store::get_into(key, max_size, destination);
  }

  std::optional<size_t> get_in_pieces(const std::string& key, size_t expected_size, uint8_t* buffer,
                                      size_t piece_size, const PieceArrived& arrived) const override {
    if (source(key) == Source::Inner) {
      return checked_absence(key, inner_->get_in_pieces(key, expected_size, buffer, piece_size, arrived));
    }
    return Store::get_in_pieces(key, expected_size, buffer, piece_size, arrived);
  }

  std::optional<size_t> get_scattered(const std::string& key, size_t expected_size,
                                      const std::vector<Piece>& pieces) const override {
    if (source(key) == Source::Inner) return checked_absence(key, inner_->get_scattered(key, expected_size, pieces));
    return Store::get_scattered(key, expected_size, pieces);
  }

  bool fetches_concurrently() const override { return inner_->fetches_concurrently(); }

  VersionedBytes get_range_versioned(const std::string& key, const ByteRange& range) const override {
    if (source(key) == Source::Inner) {
      VersionedBytes got = inner_->get_range_versioned(key, range);
      checked_absence(key, got.bytes);
      return got;
    }
    return {get_range(key, range), {}};
  }

  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    if (source(key) != Source::Inner) {
      std::optional<Bytes> whole = get(key, value_limit());
      if (!whole) return std::nullopt;
      // Metadata documents are small: cut the range out of the whole value.
      uint64_t size = whole->size();
      uint64_t begin = range.suffix ? (*range.suffix < size ? size - *range.suffix : 0) : std::min(range.offset, size);
      uint64_t end = range.suffix || !range.length ? size : std::min(size, begin + *range.length);
      return Bytes(whole->begin() + static_cast<ptrdiff_t>(begin), whole->begin() + static_cast<ptrdiff_t>(end));
    }
    return checked_absence(key, inner_->get_range(key, range));
  }

  bool exists(const std::string& key) const override {
    Source s = source(key);
    if (s == Source::Consolidated) return true;
    if (s == Source::Absent) return false;
    return inner_->exists(key);
  }

  std::optional<uint64_t> value_size(const std::string& key) const override {
    if (source(key) != Source::Inner) return Store::value_size(key);
    return inner_->value_size(key);
  }

  void set(const std::string& key, ByteView) override { read_only("write", key); }
  void erase(const std::string& key) override { read_only("erase", key); }
  void erase_prefix(const std::string& prefix) override { read_only("erase", prefix); }

  // What is stored (chunks counted by info, stored_chunks and verify) is the
  // store's own listing: the consolidated documents say which nodes there
  // are, never which chunks (a view that answered from them counted every
  // chunk missing and verified nothing).
  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    return inner_->list_prefix(prefix);
  }

  // A group's children come from the consolidated documents, without listing
  // the store (what consolidated metadata is for, also on stores that cannot
  // list, such as HTTP).
  DirListing list_dir(const std::string& prefix) const override {
    std::set<std::string> keys, dirs;
    for (auto it = documents_.lower_bound(prefix); it != documents_.end() && it->first.rfind(prefix, 0) == 0; ++it) {
      const std::string& key = it->first;
      std::string rest = key.substr(prefix.size());
      size_t slash = rest.find('/');
      if (slash == std::string::npos) keys.insert(rest); else dirs.insert(rest.substr(0, slash));
    }
    return DirListing{{keys.begin(), keys.end()}, {dirs.begin(), dirs.end()}};
  }

  // Nothing to write here, but this view may be the last user of a store
  // that has (a zip archive written through other handles now closed).
  // release_store calls this under its lock, so the count is reliable.
  void flush() override {
    if (inner_.use_count() == 1) inner_->flush();
  }

  bool writable() const override { return false; }
  // Whether list_prefix works: the store's own listing.
  bool listable() const override { return inner_->listable(); }
  std::string describe() const override { return inner_->describe() + " (consolidated metadata)"; }

 private:
  enum class Source { Consolidated, Absent, Inner };

  // Metadata keys below the root come from the consolidated documents only:
  // one missing there is absent, without asking the store.
  Source source(const std::string& key) const {
    if (documents_.count(key)) return Source::Consolidated;
    if (is_metadata_key_name(path::basename(key)) && path::parent(key) != root_) return Source::Absent;
    return Source::Inner;
  }

  static Bytes to_bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }

  // A chunk read found nothing: before that reads as the fill value, the
  // node's own metadata is checked once (one small read per node and view).
  // Consolidated metadata that lists a node erased or replaced since is
  // stale, and reading through it would return fill values quietly.
  template <typename Value>
  Value checked_absence(const std::string& key, Value value) const {
    if (!value) check_node_of(key);
    return value;
  }

  // The metadata document (full key) of the node a chunk key belongs to: the
  // longest consolidated node path above it, or "" for none.
  std::string metadata_document_of(const std::string& key) const {
    for (std::string dir = path::parent(key);; dir = path::parent(dir)) {
      for (const char* name : {kV2ArrayKey, kV3MetadataKey}) {
        const std::string document = path::join(dir, name);
        if (documents_.count(document)) return document;
      }
      if (dir.empty()) return "";
    }
  }

  void check_node_of(const std::string& key) const {
    const std::string document = metadata_document_of(key);
    if (document.empty()) return;
    {
      std::lock_guard<std::mutex> lock(checked_mutex_);
      if (checked_.count(document)) return;
    }
    const std::string node = path::parent(document);
    const std::optional<Bytes> own = inner_->get(document, value_limit());
    const std::string advice = ": the consolidated metadata is stale (zarrtool consolidate, "
                               "zarr_consolidate_metadata, or open the group with {\"consolidated\": false})";
    if (!own) {
      fail(ZARR_ERR_NOT_FOUND, "'" + node + "' is in the consolidated metadata of " + inner_->describe() +
                                   " but its own metadata ('" + document + "') is gone" + advice);
    }
    const std::string differing = first_differing_member(documents_.at(document), ByteView(*own).to_string());
    if (!differing.empty()) {
      fail(ZARR_ERR_INVALID_METADATA, "'" + node + "': member '" + differing + "' of its own metadata ('" + document +
                                          "') differs from the consolidated metadata of " + inner_->describe() + advice);
    }
    std::lock_guard<std::mutex> lock(checked_mutex_);
    checked_.insert(document);
  }

  // The first member that decides how chunks are read and that both
  // documents hold with different values ("" for none). Members only one of
  // them holds are not compared: writers normalise documents differently.
  static std::string first_differing_member(const std::string& consolidated, const std::string& own) {
    rapidjson::Document a, b;
    a.Parse(consolidated.data(), consolidated.size());
    b.Parse(own.data(), own.size());
    if (a.HasParseError() || b.HasParseError() || !a.IsObject() || !b.IsObject()) return "";
    for (const char* member : {"shape", "chunks", "chunk_grid", "dtype", "data_type", "compressor", "filters",
                               "codecs", "order", "dimension_separator", "chunk_key_encoding", "fill_value"}) {
      const auto x = a.FindMember(member), y = b.FindMember(member);
      if (x != a.MemberEnd() && y != b.MemberEnd() && x->value != y->value) return member;
    }
    return "";
  }

  [[noreturn]] void read_only(const char* operation, const std::string& key) const {
    fail(ZARR_ERR_READ_ONLY, std::string("cannot ") + operation + " '" + key + "' in " + describe() +
                                 ": a hierarchy opened through consolidated metadata is read-only");
  }

  std::shared_ptr<Store> inner_;
  std::string root_;
  std::map<std::string, std::string> documents_;
  mutable std::mutex checked_mutex_;
  mutable std::set<std::string> checked_;  // metadata documents found still in step
};

}  // namespace

bool is_metadata_key_name(const std::string& name) {
  return name == kV2ArrayKey || name == kV2GroupKey || name == kV2AttrsKey || name == kV3MetadataKey ||
         name == kV2ConsolidatedKey;
}

std::shared_ptr<Store> make_consolidated_store(std::shared_ptr<Store> inner, std::string root,
                                               std::map<std::string, std::string> documents) {
  return std::make_shared<ConsolidatedStore>(std::move(inner), std::move(root), std::move(documents));
}

}  // namespace zarr
