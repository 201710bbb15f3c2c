#include "cli_runner.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "zarr/zarr.h"

namespace zarrtool_test {

std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string python() {
  const char* env = std::getenv("ZARR_TEST_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

RunResult run_tool(const std::vector<std::string>& args, const std::string& environment) {
  static zarr::test::TempDir scratch;
  const std::string err_file = scratch / "stderr";
  std::string command = environment.empty() ? "" : "env " + environment + " ";
  command += shell_quote(ZARRTOOL_PATH);
  for (const auto& arg : args) command += " " + shell_quote(arg);
  command += " 2>" + shell_quote(err_file);
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = read_text(err_file);
  return result;
}

rapidjson::Document parse(const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  EXPECT_FALSE(doc.HasParseError()) << json;
  return doc;
}

int run_python(const std::string& script, const std::vector<std::string>& args, std::string* out) {
  std::string command = python() + " -c " + shell_quote(script);
  for (const std::string& a : args) command += " " + shell_quote(a);
  command += " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out->append(buffer, n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

::testing::AssertionResult python_succeeds(const std::string& script, const std::vector<std::string>& args) {
  std::string out;
  const int status = run_python(script, args, &out);
  if (status == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << python() << " exited " << status << ":\n" << out;
}

bool python_has(const std::string& modules) {
  std::string out;
  return run_python("import " + modules, {}, &out) == 0;
}

std::vector<uint64_t> extents(const rapidjson::Value& list) {
  std::vector<uint64_t> v;
  for (const auto& item : list.GetArray()) v.push_back(item.GetUint64());
  return v;
}

// Writes values 0, 1, 2... (C order) over the whole int32 array at url.
void fill_with_counting(const std::string& url) {
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_open(&array, url.c_str(), "r+"), ZARR_OK) << zarr_last_error();
  std::vector<uint64_t> shape(zarr_ndim(array));
  zarr_shape(array, shape.data());
  uint64_t n = 1;
  for (uint64_t e : shape) n *= e;
  std::vector<int32_t> values(n);
  for (uint64_t i = 0; i < n; ++i) values[i] = static_cast<int32_t>(i);
  std::vector<uint64_t> start(shape.size(), 0);
  EXPECT_EQ(zarr_write_region(array, shape.size(), start.data(), shape.data(), values.data(), n * 4), ZARR_OK)
      << zarr_last_error();
  zarr_close(array);
}

std::string make_counting_array(const zarr::test::TempDir& dir, const std::string& name, const std::string& format) {
  return make_counting_array_at(dir / name, format);
}

std::string make_counting_array_at(const std::string& url, const std::string& format) {
  std::string codec = format == "3" ? R"({"name":"gzip","configuration":{"level":1}})" : R"({"id":"zlib","level":1})";
  RunResult r = run_tool({"create", url, "--shape", "6,8", "--dtype", "int32", "--chunks", "3,4", "--codec", codec,
                          "--fill", "-1", "--format", format});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fill_with_counting(url);
  return url;
}

}  // namespace zarrtool_test
