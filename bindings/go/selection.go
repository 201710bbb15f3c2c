package zarr

/*
#include <stdlib.h>
#include <zarr/zarr.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Selections (docs/c-api.md, "Selections"): each chunk a selection touches
// is fetched and decoded at most once per call.

// ReadOrthogonal reads an orthogonal (outer) selection, as zarr-python's
// oindex: along axis d, the indices indices[d] (any order, repeats allowed).
// out holds the product of the lists' lengths elements, in C order.
func ReadOrthogonal[T Element](a *Array, indices [][]uint64, out []T) error {
	if err := a.checkType(dataTypeOf[T]()); err != nil {
		return err
	}
	lists := newIndexLists(indices)
	defer lists.free()
	err := call(func() C.int {
		return C.zarr_read_orthogonal(a.handle, C.size_t(len(indices)), lists.pointers, lists.counts(),
			slicePointer(out), C.size_t(sliceBytes(out)))
	})
	normaliseIfBools(out, err)
	return err
}

// WriteOrthogonal writes an orthogonal selection from data (C order of the
// selection); where an element is picked twice, the later value wins.
func WriteOrthogonal[T Element](a *Array, indices [][]uint64, data []T) error {
	if err := a.checkType(dataTypeOf[T]()); err != nil {
		return err
	}
	lists := newIndexLists(indices)
	defer lists.free()
	return call(func() C.int {
		return C.zarr_write_orthogonal(a.handle, C.size_t(len(indices)), lists.pointers, lists.counts(),
			slicePointer(data), C.size_t(sliceBytes(data)))
	})
}

// ReadPoints reads len(out) points, as zarr-python's vindex: coords holds
// NDim() indices per point, point after point.
func ReadPoints[T Element](a *Array, coords []uint64, out []T) error {
	if err := a.checkPoints(dataTypeOf[T](), coords, len(out)); err != nil {
		return err
	}
	err := call(func() C.int {
		return C.zarr_read_points(a.handle, C.size_t(a.NDim()), C.uint64_t(len(out)), uint64s(coords),
			slicePointer(out), C.size_t(sliceBytes(out)))
	})
	normaliseIfBools(out, err)
	return err
}

// WritePoints writes len(data) points (coords as ReadPoints); where a point
// is given twice, the later value wins.
func WritePoints[T Element](a *Array, coords []uint64, data []T) error {
	if err := a.checkPoints(dataTypeOf[T](), coords, len(data)); err != nil {
		return err
	}
	return call(func() C.int {
		return C.zarr_write_points(a.handle, C.size_t(a.NDim()), C.uint64_t(len(data)), uint64s(coords),
			slicePointer(data), C.size_t(sliceBytes(data)))
	})
}

// ReadRegionStep reads a strided hyperslab, as netCDF's nc_get_vars: count[d]
// elements along axis d from start[d], every step[d]-th; out holds
// product(count) elements in C order.
func ReadRegionStep[T Element](a *Array, start, count, step []uint64, out []T) error {
	if err := a.checkStep(dataTypeOf[T](), start, count, step); err != nil {
		return err
	}
	err := call(func() C.int {
		return C.zarr_read_region_step(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			uint64s(step), slicePointer(out), C.size_t(sliceBytes(out)))
	})
	normaliseIfBools(out, err)
	return err
}

// WriteRegionStep writes a strided hyperslab from data (C order).
func WriteRegionStep[T Element](a *Array, start, count, step []uint64, data []T) error {
	if err := a.checkStep(dataTypeOf[T](), start, count, step); err != nil {
		return err
	}
	return call(func() C.int {
		return C.zarr_write_region_step(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			uint64s(step), slicePointer(data), C.size_t(sliceBytes(data)))
	})
}

// ReadOrthogonalStrings is ReadOrthogonal for variable-length elements.
func (a *Array) ReadOrthogonalStrings(indices [][]uint64) ([]string, error) {
	lists := newIndexLists(indices)
	defer lists.free()
	elements := uint64(1)
	for _, list := range indices {
		elements *= uint64(len(list))
	}
	return readVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, capacity C.size_t,
		needed *C.size_t) C.int {
		return C.zarr_read_orthogonal_vlen(a.handle, C.size_t(len(indices)), lists.pointers, lists.counts(),
			offsets, n, data, capacity, needed)
	})
}

// ReadPointsStrings reads the strings at points: coords holds NDim()
// indices per point (a 0-d array has one point).
func (a *Array) ReadPointsStrings(coords []uint64) ([]string, error) {
	ndim := a.NDim()
	npoints := 1
	if ndim > 0 {
		if len(coords)%ndim != 0 {
			return nil, &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
				"%d coordinates are no whole number of points of %d", len(coords), ndim)}
		}
		npoints = len(coords) / ndim
	}
	return readVlen(uint64(npoints), func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, capacity C.size_t,
		needed *C.size_t) C.int {
		return C.zarr_read_points_vlen(a.handle, C.size_t(ndim), C.uint64_t(npoints), uint64s(coords),
			offsets, n, data, capacity, needed)
	})
}

// ReadRegionStepStrings is ReadRegionStep for variable-length elements.
func (a *Array) ReadRegionStepStrings(start, count, step []uint64) ([]string, error) {
	if err := a.checkStep("", start, count, step); err != nil {
		return nil, err
	}
	elements := uint64(1)
	for _, c := range count {
		elements *= c
	}
	return readVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, capacity C.size_t,
		needed *C.size_t) C.int {
		return C.zarr_read_region_step_vlen(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			uint64s(step), offsets, n, data, capacity, needed)
	})
}

// WriteOrthogonalStrings is WriteOrthogonal for variable-length elements
// (elements in C order of the selection; where an element is picked twice,
// the later value wins).
func (a *Array) WriteOrthogonalStrings(indices [][]uint64, elements []string) error {
	lists := newIndexLists(indices)
	defer lists.free()
	return writeVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, size C.size_t) C.int {
		return C.zarr_write_orthogonal_vlen(a.handle, C.size_t(len(indices)), lists.pointers, lists.counts(),
			offsets, n, data, size)
	})
}

// WritePointsStrings writes one variable-length element per point (coords
// as ReadPointsStrings); where a point is given twice, the later value wins.
func (a *Array) WritePointsStrings(coords []uint64, elements []string) error {
	ndim := a.NDim()
	if ndim > 0 && len(coords) != ndim*len(elements) {
		return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
			"%d coordinates are not %d points of %d", len(coords), len(elements), ndim)}
	}
	return writeVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, size C.size_t) C.int {
		return C.zarr_write_points_vlen(a.handle, C.size_t(ndim), C.uint64_t(len(elements)), uint64s(coords),
			offsets, n, data, size)
	})
}

// WriteRegionStepStrings is WriteRegionStep for variable-length elements.
func (a *Array) WriteRegionStepStrings(start, count, step []uint64, elements []string) error {
	if err := a.checkStep("", start, count, step); err != nil {
		return err
	}
	return writeVlen(elements, func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, size C.size_t) C.int {
		return C.zarr_write_region_step_vlen(a.handle, C.size_t(len(start)), uint64s(start), uint64s(count),
			uint64s(step), offsets, n, data, size)
	})
}

// indexLists are per-axis index lists copied into C memory: cgo passes no Go
// memory that itself holds Go pointers, as an array of lists would.
type indexLists struct {
	pointers **C.uint64_t
	values   *C.uint64_t
	lengths  []uint64
}

func newIndexLists(indices [][]uint64) *indexLists {
	total := 0
	for _, list := range indices {
		total += len(list)
	}
	lists := &indexLists{lengths: make([]uint64, len(indices))}
	if len(indices) == 0 {
		return lists
	}
	lists.pointers = (**C.uint64_t)(C.malloc(C.size_t(len(indices)) * C.size_t(unsafe.Sizeof(uintptr(0)))))
	pointers := unsafe.Slice(lists.pointers, len(indices))
	if total > 0 {
		lists.values = (*C.uint64_t)(C.malloc(C.size_t(total) * 8))
	}
	values := unsafe.Slice(lists.values, total)
	at := 0
	for d, list := range indices {
		lists.lengths[d] = uint64(len(list))
		pointers[d] = nil
		if len(list) > 0 {
			pointers[d] = &values[at]
		}
		for _, index := range list {
			values[at] = C.uint64_t(index)
			at++
		}
	}
	return lists
}

func (l *indexLists) counts() *C.uint64_t { return uint64s(l.lengths) }

func (l *indexLists) free() {
	C.free(unsafe.Pointer(l.pointers))
	C.free(unsafe.Pointer(l.values))
}

// readVlen runs a _vlen read of `elements` elements: a first call learns the
// size of the data; another writer may grow the elements before the second,
// so it asks again until they fit.
func readVlen(elements uint64, read func(offsets *C.uint64_t, n C.size_t, data unsafe.Pointer, capacity C.size_t,
	needed *C.size_t) C.int) ([]string, error) {
	offsets := make([]uint64, elements+1)
	var data []byte
	for {
		var needed C.size_t
		err := call(func() C.int {
			return read((*C.uint64_t)(unsafe.Pointer(&offsets[0])), C.size_t(len(offsets)), slicePointer(data),
				C.size_t(len(data)), &needed)
		})
		if zerr, ok := err.(*Error); ok && zerr.Code == ErrBufferSize && int(needed) > len(data) {
			data = make([]byte, needed)
			continue
		}
		if err != nil {
			return nil, err
		}
		out := make([]string, elements)
		for i := range out {
			out[i] = string(data[offsets[i]:offsets[i+1]])
		}
		return out, nil
	}
}

// checkType: the slice's element type is the array's ("" for strings: not checked).
func (a *Array) checkType(elementType string) error {
	if a.handle != nil && elementType != "" && a.DataType() != elementType {
		return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
			"the array holds %s but the slice's elements are %s", a.DataType(), elementType)}
	}
	return nil
}

// checkPoints: libzarr reads NDim() coordinates per point.
func (a *Array) checkPoints(elementType string, coords []uint64, npoints int) error {
	if err := a.checkType(elementType); err != nil {
		return err
	}
	if len(coords) != npoints*a.NDim() {
		return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
			"coords holds %d indices but %d points of %d dimensions need %d", len(coords), npoints, a.NDim(),
			npoints*a.NDim())}
	}
	return nil
}

// checkStep: libzarr reads len(start) entries of start, count and step.
func (a *Array) checkStep(elementType string, start, count, step []uint64) error {
	if err := checkLengths(start, count); err != nil {
		return err
	}
	if len(step) != len(start) {
		return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
			"start has %d coordinates but step has %d", len(start), len(step))}
	}
	return a.checkType(elementType)
}

func normaliseIfBools[T Element](out []T, err error) {
	if err == nil && dataTypeOf[T]() == "bool" {
		normaliseBools(unsafe.Slice((*byte)(slicePointer(out)), len(out)))
	}
}
