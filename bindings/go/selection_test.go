package zarr_test

import (
	"reflect"
	"strings"
	"testing"

	"libzarr/zarr"
)

// numbered is an int32 [6, 5] array in chunks of [4, 2] holding 0, 1, 2, ...
func numbered(t *testing.T) *zarr.Array {
	array := create(t, memoryURL("numbered"), v3Metadata("int32", []uint64{6, 5}, []uint64{4, 2}))
	all := make([]int32, 30)
	for i := range all {
		all[i] = int32(i)
	}
	if err := zarr.WriteRegion(array, []uint64{0, 0}, []uint64{6, 5}, all); err != nil {
		t.Fatal(err)
	}
	return array
}

func TestSelectionsReadWhatNumPysIndexingWouldGive(t *testing.T) {
	array := numbered(t)
	outer := make([]int32, 6)
	if err := zarr.ReadOrthogonal(array, [][]uint64{{5, 0}, {4, 1, 1}}, outer); err != nil {
		t.Fatal(err)
	}
	if want := []int32{29, 26, 26, 4, 1, 1}; !reflect.DeepEqual(outer, want) {
		t.Fatalf("orthogonal %v, want %v", outer, want)
	}
	points := make([]int32, 3)
	if err := zarr.ReadPoints(array, []uint64{5, 4, 0, 0, 2, 3}, points); err != nil {
		t.Fatal(err)
	}
	if want := []int32{29, 0, 13}; !reflect.DeepEqual(points, want) {
		t.Fatalf("points %v, want %v", points, want)
	}
	slab := make([]int32, 4)
	if err := zarr.ReadRegionStep(array, []uint64{1, 0}, []uint64{2, 2}, []uint64{3, 4}, slab); err != nil {
		t.Fatal(err)
	}
	if want := []int32{5, 9, 20, 24}; !reflect.DeepEqual(slab, want) {
		t.Fatalf("step %v, want %v", slab, want)
	}
}

func TestSelectionWritesLandWhereReadsFindThem(t *testing.T) {
	array := numbered(t)
	if err := zarr.WriteOrthogonal(array, [][]uint64{{5, 0}, {4, 1}}, []int32{-1, -2, -3, -4}); err != nil {
		t.Fatal(err)
	}
	if err := zarr.WritePoints(array, []uint64{3, 3, 3, 3}, []int32{-5, -6}); err != nil {
		t.Fatal(err)
	}
	if err := zarr.WriteRegionStep(array, []uint64{1, 0}, []uint64{1, 2}, []uint64{1, 2}, []int32{-7, -8}); err != nil {
		t.Fatal(err)
	}
	got, err := zarr.Read[int32](array, []uint64{0, 0}, []uint64{6, 5})
	if err != nil {
		t.Fatal(err)
	}
	for index, want := range map[int]int32{29: -1, 26: -2, 4: -3, 1: -4, 18: -6, 5: -7, 7: -8, 6: 6} {
		if got[index] != want {
			t.Errorf("element %d is %d, want %d", index, got[index], want)
		}
	}
}

func TestSelectionErrorsCarryTheirCodes(t *testing.T) {
	array := numbered(t)
	wantCode(t, zarr.ReadOrthogonal(array, [][]uint64{{6}, {0}}, make([]int32, 1)), zarr.ErrOutOfBounds)
	wantCode(t, zarr.ReadOrthogonal(array, [][]uint64{{0}, {0}}, make([]int32, 2)), zarr.ErrBufferSize)
	wantCode(t, zarr.ReadOrthogonal(array, [][]uint64{{0}}, make([]int32, 1)), zarr.ErrInvalidArgument)
	wantCode(t, zarr.ReadOrthogonal(array, [][]uint64{{0}, {0}}, make([]float64, 1)), zarr.ErrInvalidArgument)
	err := zarr.ReadPoints(array, []uint64{0, 9}, make([]int32, 1))
	wantCode(t, err, zarr.ErrOutOfBounds)
	if !strings.Contains(err.Error(), "point 0 on axis 1 is index 9") {
		t.Fatal(err)
	}
	wantCode(t, zarr.WritePoints(array, []uint64{0, 0, 1}, make([]int32, 2)), zarr.ErrInvalidArgument)
	wantCode(t, zarr.ReadRegionStep(array, []uint64{0, 0}, []uint64{1, 1}, []uint64{0, 1}, make([]int32, 1)),
		zarr.ErrInvalidArgument)
	wantCode(t, zarr.WriteRegionStep(array, []uint64{0, 0}, []uint64{1, 1}, []uint64{1}, make([]int32, 1)),
		zarr.ErrInvalidArgument)
	_, err = array.ReadPointsStrings([]uint64{0, 0})
	wantCode(t, err, zarr.ErrInvalidArgument)
}

