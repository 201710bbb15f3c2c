// zarrtool cat URL [--region R] [--raw|--json|--csv]: an array's values as
// text people read (rows of the last dimension, 3-D and higher as labelled
// 2-D slices), as CSV or JSON for programs, or as raw bytes.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "array_layout.h"
#include "array_walk.h"
#include "cli_common.h"
#include "commands.h"
#include "element_text.h"
#include "region.h"

namespace zarrtool {
namespace {

const char kCatHelp[] =
    "usage: zarrtool cat URL [--region R] [--raw | --json | --csv]\n\n"
    "Print the array's values: one line per row, the last dimension across,\n"
    "comma-separated. Three and more dimensions print as 2-D slices, each after a\n"
    "label naming its leading indices ([0, 1, :, :]) and a blank line between them.\n"
    "Floats print in the shortest form that reads back as the same value (10.0, 0.1,\n"
    "1e+16, nan), integers as integers, datetimes in ISO 8601 at their unit's precision\n"
    "(2020-01-01 for days, 2020-01-01T00:00:00.000 for ms), timedeltas as ISO 8601\n"
    "durations (P3D, PT10S, PT0.001S), NaT as NaT, strings quoted; types without a text\n"
    "form (raw bytes |V, structured records, 8-bit floats) as 0x-prefixed hex.\n\n"
    "  --region R  a NumPy-style selection, one item per dimension, e.g. 0:10,5,::2 or ::-1\n"
    "              (integers drop their dimension; negative indices count from the end;\n"
    "              negative steps walk backwards)\n"
    "  --raw       write the selected elements' bytes to stdout instead (C order, native\n"
    "              byte order; variable-length elements back to back)\n"
    "  --json      one JSON value: nested lists of the selection's shape; NaN and the\n"
    "              infinities as \"NaN\", \"Infinity\", \"-Infinity\", complex as [re, im],\n"
    "              datetimes as ISO strings\n"
    "  --csv       rows of the last dimension as CSV lines (strings quoted, \"\" for a quote);\n"
    "              3-D and higher: the slices' rows one after another, without labels\n";

enum class Output { kText, kCsv, kJson, kRaw };

Output output_of(const Args& args) {
  const int chosen = args.has("--raw") + args.has("--json") + args.has("--csv");
  if (chosen > 1) usage_error("cat takes one of --raw, --json and --csv");
  if (args.has("--raw")) return Output::kRaw;
  if (args.has("--json")) return Output::kJson;
  return args.has("--csv") ? Output::kCsv : Output::kText;
}

// Which chunk row of dimension 0 holds an index.
using ChunkRowOf = std::function<uint64_t(uint64_t)>;

// A regular grid's rows are the index over the chunk height (the inner
// chunks' when sharded, which tile a rectilinear grid's shards too); an
// unsharded rectilinear grid's are found among axis 0's boundaries, so that a
// chunk is not read for two rows. An axis of more chunks than zarrtool walks
// is read in rows of its largest edge.
ChunkRowOf chunk_row_of(zarr_array* array) {
  const std::vector<uint64_t> chunks = array_chunk_shape(array);
  const uint64_t height = chunks.empty() ? 1 : chunks[0];
  const ChunkRowOf regular = [height](uint64_t index) { return index / height; };
  const ArrayLayout layout = read_layout(array);
  if (chunks.empty() || layout.rectilinear_grid_json.empty() || layout.sharded()) return regular;
  size_t count = 0;
  std::optional<std::vector<uint64_t>> bounds = axis_boundaries(array, 0, &count);
  if (!bounds) return regular;
  return [bounds = std::move(*bounds)](uint64_t index) {
    return static_cast<uint64_t>(std::upper_bound(bounds.begin(), bounds.end(), index) - bounds.begin() - 1);
  };
}

// Visits every selected element in output order: k holds each dimension's
// position in its selection, offset the element's place in piece. Reads one
// chunk row of dimension 0 at a time (in the selection's order, backwards for
// a negative step), so memory stays bounded by a chunk row.
using ElementVisit = std::function<void(const std::vector<uint64_t>& k, const PieceData& piece, uint64_t offset)>;

void visit_rows(zarr_array* array, const std::vector<DimSelection>& region, const Box& box, uint64_t k0,
                uint64_t k_end, const std::string& what, const ElementVisit& visit) {
  const PieceData piece = read_piece(array, box, what);
  const size_t ndim = region.size();
  std::vector<uint64_t> stride(ndim, 1);
  for (size_t d = ndim - 1; d-- > 0;) stride[d] = stride[d + 1] * box.count[d + 1];
  std::vector<uint64_t> k(ndim, 0);
  k[0] = k0;
  while (k[0] < k_end) {
    uint64_t offset = 0;
    for (size_t d = 0; d < ndim; ++d) offset += (region[d].index(k[d]) - box.start[d]) * stride[d];
    visit(k, piece, offset);
    for (size_t d = ndim; d-- > 0;) {  // C-order odometer over the selection
      if (++k[d] < region[d].count || d == 0) break;
      k[d] = 0;
    }
  }
}

void walk_selection(zarr_array* array, const std::vector<DimSelection>& region, const ChunkRowOf& row_of,
                    const std::string& what, const ElementVisit& visit) {
  const Box whole = bounding_box(region);
  if (region.empty()) {  // 0-d: one element
    visit({}, read_piece(array, whole, what), 0);
    return;
  }
  const DimSelection& rows = region[0];
  for (uint64_t k0 = 0; k0 < rows.count;) {
    const uint64_t chunk_row = row_of(rows.index(k0));
    uint64_t k_end = k0 + 1;
    while (k_end < rows.count && row_of(rows.index(k_end)) == chunk_row) ++k_end;
    Box box = whole;
    box.start[0] = std::min(rows.index(k0), rows.index(k_end - 1));
    box.count[0] = std::max(rows.index(k0), rows.index(k_end - 1)) - box.start[0] + 1;
    visit_rows(array, region, box, k0, k_end, what, visit);
    k0 = k_end;
  }
}

// Writes elements as they come, in output order, with the separators, line
// ends, slice labels or brackets their place in the selection calls for.
class SelectionPrinter {
 public:
  SelectionPrinter(std::vector<DimSelection> region, Output output) : region_(std::move(region)), output_(output) {
    for (size_t d = 0; d < region_.size(); ++d) {
      if (!region_[d].dropped) kept_.push_back(d);
    }
  }

