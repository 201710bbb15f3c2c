// What the HTTP and S3 store tests share: arrays of every kind the stores
// must carry (v2, v3, sharded with the index at either end) written and read
// through the C API, and C API error checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "zarr/zarr.h"

namespace zarr::remote_test {

struct ArrayCase {
  std::string name;      // folder name: "v2", "v3", "v3_sharded_end", "v3_sharded_start"
  std::string metadata;  // for zarr_create
};

// int32 arrays of shape [40, 30] in chunks (or shards) of [16, 14] ([8, 7]
// inner chunks), fill value 7. Codecs are ones every build has.
const std::vector<ArrayCase>& array_cases();
constexpr uint64_t kRows = 40, kCols = 30;

// Element i of the arrays: a pattern with no runs of the fill value.
std::vector<int32_t> pattern();

// Creates the array (options may be NULL) and writes rows [0, 32) of
// pattern(): the last row of chunks is never written and reads as the fill
// value. Fails the calling test (gtest assertions) on error.
void write_case(const std::string& url, const ArrayCase& c, const char* options_json);
// The same writes into an array already open for writing.
void write_contents(zarr_array* array);

// What a reader should see after write_case.
std::vector<int32_t> expected_contents();

// The whole array, or the region [r0, r0+nr) x [c0, c0+nc), through the C
// API; empty with *status set on failure (failure_message() says why).
std::vector<int32_t> read_region(const std::string& url, const char* options_json, uint64_t r0, uint64_t c0,
                                 uint64_t nr, uint64_t nc, int* status);
std::vector<int32_t> read_all(const std::string& url, const char* options_json, int* status);

// The bytes of a whole array of any fixed-size type, as read by the C API;
// *status gets the first failing call's code.
std::vector<uint8_t> read_any_array(const std::string& url, const char* options_json, int* status);

// zarr_last_error() of the last failure in read_region, read_all or
// read_any_array on this thread.
const std::string& failure_message();

// Status and message of opening url (closing it if it opened).
struct Outcome {
  int status = ZARR_OK;
  std::string message;
};
Outcome open_outcome(const std::string& url, const char* mode, const char* options_json);
Outcome group_open_outcome(const std::string& url, const char* mode, const char* options_json);

}  // namespace zarr::remote_test
