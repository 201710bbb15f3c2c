// The peer-data corpus (../shared/peer-data): manifest.json read once, its
// arrays split by Zarr format, each with what the peer readers read.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace zarr::interop {

inline const char* const kZarrPythonPeer = "zarr-python 2.13.6";
inline const char* const kZarritaPeer = "zarrita.js 0.7.5";

struct PeerEntry {
  std::string path;            // relative to the corpus folder
  bool peers_agree = false;    // the readers that read it agree
  bool agree_is_null = false;  // fewer than two readers read it
  const rapidjson::Value* zp = nullptr;       // zarr-python's reading (may hold peer_error)
  const rapidjson::Value* zarrita = nullptr;  // zarrita.js' reading (may hold peer_error)
};

struct PeerCorpus {
  std::string dir;    // "" when the corpus is absent (tests skip)
  std::string error;  // set when manifest.json is there but unreadable
  rapidjson::Document manifest;
  std::vector<PeerEntry> v2, v3;
};

// Loaded on first use; thread-safe.
const PeerCorpus& peer_corpus();

}  // namespace zarr::interop
