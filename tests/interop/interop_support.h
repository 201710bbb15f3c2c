// Helpers of the interop tests: running the zarr-python peer, SHA-256, N-d
// slicing of C-order byte buffers, a deterministic generator, and the matrix
// of array cases both directions share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace zarr::interop {

// ---- the Python peer ---------------------------------------------------------

// The interpreter with zarr-python 2.13: $ZARR_INTEROP_PYTHON or /usr/bin/python3.
std::string python_exe();
// Folder of zarr_python_peer.py: $ZARR_INTEROP_SCRIPTS or the source folder.
std::string scripts_dir();
// "" when python_exe() imports zarr, numcodecs and numpy; else why not.
std::string python_unavailable_reason();
// Runs a shell command; stdout into *out (when not NULL). Returns the exit status
// (-1 when it could not be run).
int run_command(const std::string& command, std::string* out);
std::string shell_quote(const std::string& s);

// ---- bytes -------------------------------------------------------------------

std::string sha256_hex(const void* data, size_t size);
std::string to_hex(const void* data, size_t size);
std::vector<uint8_t> from_hex(const std::string& hex);
std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);

uint64_t product(const std::vector<uint64_t>& v);

// The C-order sub-box [start, start+count) of a C-order array of `shape`.
std::vector<uint8_t> slice_c_order(const std::vector<uint8_t>& whole, const std::vector<uint64_t>& shape,
                                   size_t item_size, const std::vector<uint64_t>& start,
                                   const std::vector<uint64_t>& count);
// Copy a C-order box into a C-order array of `shape` at `start`.
void paste_c_order(std::vector<uint8_t>& whole, const std::vector<uint64_t>& shape, size_t item_size,
                   const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                   const uint8_t* box);

// Compare two C-order buffers element by element. `defined` (one byte per
// element, may be empty = all) says where `want` is meaningful; elsewhere `got`
// must be all zero bytes (libzarr reads zeros where a null fill value leaves
// data undefined). "" when equal, else a description of the first difference
// and how many elements differ.
std::string compare_elements(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                             const std::vector<uint8_t>& defined, const std::vector<uint64_t>& shape,
                             size_t item_size);

// ---- deterministic randomness ------------------------------------------------

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();                          // splitmix64
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }  // [0, n)
  uint64_t between(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }  // [lo, hi]

 private:
  uint64_t state_;
};

// ---- the case matrix ---------------------------------------------------------

// How to make valid element values of a type in native byte order.
enum class Gen { kBytes, kBool, kUcs4 };

struct DTypeInfo {
  std::string tag;        // identifier fragment: "i2be", "M8ns_le", "struct_mixed"
  std::string json;       // the .zarray "dtype" member
  size_t item_size;       // bytes per element in region buffers
  Gen gen;
  size_t nchar;           // for kUcs4: characters per element
  std::string v3_name;    // zarr_data_type() for simple types, "" otherwise
  // fill values to cycle through: {tag, JSON}; tags "zero", "nz", "nan", "null"
  std::vector<std::pair<std::string, std::string>> fills;
};

struct Box {
  std::vector<uint64_t> start, count;
};

// Boxes to read back from an array of `shape` and `chunks`: an empty one,
// three unaligned random ones (from `seed`), the single element at the ragged
// corner, and one straddling chunk boundaries. A 0-d array gets one box.
std::vector<Box> sub_regions(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks, uint64_t seed);

struct CaseSpec {
  std::string name;  // [A-Za-z0-9_]+, a directory name and a test name
  DTypeInfo dtype;
  std::vector<uint64_t> shape, chunks;
  std::string compressor_tag, compressor_json;  // "null" for none
  std::string order;                            // "C" or "F"
  std::string separator;                        // "." or "/"
  std::string fill_tag, fill_json;
  std::vector<Box> boxes;  // written in this order; chunk row 0 stays unwritten
  uint64_t seed = 0;
};

const std::vector<DTypeInfo>& dtype_table();
// Every compressor tag and its configuration JSON.
const std::vector<std::pair<std::string, std::string>>& compressor_table();
// The matrix: every dtype x 3 cases, compressors, orders, separators and fill
// values cycled through, plus edge cases (0-d, empty, chunk larger than shape).
const std::vector<CaseSpec>& case_matrix();

// {"shape": ..., "dtype": ..., ...}: the .zarray document for zarr_create.
std::string zarray_json(const CaseSpec& c);
// The case as the Python peer's "write" spec reads it (one JSON object).
std::string case_json(const CaseSpec& c);
// Values of `count` elements, native byte order, valid for the type.
std::vector<uint8_t> generate_values(const DTypeInfo& dt, uint64_t count, Rng& rng);

}  // namespace zarr::interop