  void print(const std::vector<uint64_t>& k, const std::string& text) {
    if (output_ == Output::kJson) {
      print_json(k, text);
    } else {
      print_row_element(k, text);
    }
    first_ = false;
  }

  void finish() const {
    if (output_ == Output::kJson) std::fputc('\n', stdout);
  }

 private:
  // How many of the innermost kept dimensions sit at position `at` (0: the
  // first, 1: the last) of their selection.
  size_t trailing_at(const std::vector<uint64_t>& k, bool at_last) const {
    size_t n = 0;
    for (size_t i = kept_.size(); i-- > 0; ++n) {
      const size_t d = kept_[i];
      if (k[d] != (at_last ? region_[d].count - 1 : 0)) break;
    }
    return n;
  }

  void print_json(const std::vector<uint64_t>& k, const std::string& text) const {
    if (!first_) std::fputc(',', stdout);
    for (size_t i = trailing_at(k, false); i > 0; --i) std::fputc('[', stdout);
    std::fputs(text.c_str(), stdout);
    for (size_t i = trailing_at(k, true); i > 0; --i) std::fputc(']', stdout);
  }

  void print_row_element(const std::vector<uint64_t>& k, const std::string& text) const {
    const size_t n = kept_.size();
    if (n >= 3 && trailing_at(k, false) >= 2 && output_ == Output::kText) {
      if (!first_) std::fputc('\n', stdout);
      std::printf("%s\n", slice_label(k).c_str());
    }
    if (n > 0 && k[kept_[n - 1]] != 0) std::fputc(',', stdout);
    std::fputs(text.c_str(), stdout);
    if (n == 0 || trailing_at(k, true) >= 1) std::fputc('\n', stdout);
  }

  // "[3, 0, :, :]": the array index of every dimension but the slice's two.
  std::string slice_label(const std::vector<uint64_t>& k) const {
    std::string label = "[";
    for (size_t d = 0; d < region_.size(); ++d) {
      if (d) label += ", ";
      const bool in_slice = d == kept_[kept_.size() - 1] || d == kept_[kept_.size() - 2];
      label += in_slice ? ":" : std::to_string(region_[d].index(k[d]));
    }
    return label + "]";
  }

  std::vector<DimSelection> region_;
  Output output_;
  std::vector<size_t> kept_;  // the dimensions left in the output
  bool first_ = true;
};

TextStyle style_of(Output output) {
  return output == Output::kJson ? TextStyle::kJson : output == Output::kCsv ? TextStyle::kCsv : TextStyle::kText;
}

}  // namespace

int run_cat(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kCatHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{"--raw", "--json", "--csv"}, {"--region"}});
  require_positionals(args, 1, "zarrtool cat URL [--region R] [--raw | --json | --csv]");
  const Output output = output_of(args);
  const std::string& url = args.positionals[0];
  ArrayHandle array = open_array(url, "r");
  const std::vector<DimSelection> region = parse_region(args.get("--region"), array_shape(array.get()));
  for (const DimSelection& dim : region) {
    if (dim.count > 0) continue;
    if (output == Output::kJson) std::printf("[]\n");  // an empty selection prints nothing else
    return kExitOk;
  }
  const ElementFormatter formatter(zarr_data_type(array.get()), zarr_item_size(array.get()), style_of(output));
  SelectionPrinter printer(region, output);
  walk_selection(array.get(), region, chunk_row_of(array.get()), "cannot read " + url,
                 [&](const std::vector<uint64_t>& k, const PieceData& piece, uint64_t i) {
                   if (output == Output::kRaw) {
                     std::fwrite(piece.element(i), 1, piece.element_size(i), stdout);
                     return;
                   }
                   printer.print(k, piece.item_size ? formatter.format(piece.element(i))
                                                    : formatter.format_variable(piece.element(i),
                                                                                piece.element_size(i)));
                 });
  if (output != Output::kRaw) printer.finish();
  return kExitOk;
}

}  // namespace zarrtool
