// zarrtool cat URL [--region R] [--raw]: an array's values as text, one row
// per line (the last dimension across, comma-separated), or as raw bytes.
#include <cstdio>
#include <string>
#include <vector>

#include "array_walk.h"
#include "cli_common.h"
#include "commands.h"
#include "region.h"

namespace zarrtool {
namespace {

const char kCatHelp[] =
    "usage: zarrtool cat URL [--region R] [--raw]\n\n"
    "Print the array's values: one line per row, the last dimension across,\n"
    "comma-separated. Strings print as JSON strings; types without a text form\n"
    "(fixed bytes, structured) as hex.\n\n"
    "  --region R  a NumPy-style selection, one item per dimension, e.g. 0:10,5,::2\n"
    "              (integers drop their dimension; negative indices count from the end)\n"
    "  --raw       write the selected elements' bytes to stdout instead (C order, native\n"
    "              byte order; variable-length elements back to back)\n";

// Where the printing stands, over the whole selection rather than one piece,
// so that rows split across reads still print as one line.
class SelectionPrinter {
 public:
  SelectionPrinter(zarr_array* array, std::vector<DimSelection> region, bool raw)
      : region_(std::move(region)), raw_(raw), formatter_(zarr_data_type(array), zarr_item_size(array)) {
    for (size_t d = 0; d < region_.size(); ++d) {
      if (!region_[d].dropped) line_dim_ = static_cast<int>(d);
    }
  }

  void print_piece(const Box& box, const PieceData& piece) {
    const size_t ndim = box.count.size();
    std::vector<uint64_t> index(ndim, 0);  // within the piece
    for (uint64_t flat = 0, total = product(box.count); flat < total; ++flat) {
      if (is_selected(box, index)) print_element(box, index, piece, flat);
      for (size_t d = ndim; d-- > 0;) {  // C-order odometer
        if (++index[d] < box.count[d]) break;
        index[d] = 0;
      }
    }
  }

 private:
  bool is_selected(const Box& box, const std::vector<uint64_t>& index) const {
    for (size_t d = 0; d < index.size(); ++d) {
      if ((box.start[d] + index[d] - region_[d].start) % region_[d].step != 0) return false;
    }
    return true;
  }

  void print_element(const Box& box, const std::vector<uint64_t>& index, const PieceData& piece, uint64_t flat) {
    if (raw_) {
      std::fwrite(piece.element(flat), 1, piece.element_size(flat), stdout);
      return;
    }
    // Separator and line end follow from the element's place in the whole
    // selection along the line dimension.
    bool first_in_line = true, last_in_line = true;
    if (line_dim_ >= 0) {
      const DimSelection& dim = region_[line_dim_];
      uint64_t global = box.start[line_dim_] + index[line_dim_];
      first_in_line = global == dim.start;
      last_in_line = global == dim.start + (dim.selected_count() - 1) * dim.step;
    }
    if (!first_in_line) std::fputc(',', stdout);
    std::fputs(element_text(piece, flat).c_str(), stdout);
    if (last_in_line) std::fputc('\n', stdout);
  }

  std::string element_text(const PieceData& piece, uint64_t i) const {
    if (piece.item_size) return formatter_.format(piece.element(i));
    std::string bytes(reinterpret_cast<const char*>(piece.element(i)), piece.element_size(i));
    return json_string(bytes);  // strings and raw bytes alike, escaped
  }

  std::vector<DimSelection> region_;
  bool raw_;
  ElementFormatter formatter_;
  int line_dim_ = -1;  // the last dimension kept in the output; -1 for a scalar
};

}  // namespace

int run_cat(int argc, char** argv) {
  if (print_help_if_asked(argc, argv, kCatHelp)) return kExitOk;
  Args args = parse_args(argc, argv, OptionSpec{{"--raw"}, {"--region"}});
  require_positionals(args, 1, "zarrtool cat URL [--region R] [--raw]");
  const std::string& url = args.positionals[0];
  ArrayHandle array = open_array(url, "r");
  std::vector<DimSelection> region = parse_region(args.get("--region"), array_shape(array.get()));
  Box box = bounding_box(region);
  if (product(box.count) == 0 && !box.count.empty()) return kExitOk;  // an empty selection prints nothing
  SelectionPrinter printer(array.get(), region, args.has("--raw"));
  std::vector<uint64_t> chunks = array_chunk_shape(array.get());
  for_each_chunk_row(box, chunks.empty() ? 1 : chunks[0], [&](const Box& piece_box) {
    printer.print_piece(piece_box, read_piece(array.get(), piece_box, "cannot read " + url));
  });
  return kExitOk;
}

}  // namespace zarrtool