func TestStringSelectionsReadAsRegionReadsDo(t *testing.T) {
	array := create(t, memoryURL("string-selections"), v3Metadata("string", []uint64{3, 4}, []uint64{2, 3}))
	all := []string{"a", "bb", "", "dddd", "e", "ff", "γδ", "h", "i", "jj", "k", "llllll"}
	if err := array.WriteStrings([]uint64{0, 0}, []uint64{3, 4}, all); err != nil {
		t.Fatal(err)
	}
	outer, err := array.ReadOrthogonalStrings([][]uint64{{2, 0}, {3, 1}})
	if want := []string{"llllll", "jj", "dddd", "bb"}; err != nil || !reflect.DeepEqual(outer, want) {
		t.Fatalf("orthogonal %q %v, want %q", outer, err, want)
	}
	points, err := array.ReadPointsStrings([]uint64{1, 2, 0, 2, 1, 2})
	if want := []string{"γδ", "", "γδ"}; err != nil || !reflect.DeepEqual(points, want) {
		t.Fatalf("points %q %v, want %q", points, err, want)
	}
	slab, err := array.ReadRegionStepStrings([]uint64{0, 1}, []uint64{2, 2}, []uint64{2, 2})
	if want := []string{"bb", "dddd", "jj", "llllll"}; err != nil || !reflect.DeepEqual(slab, want) {
		t.Fatalf("step %q %v, want %q", slab, err, want)
	}
	_, err = array.ReadOrthogonalStrings([][]uint64{{3}, {0}})
	wantCode(t, err, zarr.ErrOutOfBounds)
	_, err = numbered(t).ReadRegionStepStrings([]uint64{0, 0}, []uint64{1, 1}, []uint64{1, 1})
	wantCode(t, err, zarr.ErrInvalidArgument)
}

func TestStringSelectionsWriteAsTheyRead(t *testing.T) {
	array := create(t, memoryURL("string-selection-writes"), v3Metadata("string", []uint64{3, 4}, []uint64{2, 3}))
	if err := array.WriteOrthogonalStrings([][]uint64{{2, 0}, {3, 1}}, []string{"w", "x", "y", "z"}); err != nil {
		t.Fatal(err)
	}
	if err := array.WritePointsStrings([]uint64{1, 2, 1, 2}, []string{"first", "γδ"}); err != nil {
		t.Fatal(err)
	}
	if err := array.WriteRegionStepStrings([]uint64{1, 1}, []uint64{1, 2}, []uint64{1, 2}, []string{"p", "q"}); err != nil {
		t.Fatal(err)
	}
	all, err := array.ReadStrings([]uint64{0, 0}, []uint64{3, 4})
	want := []string{"", "z", "", "y", "", "p", "γδ", "q", "", "x", "", "w"}
	if err != nil || !reflect.DeepEqual(all, want) {
		t.Fatalf("after the writes %q %v, want %q", all, err, want)
	}
	wantCode(t, array.WriteOrthogonalStrings([][]uint64{{3}, {0}}, []string{"a"}), zarr.ErrOutOfBounds)
	wantCode(t, array.WritePointsStrings([]uint64{0, 0, 1}, []string{"a", "b"}), zarr.ErrInvalidArgument)
	wantCode(t, array.WriteOrthogonalStrings([][]uint64{{0}, {0}}, []string{"a", "b"}), zarr.ErrBufferSize)
}
