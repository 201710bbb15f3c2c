package zarr

/*
#include <stdlib.h>
#include <zarr/zarr.h>
*/
import "C"

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Mode says how a handle may use a node.
type Mode string

const (
	ReadOnly  Mode = "r"  // writes fail with ErrReadOnly
	ReadWrite Mode = "r+" // reads and writes
)

// Array is an open Zarr array. It may be used by several goroutines at once
// (libzarr serialises writes to the same chunk); Close it when done.
type Array struct {
	handle *C.zarr_array
}

// Open opens the array at url: a path, a file:// URL, or memory://NAME/path
// for an in-process store (which lives while any handle on it is open).
func Open(url string, mode Mode) (*Array, error) {
	var args cStrings
	defer args.free()
	curl, cmode := args.add("url", url), args.add("mode", string(mode))
	if args.err != nil {
		return nil, args.err
	}
	return newArray(func(out **C.zarr_array) C.int { return C.zarr_open(out, curl, cmode) })
}

// OpenWithOptions is Open with zarr_open_ex options, a JSON object such as
// {"write_empty_chunks": true} or {"zarr_format": 2}.
func OpenWithOptions(url string, mode Mode, optionsJSON string) (*Array, error) {
	var args cStrings
	defer args.free()
	curl, cmode, coptions := args.add("url", url), args.add("mode", string(mode)), args.add("options", optionsJSON)
	if args.err != nil {
		return nil, args.err
	}
	return newArray(func(out **C.zarr_array) C.int { return C.zarr_open_ex(out, curl, cmode, coptions) })
}

// Create creates an array from a Zarr v2 .zarray or v3 zarr.json document
// (docs/c-api.md lists the defaults) and opens it read-write.
func Create(url string, metadataJSON string) (*Array, error) {
	var args cStrings
	defer args.free()
	curl, cmetadata := args.add("url", url), args.add("metadata", metadataJSON)
	if args.err != nil {
		return nil, args.err
	}
	return newArray(func(out **C.zarr_array) C.int { return C.zarr_create(out, curl, cmetadata) })
}

func newArray(open func(out **C.zarr_array) C.int) (*Array, error) {
	var handle *C.zarr_array
	if err := call(func() C.int { return open(&handle) }); err != nil {
		return nil, err
	}
	return &Array{handle: handle}, nil
}

// Close releases the handle; later calls on the Array fail with
// ErrInvalidArgument. Closing twice is fine.
func (a *Array) Close() error {
	C.zarr_close(a.handle)
	a.handle = nil
	return nil
}

// NDim is the number of dimensions.
func (a *Array) NDim() int { return int(C.zarr_ndim(a.handle)) }

// Shape is the extent of each dimension.
func (a *Array) Shape() ([]uint64, error) {
	shape := make([]uint64, a.NDim())
	return shape, call(func() C.int { return C.zarr_shape(a.handle, uint64s(shape)) })
}

// ChunkShape is the chunk extent of each dimension.
func (a *Array) ChunkShape() ([]uint64, error) {
	chunks := make([]uint64, a.NDim())
	return chunks, call(func() C.int { return C.zarr_chunk_shape(a.handle, uint64s(chunks)) })
}

// DataType is the v3 name for simple types ("int16", "float64", "bool",
// "complex64", "string") or the v2 dtype JSON otherwise.
func (a *Array) DataType() string { return C.GoString(C.zarr_data_type(a.handle)) }

// ItemSize is the bytes per element in region buffers; 0 for
// variable-length elements (strings, bytes).
func (a *Array) ItemSize() int { return int(C.zarr_item_size(a.handle)) }

// ZarrFormat is the format of the stored metadata: 1, 2 or 3.
func (a *Array) ZarrFormat() int { return int(C.zarr_format(a.handle)) }

// Element is a Go type region slices may hold. Each has one Zarr data type:
// int8 ... uint64, float32, float64, complex64, complex128 and bool (one
// byte) by the same names.
type Element interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128 | ~bool
}

// dataTypeOf is the Zarr data type name of T; Go's kind names are Zarr's.
func dataTypeOf[T Element]() string {
	var zero T
	return reflect.TypeOf(zero).Kind().String()
}

// ReadRegion reads the region start .. start+count, in C order, into out,
// which must hold exactly product(count) elements of the array's type.
func ReadRegion[T Element](a *Array, start, count []uint64, out []T) error {
	if err := a.checkRegion(dataTypeOf[T](), start, count); err != nil {
		return err
	}
	err := call(func() C.int {
		return C.zarr_read_region(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			slicePointer(out), C.size_t(sliceBytes(out)))
	})
	normaliseIfBools(out, err)
	return err
}

// Read reads a region into a new slice, in C order.
func Read[T Element](a *Array, start, count []uint64) ([]T, error) {
	n := uint64(1)
	for _, c := range count {
		n *= c
	}
	out := make([]T, n)
	return out, ReadRegion(a, start, count, out)
}

// WriteRegion writes data (C order, product(count) elements of the array's
// type) to the region start .. start+count.
func WriteRegion[T Element](a *Array, start, count []uint64, data []T) error {
	if err := a.checkRegion(dataTypeOf[T](), start, count); err != nil {
		return err
	}
	return call(func() C.int {
		return C.zarr_write_region(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			slicePointer(data), C.size_t(sliceBytes(data)))
	})
}

