package zarr

/*
#include <stdlib.h>
#include <string.h>
#include <zarr/zarr.h>

static zarr_array_desc zarr_go_desc_init(void) {
	zarr_array_desc d = ZARR_ARRAY_DESC_INIT;
	return d;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// ArrayDesc describes a new array field by field, for CreateFromDesc: the
// C API's zarr_array_desc (docs/c-api.md, "Creating arrays from a
// description", lists every default). The zero value of a field takes the
// default.
type ArrayDesc struct {
	ZarrFormat int      // 2 or 3; 0: 3 (in Group.CreateArrayFromDesc, the group's format)
	DataType   string   // a v3 name ("float32", "string") or a NumPy typestr ("<f4")
	Shape      []uint64 // empty: a 0-d array
	ChunkShape []uint64 // nil: chosen as zarr_open_spec chooses (inner chunks when sharded)
	ShardShape []uint64 // v3 only; nil: no sharding
	// A codec's JSON (v2 or v3 form); "": the default (zstd level 0 in v3,
	// Blosc lz4 in v2); "null": no compressor.
	Compressor     string
	FillValue      string   // a JSON value; "": the format's default
	DimensionNames []string // nil: none (v2: written as xarray's _ARRAY_DIMENSIONS)
	Order          byte     // 'C' or 'F'; 0: 'C'
	// A rectilinear chunk grid (v3 only): one entry per axis of Shape, the
	// edge lengths of its chunks (of its shards when sharded), or nil for a
	// regular step of ChunkShape (ShardShape). nil: a regular grid.
	ChunkEdges [][]uint64
}

// cDesc holds the C copy of an ArrayDesc (cgo forbids Go pointers inside
// memory passed to C) until free.
type cDesc struct {
	desc   C.zarr_array_desc
	args   cStrings
	blocks []unsafe.Pointer
}

func (d *cDesc) extents(values []uint64) *C.uint64_t {
	if values == nil {
		return nil
	}
	p := C.malloc(C.size_t(len(values)+1) * 8)
	d.blocks = append(d.blocks, p)
	if len(values) > 0 {
		C.memcpy(p, unsafe.Pointer(&values[0]), C.size_t(len(values))*8)
	}
	return (*C.uint64_t)(p)
}

func (d *cDesc) optional(what, s string) *C.char {
	if s == "" {
		return nil
	}
	return d.args.add(what, s)
}

func (d *cDesc) names(names []string) **C.char {
	if names == nil {
		return nil
	}
	p := C.malloc(C.size_t(len(names)+1) * C.size_t(unsafe.Sizeof(uintptr(0))))
	d.blocks = append(d.blocks, p)
	list := unsafe.Slice((**C.char)(p), len(names)+1)
	for i, name := range names {
		list[i] = d.args.add("DimensionNames", name)
	}
	return (**C.char)(p)
}

// edges sets chunk_edges and chunk_edge_counts, one entry per axis (the C
// library reads ndim of each).
func (d *cDesc) edges(edges [][]uint64, ndim int) {
	if edges == nil {
		return
	}
	if len(edges) != ndim {
		if d.args.err == nil {
			d.args.err = &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
				"ChunkEdges has %d axes but Shape has %d", len(edges), ndim)}
		}
		return
	}
	pointers := C.malloc(C.size_t(ndim+1) * C.size_t(unsafe.Sizeof(uintptr(0))))
	counts := C.malloc(C.size_t(ndim+1) * C.size_t(unsafe.Sizeof(C.size_t(0))))
	d.blocks = append(d.blocks, pointers, counts)
	pointerList := unsafe.Slice((**C.uint64_t)(pointers), ndim+1)
	countList := unsafe.Slice((*C.size_t)(counts), ndim+1)
	for i, axis := range edges {
		pointerList[i] = d.extents(axis)
		countList[i] = C.size_t(len(axis))
	}
	d.desc.chunk_edges = (**C.uint64_t)(pointers)
	d.desc.chunk_edge_counts = (*C.size_t)(counts)
}

func newCDesc(desc ArrayDesc) *cDesc {
	d := &cDesc{desc: C.zarr_go_desc_init()}
	d.desc.zarr_format = C.int(desc.ZarrFormat)
	d.desc.data_type = d.args.add("DataType", desc.DataType)
	d.desc.ndim = C.size_t(len(desc.Shape))
	d.desc.shape = d.extents(desc.Shape)
	d.desc.chunk_shape = d.extents(desc.ChunkShape)
	d.desc.shard_shape = d.extents(desc.ShardShape)
	switch desc.Compressor {
	case "":
	case "null":
		d.desc.compressor = d.args.add("Compressor", "")
	default:
		d.desc.compressor = d.args.add("Compressor", desc.Compressor)
	}
	d.desc.fill_value = d.optional("FillValue", desc.FillValue)
	d.desc.dimension_names = d.names(desc.DimensionNames)
	d.desc.order = C.char(desc.Order)
	d.edges(desc.ChunkEdges, len(desc.Shape))
	return d
}

func (d *cDesc) free() {
	d.args.free()
	for _, p := range d.blocks {
		C.free(p)
	}
}

// CreateFromDesc creates an array from a description (zarr_create_from_desc)
// and opens it read-write; optionsJSON as for OpenWithOptions ("" for none).
func CreateFromDesc(url string, desc ArrayDesc, optionsJSON string) (*Array, error) {
	d := newCDesc(desc)
	defer d.free()
	curl, coptions := d.args.add("url", url), d.optional("options", optionsJSON)
	if d.args.err != nil {
		return nil, d.args.err
	}
	return newArray(func(out **C.zarr_array) C.int { return C.zarr_create_from_desc(out, curl, &d.desc, coptions) })
}

// CreateArrayFromDesc creates an array from a description at a path relative
// to the group (zarr_group_create_array_from_desc).
func (g *Group) CreateArrayFromDesc(path string, desc ArrayDesc) (*Array, error) {
	d := newCDesc(desc)
	defer d.free()
	cpath := d.args.add("path", path)
	if d.args.err != nil {
		return nil, d.args.err
	}
	return newArray(func(out **C.zarr_array) C.int {
		return C.zarr_group_create_array_from_desc(out, g.handle, cpath, &d.desc)
	})
}
