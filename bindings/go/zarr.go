// Package zarr is a thin Go binding of libzarr, the Zarr v2/v3 library with a
// C ABI: chunked, compressed N-dimensional arrays on disk or in memory.
//
// Arrays and groups are handles to close (defer a.Close()). Regions are read
// and written through slices of the element type, checked against the
// array's data type, in C order (last index fastest) as in zarr-python.
// Failures are *Error values wrapping the libzarr status Code, so
// errors.Is(err, zarr.ErrNotFound) works.
//
// cgo finds libzarr through pkg-config (zarr.pc); PKG_CONFIG_PATH may point
// at an installed copy or at a build tree's meson-uninstalled folder.
package zarr

/*
#cgo pkg-config: zarr
#include <stdlib.h>
#include <zarr/zarr.h>
*/
import "C"

import (
	"runtime"
	"strings"
	"unsafe"
)

// Code is a libzarr status code. Codes are errors themselves, and every *Error
// wraps one.
type Code int

const (
	ErrInvalidArgument Code = C.ZARR_ERR_INVALID_ARGUMENT
	ErrNotFound        Code = C.ZARR_ERR_NOT_FOUND
	ErrExists          Code = C.ZARR_ERR_EXISTS
	ErrInvalidMetadata Code = C.ZARR_ERR_INVALID_METADATA
	ErrUnsupported     Code = C.ZARR_ERR_UNSUPPORTED
	ErrCodec           Code = C.ZARR_ERR_CODEC
	ErrIO              Code = C.ZARR_ERR_IO
	ErrOutOfBounds     Code = C.ZARR_ERR_OUT_OF_BOUNDS
	ErrReadOnly        Code = C.ZARR_ERR_READ_ONLY
	ErrNoMemory        Code = C.ZARR_ERR_NO_MEMORY
	ErrBufferSize      Code = C.ZARR_ERR_BUFFER_SIZE
	ErrInternal        Code = C.ZARR_ERR_INTERNAL
	ErrRange           Code = C.ZARR_ERR_RANGE
)

// Error returns the code's constant name, e.g. "ZARR_ERR_NOT_FOUND".
func (c Code) Error() string {
	return C.GoString(C.zarr_status_name(C.int(c)))
}

// Error is a failed libzarr call: the status code and libzarr's message,
// which names the key, file or field at fault.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Code.Error() + ": " + e.Message }

// Unwrap gives the Code, for errors.Is.
func (e *Error) Unwrap() error { return e.Code }

// Version is the version of the libzarr actually loaded, e.g. "0.1.0".
func Version() string {
	return C.GoString(C.zarr_version_string())
}

// call runs one libzarr function and turns its status into an error. The
// message is thread-local in libzarr, so the goroutine stays on its thread
// from the call until the message is read.
func call(f func() C.int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	status := f()
	if status == C.ZARR_OK {
		return nil
	}
	return &Error{Code: Code(status), Message: C.GoString(C.zarr_last_error())}
}

// cStrings holds the C copies of one call's string arguments until free.
type cStrings struct {
	copies []*C.char
	err    error
}

// add copies s for C; what names the argument if s holds a NUL byte, which C
// would read as its end.
func (cs *cStrings) add(what, s string) *C.char {
	if cs.err == nil && strings.IndexByte(s, 0) >= 0 {
		cs.err = &Error{Code: ErrInvalidArgument, Message: what + " contains a NUL byte: " + s}
	}
	p := C.CString(s)
	cs.copies = append(cs.copies, p)
	return p
}

func (cs *cStrings) free() {
	for _, p := range cs.copies {
		C.free(unsafe.Pointer(p))
	}
}

// takeJSON runs a call that returns a string libzarr allocated, and frees it.
func takeJSON(f func(out **C.char) C.int) (string, error) {
	var json *C.char
	if err := call(func() C.int { return f(&json) }); err != nil {
		return "", err
	}
	defer C.zarr_free(unsafe.Pointer(json))
	return C.GoString(json), nil
}

// uint64s passes a slice of coordinates to C (NULL when empty, for 0-d arrays).
func uint64s(values []uint64) *C.uint64_t {
	if len(values) == 0 {
		return nil
	}
	return (*C.uint64_t)(unsafe.Pointer(&values[0]))
}
