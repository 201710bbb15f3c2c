// An open group: lists its children, holds attributes, opens and creates
// nodes at paths relative to itself.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "metadata/node_attributes.h"
#include "metadata/nodes.h"
#include "stores/store.h"

namespace zarr {

struct ChildNode {
  std::string name;
  NodeKind kind;
};

class Group {
 public:
  // How a group opened read-only uses consolidated metadata: when present
  // (Auto, as zarr-python 3), never, or required (NOT_FOUND without it).
  enum class Consolidated { Auto, Never, Required };

  static std::unique_ptr<Group> open(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                     Consolidated consolidated = Consolidated::Auto);
  // zarr_format 2 writes .zgroup (+ .zattrs), 3 writes zarr.json; 0 takes the
  // format of the nearest group above path, else 3.
  static std::unique_ptr<Group> create(std::shared_ptr<Store> store, const std::string& path,
                                       const char* attributes_json, int zarr_format);

  // Direct children that are arrays or groups, sorted by name.
  std::vector<ChildNode> children() const;

  std::unique_ptr<Array> open_array(const std::string& relative, bool writable, const ArrayOptions& options) const;
  std::unique_ptr<Array> create_array(const std::string& relative, const std::string& metadata_json,
                                      const ArrayOptions& options) const;
  std::unique_ptr<Group> open_group(const std::string& relative) const;
  std::unique_ptr<Group> create_group(const std::string& relative, const char* attributes_json) const;

  // The attributes as this handle read them (once, or as its last change
  // wrote them), and one attribute's JSON value from them (ZARR_ERR_NOT_FOUND
  // naming the key when absent).
  std::string attributes_json() const;
  std::string attribute(const std::string& key) const;
  // Read-modify-writes of the stored attributes under the node's lock
  // (metadata/node_attributes.h): every attribute replaced, or the members
  // of a JSON object merged in (a null member removes its key).
  void set_attributes(const std::string& json);
  void update_attributes(const std::string& json_object);
  // The "process_lock_dir" option: attribute changes also hold the lock file
  // of the node's attributes key in this folder. Groups opened or created
  // through this one inherit it.
  void set_process_lock_dir(std::string folder) { process_lock_dir_ = std::move(folder); }
  bool writable() const { return writable_; }
  int zarr_format() const { return zarr_format_; }
  const std::shared_ptr<Store>& store() const { return store_; }
  const std::string& path() const { return path_; }  // the group's, in store()

 private:
  Group(std::shared_ptr<Store> store, std::string path, bool writable, int zarr_format,
        std::optional<std::string> attributes = std::nullopt);
  // Normalised path of a node relative to this group.
  std::string child_path(const std::string& relative) const;
  void require_writable(const char* operation) const;
  // Where the attributes live: .zattrs (v2) or zarr.json (v3).
  std::string metadata_key() const;
  std::string read_attributes_document() const;
  void change_attributes(const AttributesChange& change);

  std::shared_ptr<Store> store_;
  std::string path_;
  bool writable_;
  int zarr_format_;
  // The attributes as first read (zarr.json at open, .zattrs on first use):
  // metadata documents are read once per handle.
  mutable std::mutex attributes_mutex_;
  mutable std::optional<std::string> attributes_;
  std::string process_lock_dir_;
};

}  // namespace zarr
