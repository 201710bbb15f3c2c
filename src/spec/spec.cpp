// TensorStore zarr driver specs -> libzarr's open and create paths. The spec
// is parsed into a SpecRequest (spec_parse.cpp, spec_kvstore.cpp: every
// member checked, none ignored), then either the stored metadata is checked
// against its constraints (spec_check.cpp), or a .zarray / zarr.json
// document is completed from them (spec_create.cpp) and created (or
// assumed). See docs/spec.md for the member-by-member table.
#include "spec/spec.h"

#include "base/error.h"
#include "metadata/nodes.h"
#include "spec/spec_request.h"
#include "stores/url.h"

namespace zarr {
namespace {

using namespace spec_detail;

// TensorStore opens read-write; libzarr does too where it can. HTTP stores
// and zip archives that already exist only read, so those open read-only.
NodeLocation resolve_for_open(const std::string& url, bool& writable) {
  writable = url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0;
  if (writable) {
    try {
      return resolve_url(url, StoreAccess::kReadWrite);
    } catch (const Error& e) {
      if (e.code() != ZARR_ERR_READ_ONLY) throw;
      writable = false;
    }
  }
  return resolve_url(url, StoreAccess::kRead);
}

void erase_existing(const std::string& url) {
  NodeLocation loc = resolve_url(url, StoreAccess::kErase);
  try {
    erase_node(*loc.store, loc.path);
  } catch (const Error& e) {
    if (e.code() != ZARR_ERR_NOT_FOUND) throw;  // nothing there: nothing to delete
  }
  release_store(std::move(loc.store));
}

std::unique_ptr<Array> open_existing(const SpecRequest& spec) {
  bool writable = false;
  NodeLocation loc = resolve_for_open(spec.url, writable);
  return Array::open(loc.store, loc.path, writable, spec.options);
}

// The array the spec names: assumed, opened, or (deleted and) created.
std::unique_ptr<Array> open_or_create(const SpecRequest& spec) {
  if (!spec.assume_member.empty()) {
    bool writable = false;
    NodeLocation loc = resolve_for_open(spec.url, writable);
    return Array::assume(loc.store, loc.path, writable, creation_document(spec), spec.options,
                         "'" + spec.assume_member + "'");
  }
  if (spec.delete_existing) erase_existing(spec.url);
  if (spec.open) {
    try {
      return open_existing(spec);
    } catch (const Error& e) {
      if (e.code() != ZARR_ERR_NOT_FOUND || !spec.create) throw;
    }
  }
  const std::string document = creation_document(spec);
  NodeLocation loc = resolve_url(spec.url, StoreAccess::kCreate);
  return Array::create(loc.store, loc.path, document, spec.options);
}

}  // namespace

SpecArray open_spec(const std::string& spec_json) {
  SpecRequest spec = parse_spec(spec_json);
  SpecArray result;
  result.array = open_or_create(spec);
  if (spec.field) result.field = std::make_unique<FieldArray>(*result.array, *spec.field);
  // Created and assumed arrays come from the constraints, but a field's view
  // (and the chunk layout) is only known now: every path is checked.
  check_against_stored(spec, *result.array, result.field.get());
  return result;
}

}  // namespace zarr
