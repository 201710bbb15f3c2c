// The Go binding of libzarr: standard library and cgo only, no requirements,
// so `go test` needs no module downloads (GOPROXY=off works).
module libzarr/zarr

go 1.19
