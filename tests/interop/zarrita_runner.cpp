#include "zarrita_runner.h"

#include <cstdlib>
#include <exception>
#include <iostream>

#include "interop_support.h"

namespace zarr::interop {
namespace {

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

const ZarritaPeer& zarrita_peer() {
  static const ZarritaPeer peer = [] {
    ZarritaPeer p;
    const char* env = std::getenv("ZARR_ZARRITA_PEER_DIR");
    p.dir = env && *env ? env : std::string(ZARR_BUILD_ROOT) + "/tests/interop/zarrita-peer";
    std::string out;
    int rc = run_command("bash " + shell_quote(scripts_dir() + "/zarrita_setup.sh") + " " + shell_quote(p.dir) + " 2>&1",
                         &out);
    if (rc != 0) {
      p.skip = "zarrita.js unavailable: " + last_line(out);
      std::cout << "[ zarrita  ] " << out;
    } else {
      std::cout << "[ zarrita  ] " << last_line(out) << "\n";
    }
    return p;
  }();
  return peer;
}

std::string run_zarrita(const std::string& mode, const std::string& spec_json, const std::string& work,
                        rapidjson::Document& results) {
  const ZarritaPeer& p = zarrita_peer();
  std::string spec = work + "/" + mode + "-spec.json", result = work + "/" + mode + "-result.json";
  write_text(spec, spec_json);
  std::string out;
  int rc = run_command("cd " + shell_quote(p.dir) + " && node zarrita_peer.mjs " + mode + " " + shell_quote(spec) + " " +
                           shell_quote(result) + " 2>&1",
                       &out);
  if (rc != 0) return "node zarrita_peer.mjs " + mode + " exited with " + std::to_string(rc) + ":\n" + out;
  std::string text;
  try {
    text = read_text(result);
  } catch (const std::exception& e) {
    return std::string("no result from zarrita_peer.mjs: ") + e.what() + "\n" + out;
  }
  results.Parse(text.c_str());
  if (results.HasParseError() || !results.IsArray()) return "cannot parse " + result;
  return "";
}

}  // namespace zarr::interop
