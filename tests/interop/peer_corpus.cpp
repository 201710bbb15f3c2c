#include "peer_corpus.h"

#include <exception>
#include <mutex>

#include "interop_support.h"
#include "support/test_support.h"

namespace zarr::interop {

namespace {

void load(PeerCorpus& c) {
  c.dir = zarr::test::peer_data_dir();
  if (c.dir.empty()) return;
  std::string text;
  try {
    text = read_text(c.dir + "/manifest.json");
  } catch (const std::exception& e) {
    c.error = e.what();
    return;
  }
  c.manifest.Parse(text.c_str());
  if (c.manifest.HasParseError() || !c.manifest.IsObject() || !c.manifest.HasMember("arrays")) {
    c.error = "cannot parse " + c.dir + "/manifest.json";
    return;
  }
  for (const auto& a : c.manifest["arrays"].GetArray()) {
    if (!a.HasMember("zarr_format") || !a["zarr_format"].IsInt()) continue;
    const int format = a["zarr_format"].GetInt();
    if (format != 2 && format != 3) continue;
    PeerEntry e;
    e.path = a["path"].GetString();
    e.agree_is_null = a["peers_agree"].IsNull();
    e.peers_agree = a["peers_agree"].IsBool() && a["peers_agree"].GetBool();
    const auto& peers = a["peers"];
    if (peers.HasMember(kZarrPythonPeer)) e.zp = &peers[kZarrPythonPeer];
    if (peers.HasMember(kZarritaPeer)) e.zarrita = &peers[kZarritaPeer];
    (format == 2 ? c.v2 : c.v3).push_back(e);
  }
}

}  // namespace

const PeerCorpus& peer_corpus() {
  // Loaded in place: the entries point into the manifest document.
  static PeerCorpus corpus;
  static std::once_flag once;
  std::call_once(once, [] { load(corpus); });
  return corpus;
}

}  // namespace zarr::interop
