// Running the built zarrtool as a user's shell would, for the CLI tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "support/test_support.h"

namespace zarrtool_test {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string shell_quote(const std::string& word);
std::string read_text(const std::filesystem::path& path);

// The Python with zarr-python 2.13 and numcodecs: $ZARR_TEST_PYTHON, else /usr/bin/python3.
std::string python();

// Runs python() -c script with args; stdout and stderr appended to *out.
// Returns the exit status (-1 when it could not run or was killed).
int run_python(const std::string& script, const std::vector<std::string>& args, std::string* out);

// run_python as an assertion: a failure carries the script's output.
::testing::AssertionResult python_succeeds(const std::string& script, const std::vector<std::string>& args);

// True when python() imports `modules` ("zarr" or "xarray, zarr"), so a test
// needing a peer can skip with a message instead of failing.
bool python_has(const std::string& modules);

// Runs zarrtool with args (stdout through a pipe, stderr through a file);
// `environment` ("NAME=value ...", already quoted) goes before the command.
RunResult run_tool(const std::vector<std::string>& args, const std::string& environment = "");

// JSON output parsed, with a test failure when it is not JSON.
rapidjson::Document parse(const std::string& json);
std::vector<uint64_t> extents(const rapidjson::Value& list);

// Writes values 0, 1, 2... (C order) over the whole int32 array at url.
void fill_with_counting(const std::string& url);

// A 6 x 8 int32 array in 3 x 4 chunks holding 0..47 (gzip in v3, zlib in v2),
// fill value -1, made with `zarrtool create`; returns its URL.
std::string make_counting_array_at(const std::string& url, const std::string& format = "3");
std::string make_counting_array(const zarr::test::TempDir& dir, const std::string& name, const std::string& format = "3");

}  // namespace zarrtool_test
