package zarr_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"libzarr/zarr"
)

var nextStore atomic.Int64

// memoryURL is a memory:// URL no other test uses.
func memoryURL(name string) string {
	return fmt.Sprintf("memory://go-%s-%d/a", name, nextStore.Add(1))
}

func v3Metadata(dataType string, shape, chunks []uint64) string {
	return fmt.Sprintf(`{"zarr_format": 3, "node_type": "array", "shape": %s, "data_type": %q,
		"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": %s}}}`,
		jsonList(shape), dataType, jsonList(chunks))
}

func jsonList(values []uint64) string {
	return strings.ReplaceAll(fmt.Sprint(values), " ", ", ")
}

func create(t *testing.T, url, metadata string) *zarr.Array {
	t.Helper()
	array, err := zarr.Create(url, metadata)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { array.Close() })
	return array
}

// wantCode fails unless err wraps code.
func wantCode(t *testing.T, err error, code zarr.Code) {
	t.Helper()
	var zerr *zarr.Error
	if !errors.As(err, &zerr) || !errors.Is(err, code) {
		t.Fatalf("want %v, got %v", code, err)
	}
	if zerr.Message == "" {
		t.Fatalf("%v has no message", err)
	}
}

// roundTrip writes six values as a 2 x 3 array in 1 x 2 chunks and reads all and part back.
func roundTrip[T zarr.Element](t *testing.T, dataType string, values []T) {
	t.Run(dataType, func(t *testing.T) {
		array := create(t, memoryURL(dataType), v3Metadata(dataType, []uint64{2, 3}, []uint64{1, 2}))
		if array.DataType() != dataType {
			t.Fatalf("data type %s", array.DataType())
		}
		if err := zarr.WriteRegion(array, []uint64{0, 0}, []uint64{2, 3}, values); err != nil {
			t.Fatal(err)
		}
		all, err := zarr.Read[T](array, []uint64{0, 0}, []uint64{2, 3})
		if err != nil || !reflect.DeepEqual(all, values) {
			t.Fatalf("read %v (%v), wrote %v", all, err, values)
		}
		part, err := zarr.Read[T](array, []uint64{1, 1}, []uint64{1, 2})
		if err != nil || !reflect.DeepEqual(part, values[4:6]) {
			t.Fatalf("read %v (%v), want %v", part, err, values[4:6])
		}
	})
}

func TestEveryElementTypeRoundTrips(t *testing.T) {
	roundTrip(t, "int8", []int8{-128, -1, 0, 1, 2, 127})
	roundTrip(t, "int16", []int16{-32768, -1, 0, 1, 300, 32767})
	roundTrip(t, "int32", []int32{math.MinInt32, -1, 0, 1, 70000, math.MaxInt32})
	roundTrip(t, "int64", []int64{math.MinInt64, -1, 0, 1, 1 << 40, math.MaxInt64})
	roundTrip(t, "uint8", []uint8{0, 1, 2, 3, 128, 255})
	roundTrip(t, "uint16", []uint16{0, 1, 2, 3, 40000, 65535})
	roundTrip(t, "uint32", []uint32{0, 1, 2, 3, 1 << 31, math.MaxUint32})
	roundTrip(t, "uint64", []uint64{0, 1, 2, 3, 1 << 63, math.MaxUint64})
	roundTrip(t, "float32", []float32{-1.5, 0, 0.25, 1e-30, 3.5e30, float32(math.Inf(1))})
	roundTrip(t, "float64", []float64{-1.5, 0, 0.1, 1e-300, 3.5e300, math.Inf(-1)})
	roundTrip(t, "complex64", []complex64{1 - 1i, 0, 0.5 + 2i, -3, 9i, 7 + 7i})
	roundTrip(t, "complex128", []complex128{1 - 1i, 0, 0.5 + 2i, -3, 9i, 7 + 7i})
	roundTrip(t, "bool", []bool{true, false, false, true, true, false})
}

// Named types work as their underlying type does.
type celsius float32

func TestNamedElementTypesUseTheirUnderlyingType(t *testing.T) {
	array := create(t, memoryURL("named"), v3Metadata("float32", []uint64{2}, []uint64{2}))
	if err := zarr.WriteRegion(array, []uint64{0}, []uint64{2}, []celsius{21.5, -3}); err != nil {
		t.Fatal(err)
	}
	values, err := zarr.Read[celsius](array, []uint64{0}, []uint64{2})
	if err != nil || values[0] != 21.5 || values[1] != -3 {
		t.Fatalf("%v %v", values, err)
	}
}

