// The zarrita.js peer, shared by the interop tests that hand arrays to it:
// installed into the build tree on first use (zarrita_setup.sh), then run as
// `node zarrita_peer.mjs MODE SPEC RESULT` (see zarrita_peer.mjs for both modes).
#pragma once

#include <rapidjson/document.h>

#include <string>

namespace zarr::interop {

struct ZarritaPeer {
  std::string dir;   // holds node_modules and zarrita_peer.mjs
  std::string skip;  // why the peer is unavailable, "" when it is there
};

// Installs zarrita once per process and copies zarrita_peer.mjs beside it.
const ZarritaPeer& zarrita_peer();

// Runs the peer in MODE ("read" or "write") on spec_json (written under work);
// "" and the parsed RESULT on success, else what went wrong.
std::string run_zarrita(const std::string& mode, const std::string& spec_json, const std::string& work,
                        rapidjson::Document& results);

}  // namespace zarr::interop