// ReadRegionAs reads the region start .. start+count, in C order, into out,
// converting every element from the array's numeric type to T's (an int32
// array read into float64, a float64 array into int16): zarr_read_region_as.
// A value T cannot represent (NaN or 300.5 into uint8) is ErrRange naming
// the element; out then holds the elements before it converted.
func ReadRegionAs[T Element](a *Array, start, count []uint64, out []T) error {
	if err := checkLengths(start, count); err != nil {
		return err
	}
	ctype := C.CString(dataTypeOf[T]())
	defer C.free(unsafe.Pointer(ctype))
	return call(func() C.int {
		return C.zarr_read_region_as(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count), ctype,
			slicePointer(out), C.size_t(sliceBytes(out)))
	})
}

// WriteRegionAs writes data (C order, product(count) elements of T) to the
// region start .. start+count, converting each element to the array's
// numeric type: zarr_write_region_as. A value the array's type cannot
// represent is ErrRange naming the element, and nothing is written.
func WriteRegionAs[T Element](a *Array, start, count []uint64, data []T) error {
	if err := checkLengths(start, count); err != nil {
		return err
	}
	ctype := C.CString(dataTypeOf[T]())
	defer C.free(unsafe.Pointer(ctype))
	return call(func() C.int {
		return C.zarr_write_region_as(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count), ctype,
			slicePointer(data), C.size_t(sliceBytes(data)))
	})
}

// ReadStrings reads a region of variable-length elements (strings, or bytes
// held in strings), in C order.
func (a *Array) ReadStrings(start, count []uint64) ([]string, error) {
	if err := checkLengths(start, count); err != nil {
		return nil, err
	}
	elements := uint64(1)
	for _, c := range count {
		elements *= c
	}
	return readVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, capacity C.size_t,
		needed *C.size_t) C.int {
		return C.zarr_read_region_vlen(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count), offsets, n,
			data, capacity, needed)
	})
}

// WriteStrings writes variable-length elements to a region, in C order.
func (a *Array) WriteStrings(start, count []uint64, elements []string) error {
	if err := checkLengths(start, count); err != nil {
		return err
	}
	return writeVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, size C.size_t) C.int {
		return C.zarr_write_region_vlen(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			offsets, n, data, size)
	})
}

// writeVlen runs a _vlen write of elements: their bytes one after another and
// the offsets of their boundaries, as the C API takes them.
func writeVlen(elements []string, write func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer,
	size C.size_t) C.int) error {
	offsets := make([]uint64, 1, len(elements)+1)
	var data []byte
	for _, e := range elements {
		data = append(data, e...)
		offsets = append(offsets, uint64(len(data)))
	}
	return call(func() C.int {
		return write((*C.uint64_t)(unsafe.Pointer(&offsets[0])), C.size_t(len(offsets)), slicePointer(data),
			C.size_t(len(data)))
	})
}

// Resize changes the shape; chunks wholly outside the new shape are erased.
func (a *Array) Resize(shape []uint64) error {
	return call(func() C.int { return C.zarr_resize(a.handle, C.size_t(len(shape)), uint64s(shape)) })
}

// Metadata is the stored metadata document (.zarray or zarr.json) as JSON.
func (a *Array) Metadata() (string, error) {
	return takeJSON(func(out **C.char) C.int { return C.zarr_get_metadata(a.handle, out) })
}

// Attributes are the array's attributes as a JSON object ("{}" when none).
func (a *Array) Attributes() (string, error) {
	return takeJSON(func(out **C.char) C.int { return C.zarr_get_attributes(a.handle, out) })
}

// SetAttributes replaces the attributes with a JSON object.
func (a *Array) SetAttributes(json string) error {
	var args cStrings
	defer args.free()
	cjson := args.add("attributes", json)
	if args.err != nil {
		return args.err
	}
	return call(func() C.int { return C.zarr_set_attributes(a.handle, cjson) })
}

// GetAttribute is one attribute's JSON value, as Attributes shows them;
// ErrNotFound naming the key when there is none.
func (a *Array) GetAttribute(key string) (string, error) {
	var args cStrings
	defer args.free()
	ckey := args.add("key", key)
	if args.err != nil {
		return "", args.err
	}
	return takeJSON(func(out **C.char) C.int { return C.zarr_get_attribute(a.handle, ckey, out) })
}

// UpdateAttributes merges a JSON object into the stored attributes: each
// member replaces the attribute of its name, a null member removes it, the
// others stay. Read, merged and written under the array's lock, so writers
// of different keys lose nothing.
func (a *Array) UpdateAttributes(jsonObject string) error {
	var args cStrings
	defer args.free()
	cjson := args.add("json_object", jsonObject)
	if args.err != nil {
		return args.err
	}
	return call(func() C.int { return C.zarr_update_attributes(a.handle, cjson) })
}

func (a *Array) checkRegion(elementType string, start, count []uint64) error {
	if err := checkLengths(start, count); err != nil {
		return err
	}
	return a.checkType(elementType)
}

// checkLengths: libzarr reads len(start) entries of both start and count.
func checkLengths(start, count []uint64) error {
	if len(start) != len(count) {
		return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
			"start has %d coordinates but count has %d", len(start), len(count))}
	}
	return nil
}

func slicePointer[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

func sliceBytes[T any](s []T) int {
	var zero T
	return len(s) * int(unsafe.Sizeof(zero))
}

// normaliseBools makes every stored non-zero byte a Go true (exactly 1).
func normaliseBools(bytes []byte) {
	for i, b := range bytes {
		if b != 0 {
			bytes[i] = 1
		}
	}
}