func TestUnwrittenChunksReadAsTheFillValue(t *testing.T) {
	array := create(t, memoryURL("fill"), `{"shape": [4, 4], "chunks": [2, 2], "dtype": "<i4", "fill_value": -7}`)
	if err := zarr.WriteRegion(array, []uint64{0, 0}, []uint64{1, 1}, []int32{5}); err != nil {
		t.Fatal(err)
	}
	row, err := zarr.Read[int32](array, []uint64{0, 0}, []uint64{1, 4})
	if err != nil || !reflect.DeepEqual(row, []int32{5, -7, -7, -7}) {
		t.Fatalf("%v %v", row, err)
	}
}

func TestDescribesShapeChunksAndMetadata(t *testing.T) {
	array := create(t, memoryURL("describe"), v3Metadata("uint16", []uint64{10, 20, 30}, []uint64{5, 10, 15}))
	shape, err := array.Shape()
	if err != nil || !reflect.DeepEqual(shape, []uint64{10, 20, 30}) {
		t.Fatalf("shape %v %v", shape, err)
	}
	chunks, err := array.ChunkShape()
	if err != nil || !reflect.DeepEqual(chunks, []uint64{5, 10, 15}) {
		t.Fatalf("chunks %v %v", chunks, err)
	}
	if array.NDim() != 3 || array.ItemSize() != 2 || array.ZarrFormat() != 3 {
		t.Fatalf("ndim %d item size %d format %d", array.NDim(), array.ItemSize(), array.ZarrFormat())
	}
	metadata, err := array.Metadata()
	if err != nil || !strings.Contains(metadata, `"uint16"`) {
		t.Fatalf("metadata %s %v", metadata, err)
	}
}

