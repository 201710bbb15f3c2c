package zarr_test

import (
	"errors"
	"fmt"

	"libzarr/zarr"
)

// Create a chunked array, write a block, read rows back, and handle an error.
func Example() {
	// A 4 x 6 int32 array in 2 x 3 chunks (a Zarr v2 document; v3 zarr.json works
	// too) in an in-process store; a path or file:// URL puts it on disk.
	url := "memory://go-example/temperature"
	writer, err := zarr.Create(url, `{"shape": [4, 6], "chunks": [2, 3], "dtype": "<i4", "fill_value": 0}`)
	if err != nil {
		panic(err)
	}
	defer writer.Close()
	if err := zarr.WriteRegion(writer, []uint64{1, 2}, []uint64{2, 3}, []int32{1, 2, 3, 4, 5, 6}); err != nil {
		panic(err)
	}

	array, err := zarr.Open(url, zarr.ReadOnly)
	if err != nil {
		panic(err)
	}
	defer array.Close()
	shape, _ := array.Shape()
	rows, err := zarr.Read[int32](array, []uint64{1, 0}, []uint64{2, 6})
	fmt.Println(shape, array.DataType(), rows, err)

	_, err = zarr.Read[float64](array, []uint64{0, 0}, []uint64{1, 1})
	fmt.Println(errors.Is(err, zarr.ErrInvalidArgument))
	// Output:
	// [4 6] int32 [0 0 1 2 3 0 0 0 4 5 6 0] <nil>
	// true
}