func TestResizeKeepsDataInsideTheNewShape(t *testing.T) {
	array := create(t, memoryURL("resize"), v3Metadata("int32", []uint64{4}, []uint64{2}))
	if err := zarr.WriteRegion(array, []uint64{0}, []uint64{4}, []int32{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := array.Resize([]uint64{6}); err != nil {
		t.Fatal(err)
	}
	values, err := zarr.Read[int32](array, []uint64{0}, []uint64{6})
	if err != nil || !reflect.DeepEqual(values, []int32{1, 2, 3, 4, 0, 0}) {
		t.Fatalf("%v %v", values, err)
	}
}

func TestAttributesAreJSONObjects(t *testing.T) {
	array := create(t, memoryURL("attributes"), v3Metadata("int8", []uint64{1}, []uint64{1}))
	if err := array.SetAttributes(`{"units": "K"}`); err != nil {
		t.Fatal(err)
	}
	attributes, err := array.Attributes()
	if err != nil || !strings.Contains(attributes, `"units"`) {
		t.Fatalf("%s %v", attributes, err)
	}
	wantCode(t, array.SetAttributes("[1, 2]"), zarr.ErrInvalidMetadata)
}

func TestAttributesByKey(t *testing.T) {
	url := memoryURL("attributes-by-key")
	array := create(t, url, v3Metadata("int8", []uint64{1}, []uint64{1}))
	other, err := zarr.Open(url, zarr.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// Two goroutines, each with its own handle, adding their own keys: none is lost.
	var wg sync.WaitGroup
	for w, handle := range []*zarr.Array{array, other} {
		wg.Add(1)
		go func(w int, handle *zarr.Array) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if err := handle.UpdateAttributes(fmt.Sprintf(`{"w%d_%d": %d}`, w, i, i)); err != nil {
					t.Error(err)
					return
				}
			}
		}(w, handle)
	}
	wg.Wait()
	if err := array.UpdateAttributes(`{"w0_0": null}`); err != nil {
		t.Fatal(err)
	}
	if value, err := array.GetAttribute("w1_99"); err != nil || value != "99" {
		t.Fatalf("%s %v", value, err)
	}
	_, err = array.GetAttribute("w0_0")
	wantCode(t, err, zarr.ErrNotFound)
	_, err = array.GetAttribute("a\x00b")
	wantCode(t, err, zarr.ErrInvalidArgument)
	wantCode(t, array.UpdateAttributes("[1]"), zarr.ErrInvalidArgument)
	group, err := zarr.CreateGroup(memoryURL("group-attributes-by-key"), `{"a": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	defer group.Close()
	if err := group.UpdateAttributes(`{"b": [2]}`); err != nil {
		t.Fatal(err)
	}
	if value, err := group.GetAttribute("b"); err != nil || value != "[2]" {
		t.Fatalf("%s %v", value, err)
	}
	_, err = group.GetAttribute("c")
	wantCode(t, err, zarr.ErrNotFound)
}

func TestStringsRoundTrip(t *testing.T) {
	array := create(t, memoryURL("strings"), v3Metadata("string", []uint64{3}, []uint64{2}))
	if array.ItemSize() != 0 {
		t.Fatalf("item size %d", array.ItemSize())
	}
	if err := array.WriteStrings([]uint64{0}, []uint64{3}, []string{"alpha", "", "γδ"}); err != nil {
		t.Fatal(err)
	}
	values, err := array.ReadStrings([]uint64{1}, []uint64{2})
	if err != nil || !reflect.DeepEqual(values, []string{"", "γδ"}) {
		t.Fatalf("%q %v", values, err)
	}
}

func TestAnArrayIsSharedByGoroutines(t *testing.T) {
	array := create(t, memoryURL("goroutines"), v3Metadata("int64", []uint64{8, 100}, []uint64{1, 30}))
	var wg sync.WaitGroup
	for row := uint64(0); row < 8; row++ {
		wg.Add(1)
		go func(row uint64) {
			defer wg.Done()
			values := make([]int64, 100)
			for c := range values {
				values[c] = int64(row*1000) + int64(c)
			}
			if err := zarr.WriteRegion(array, []uint64{row, 0}, []uint64{1, 100}, values); err != nil {
				t.Error(err)
			}
		}(row)
	}
	wg.Wait()
	all, err := zarr.Read[int64](array, []uint64{0, 0}, []uint64{8, 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range all {
		if v != int64(i/100*1000+i%100) {
			t.Fatalf("element %d is %d", i, v)
		}
	}
}

// --- the filesystem ------------------------------------------------------------

func TestArraysOnDiskReopenWithTheirData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "disk.zarr")
	array := create(t, path, `{"shape": [2, 2], "chunks": [1, 2], "dtype": "<u2"}`)
	if err := zarr.WriteRegion(array, []uint64{0, 0}, []uint64{2, 2}, []uint16{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	array.Close()
	if _, err := os.Stat(filepath.Join(path, "1.0")); err != nil {
		t.Fatal(err)
	}
	reopened, err := zarr.Open(path, zarr.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	values, err := zarr.Read[uint16](reopened, []uint64{1, 0}, []uint64{1, 2})
	if err != nil || !reflect.DeepEqual(values, []uint16{3, 4}) {
		t.Fatalf("%v %v", values, err)
	}
}

func TestStoredBoolBytesOtherThanOneReadAsTrue(t *testing.T) {
	// numpy reads any non-zero byte as True; a Go bool must be 0 or 1.
	path := filepath.Join(t.TempDir(), "bools.zarr")
	create(t, path, `{"shape": [3], "chunks": [3], "dtype": "|b1", "compressor": null}`).Close()
	if err := os.WriteFile(filepath.Join(path, "0"), []byte{0, 2, 255}, 0o644); err != nil {
		t.Fatal(err)
	}
	array, err := zarr.Open(path, zarr.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer array.Close()
	values, err := zarr.Read[bool](array, []uint64{0}, []uint64{3})
	if err != nil || !reflect.DeepEqual(values, []bool{false, true, true}) {
		t.Fatalf("%v %v", values, err)
	}
	if values[1] != true || !values[2] { // compares the bytes with 1
		t.Fatal("non-zero bytes are not Go's true")
	}
}

// --- groups ----------------------------------------------------------------------

func TestGroupsListCreateAndOpenChildren(t *testing.T) {
	url := memoryURL("groups")
	root, err := zarr.CreateGroupWithOptions(url, `{"title": "t"}`, `{"zarr_format": 2}`)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	b, err := root.CreateArray("b", `{"shape": [2], "chunks": [2], "dtype": "<f4"}`)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := zarr.WriteRegion(b, []uint64{0}, []uint64{2}, []float32{1, 2}); err != nil {
		t.Fatal(err)
	}
	sub, err := root.CreateGroup("a/inner", "")
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()

	children, err := root.Children()
	want := []zarr.Child{{Name: "a", Kind: zarr.GroupNode}, {Name: "b", Kind: zarr.ArrayNode}}
	if err != nil || !reflect.DeepEqual(children, want) {
		t.Fatalf("%v %v", children, err)
	}
	a, err := root.OpenGroup("a")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if inner, err := a.Children(); err != nil || len(inner) != 1 || inner[0].Name != "inner" {
		t.Fatalf("%v %v", inner, err)
	}
	reopened, err := root.OpenArray("b", zarr.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	if values, err := zarr.Read[float32](reopened, []uint64{0}, []uint64{2}); err != nil || values[1] != 2 {
		t.Fatalf("%v %v", values, err)
	}
	attributes, err := root.Attributes()
	if err != nil || !strings.Contains(attributes, `"title"`) {
		t.Fatalf("%s %v", attributes, err)
	}
	if err := root.SetAttributes(`{"b": 1}`); err != nil {
		t.Fatal(err)
	}
}

func TestGroupErrorsCarryCodeAndMessage(t *testing.T) {
	url := memoryURL("group-errors")
	_, err := zarr.OpenGroup(url, zarr.ReadOnly)
	wantCode(t, err, zarr.ErrNotFound)
	root, err := zarr.CreateGroup(url, "")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, err = root.OpenArray("missing", zarr.ReadOnly)
	wantCode(t, err, zarr.ErrNotFound)
	_, err = zarr.CreateGroup(url, "")
	wantCode(t, err, zarr.ErrExists)
	_, err = zarr.CreateGroup(memoryURL("bad-attributes"), "not json")
	wantCode(t, err, zarr.ErrInvalidMetadata)
	readOnly, err := zarr.OpenGroup(url, zarr.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer readOnly.Close()
	_, err = readOnly.CreateGroup("g", "")
	wantCode(t, err, zarr.ErrReadOnly)
}

// --- errors ----------------------------------------------------------------------

func TestOpeningAMissingArrayIsNotFound(t *testing.T) {
	_, err := zarr.Open("memory://go-nothing-here/x", zarr.ReadOnly)
	wantCode(t, err, zarr.ErrNotFound)
	if !strings.HasPrefix(err.Error(), "ZARR_ERR_NOT_FOUND: ") {
		t.Fatalf("%q", err.Error())
	}
}

func TestCreatingOverAnArrayIsExists(t *testing.T) {
	url := memoryURL("exists")
	create(t, url, v3Metadata("int8", []uint64{1}, []uint64{1}))
	_, err := zarr.Create(url, v3Metadata("int8", []uint64{1}, []uint64{1}))
	wantCode(t, err, zarr.ErrExists)
}

func TestBadMetadataIsInvalidMetadataNamingTheField(t *testing.T) {
	_, err := zarr.Create(memoryURL("bad"), `{"shape": [4], "chunks": [0], "dtype": "<i4"}`)
	wantCode(t, err, zarr.ErrInvalidMetadata)
	if !strings.Contains(err.Error(), "chunks") {
		t.Fatal(err)
	}
}

func TestASliceOfAnotherElementTypeIsRefused(t *testing.T) {
	array := create(t, memoryURL("types"), v3Metadata("int32", []uint64{4}, []uint64{4}))
	err := zarr.ReadRegion(array, []uint64{0}, []uint64{4}, make([]float32, 4))
	wantCode(t, err, zarr.ErrInvalidArgument)
	if !strings.Contains(err.Error(), "int32") || !strings.Contains(err.Error(), "float32") {
		t.Fatal(err)
	}
	wantCode(t, zarr.WriteRegion(array, []uint64{0}, []uint64{4}, make([]uint32, 4)), zarr.ErrInvalidArgument)
}

func TestRegionsConvertBetweenNumericTypes(t *testing.T) {
	array := create(t, memoryURL("convert"), v3Metadata("float64", []uint64{4}, []uint64{4}))
	if err := zarr.WriteRegionAs(array, []uint64{0}, []uint64{4}, []int32{1, -2, 3, 40000}); err != nil {
		t.Fatal(err)
	}
	got := make([]int64, 4)
	if err := zarr.ReadRegionAs(array, []uint64{0}, []uint64{4}, got); err != nil {
		t.Fatal(err)
	}
	if got[0] != 1 || got[1] != -2 || got[2] != 3 || got[3] != 40000 {
		t.Fatalf("read %v", got)
	}
	err := zarr.ReadRegionAs(array, []uint64{0}, []uint64{4}, make([]int16, 4))
	wantCode(t, err, zarr.ErrRange)
	if !strings.Contains(err.Error(), "element 3") || !strings.Contains(err.Error(), "40000") {
		t.Fatal(err)
	}
	wantCode(t, zarr.WriteRegionAs(array, []uint64{0}, []uint64{4}, make([]int32, 3)), zarr.ErrBufferSize)
}

func TestASliceOfTheWrongLengthIsBufferSize(t *testing.T) {
	array := create(t, memoryURL("length"), v3Metadata("int32", []uint64{4}, []uint64{4}))
	wantCode(t, zarr.ReadRegion(array, []uint64{0}, []uint64{4}, make([]int32, 3)), zarr.ErrBufferSize)
	wantCode(t, zarr.WriteRegion(array, []uint64{0}, []uint64{4}, make([]int32, 5)), zarr.ErrBufferSize)
}

func TestStartAndCountMustHaveTheSameLength(t *testing.T) {
	array := create(t, memoryURL("lengths"), v3Metadata("int32", []uint64{4, 4}, []uint64{4, 4}))
	_, err := zarr.Read[int32](array, []uint64{0}, []uint64{1, 1})
	wantCode(t, err, zarr.ErrInvalidArgument)
	_, err = zarr.Read[int32](array, []uint64{0}, []uint64{1}) // not the array's ndim: libzarr says so
	wantCode(t, err, zarr.ErrInvalidArgument)
}

func TestARegionOutsideTheShapeIsOutOfBounds(t *testing.T) {
	array := create(t, memoryURL("bounds"), v3Metadata("int32", []uint64{4}, []uint64{4}))
	_, err := zarr.Read[int32](array, []uint64{3}, []uint64{2})
	wantCode(t, err, zarr.ErrOutOfBounds)
}

func TestWritingThroughAReadOnlyHandleIsReadOnly(t *testing.T) {
	url := memoryURL("read-only")
	create(t, url, v3Metadata("int32", []uint64{4}, []uint64{4})) // keeps the memory store alive
	array, err := zarr.Open(url, zarr.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer array.Close()
	wantCode(t, zarr.WriteRegion(array, []uint64{0}, []uint64{1}, []int32{1}), zarr.ErrReadOnly)
}

func TestUnknownOpenOptionsAreNamed(t *testing.T) {
	url := memoryURL("options")
	create(t, url, v3Metadata("int32", []uint64{4}, []uint64{4}))
	_, err := zarr.OpenWithOptions(url, zarr.ReadOnly, `{"no_such_option": 1}`)
	wantCode(t, err, zarr.ErrInvalidArgument)
	if !strings.Contains(err.Error(), "no_such_option") {
		t.Fatal(err)
	}
	array, err := zarr.OpenWithOptions(url, zarr.ReadOnly, `{"zarr_format": 3}`)
	if err != nil {
		t.Fatal(err)
	}
	array.Close()
}

func TestStringReadsOfFixedSizeArraysAreRefused(t *testing.T) {
	array := create(t, memoryURL("fixed"), v3Metadata("int32", []uint64{2}, []uint64{2}))
	_, err := array.ReadStrings([]uint64{0}, []uint64{2})
	wantCode(t, err, zarr.ErrInvalidArgument)
}

func TestNULBytesInStringsAreInvalidArguments(t *testing.T) {
	_, err := zarr.Open("memory://a\x00b", zarr.ReadOnly)
	wantCode(t, err, zarr.ErrInvalidArgument)
	if !strings.Contains(err.Error(), "url contains a NUL byte") {
		t.Fatal(err)
	}
}

func TestAClosedArrayFailsWithAMessage(t *testing.T) {
	array := create(t, memoryURL("closed"), v3Metadata("int32", []uint64{4}, []uint64{4}))
	array.Close()
	array.Close() // twice is fine
	_, err := zarr.Read[int32](array, []uint64{0}, []uint64{1})
	wantCode(t, err, zarr.ErrInvalidArgument)
}

func TestTheLoadedLibraryReportsItsVersion(t *testing.T) {
	if parts := strings.Split(zarr.Version(), "."); len(parts) != 3 {
		t.Fatalf("version %q", zarr.Version())
	}
}

// CreateFromDesc: a sharded v3 array with no JSON written, its defaults
// (zstd level 0) in the stored metadata, and a bad field named.
func TestCreateFromDescShardedV3(t *testing.T) {
	url := memoryURL("desc")
	a, err := zarr.CreateFromDesc(url, zarr.ArrayDesc{
		DataType: "float32", Shape: []uint64{8, 8}, ChunkShape: []uint64{2, 2}, ShardShape: []uint64{4, 4},
		DimensionNames: []string{"y", "x"},
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	metadata, _ := a.Metadata()
	for _, want := range []string{`"sharding_indexed"`, `"level": 0`, `"dimension_names"`} {
		if !strings.Contains(metadata, want) {
			t.Errorf("metadata lacks %s:\n%s", want, metadata)
		}
	}
	values := make([]float32, 64)
	for i := range values {
		values[i] = float32(i)
	}
	if err := zarr.WriteRegion(a, []uint64{0, 0}, []uint64{8, 8}, values); err != nil {
		t.Fatal(err)
	}
	back, err := zarr.Read[float32](a, []uint64{0, 0}, []uint64{8, 8})
	if err != nil || !reflect.DeepEqual(back, values) {
		t.Fatalf("read %v, %v", back, err)
	}
	_, err = zarr.CreateFromDesc(memoryURL("desc"), zarr.ArrayDesc{
		DataType: "float32", Shape: []uint64{8}, ChunkShape: []uint64{3}, ShardShape: []uint64{8},
	}, "")
	if !errors.Is(err, zarr.ErrInvalidArgument) || !strings.Contains(err.Error(), "desc.shard_shape[0]") {
		t.Fatalf("want ErrInvalidArgument naming desc.shard_shape[0], got %v", err)
	}
}

// CreateFromDesc with ChunkEdges: a rectilinear grid (a nil axis: a regular
// step of ChunkShape), and ChunkEdges of the wrong rank refused by name.
func TestCreateFromDescRectilinear(t *testing.T) {
	url := memoryURL("rectilinear")
	a, err := zarr.CreateFromDesc(url, zarr.ArrayDesc{
		DataType: "int32", Shape: []uint64{10, 6}, ChunkShape: []uint64{5, 4},
		ChunkEdges: [][]uint64{{2, 2, 6}, nil},
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	metadata, _ := a.Metadata()
	if !strings.Contains(metadata, `"rectilinear"`) {
		t.Errorf("metadata is not rectilinear:\n%s", metadata)
	}
	values := make([]int32, 60)
	for i := range values {
		values[i] = int32(i)
	}
	if err := zarr.WriteRegion(a, []uint64{0, 0}, []uint64{10, 6}, values); err != nil {
		t.Fatal(err)
	}
	back, err := zarr.Read[int32](a, []uint64{0, 0}, []uint64{10, 6})
	if err != nil || !reflect.DeepEqual(back, values) {
		t.Fatalf("read %v, %v", back, err)
	}
	_, err = zarr.CreateFromDesc(memoryURL("rectilinear-bad"), zarr.ArrayDesc{
		DataType: "int32", Shape: []uint64{10, 6}, ChunkEdges: [][]uint64{{10}},
	}, "")
	if !errors.Is(err, zarr.ErrInvalidArgument) || !strings.Contains(err.Error(), "ChunkEdges has 1 axes") {
		t.Fatalf("want ErrInvalidArgument naming ChunkEdges, got %v", err)
	}
}

// Zarr v2 through a group: Blosc by default, no compressor with "null", and
// the dimension names as xarray's _ARRAY_DIMENSIONS.
func TestCreateArrayFromDescInAV2Group(t *testing.T) {
	g, err := zarr.CreateGroupWithOptions(filepath.Join(t.TempDir(), "g"), "", `{"zarr_format": 2}`)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a, err := g.CreateArrayFromDesc("a", zarr.ArrayDesc{DataType: "<i4", Shape: []uint64{4}, Compressor: "null",
		FillValue: "7", DimensionNames: []string{"t"}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	metadata, _ := a.Metadata()
	attributes, _ := a.Attributes()
	if !strings.Contains(metadata, `"compressor": null`) || !strings.Contains(metadata, `"fill_value": 7`) ||
		attributes != `{"_ARRAY_DIMENSIONS":["t"]}` {
		t.Fatalf("metadata %s attributes %s", metadata, attributes)
	}
}
