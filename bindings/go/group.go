package zarr

/*
#include <stdlib.h>
#include <zarr/zarr.h>
*/
import "C"

import (
	"fmt"
	"sync"
)

// NodeKind says whether a group's child is an array or a group.
type NodeKind int

const (
	ArrayNode NodeKind = C.ZARR_NODE_ARRAY
	GroupNode NodeKind = C.ZARR_NODE_GROUP
)

// Child is one direct child of a group.
type Child struct {
	Name string
	Kind NodeKind
}

// Group is an open Zarr group; Close it when done. Arrays and groups opened
// through it are independent handles that may outlive it.
type Group struct {
	handle *C.zarr_group
	// libzarr keeps the listing Children walks in the handle.
	listing sync.Mutex
}

// OpenGroup opens the group at url.
func OpenGroup(url string, mode Mode) (*Group, error) {
	var args cStrings
	defer args.free()
	curl, cmode := args.add("url", url), args.add("mode", string(mode))
	if args.err != nil {
		return nil, args.err
	}
	return newGroup(func(out **C.zarr_group) C.int { return C.zarr_group_open(out, curl, cmode) })
}

// CreateGroup creates a group (and missing parents) with attributes (a JSON
// object, or "" for none) and opens it read-write. Its format is the enclosing
// group's, else Zarr v3; CreateGroupWithOptions chooses it.
func CreateGroup(url string, attributesJSON string) (*Group, error) {
	return CreateGroupWithOptions(url, attributesJSON, "")
}

// CreateGroupWithOptions is CreateGroup with zarr_group_create_ex's options (a
// JSON object, or "" for none), e.g. `{"zarr_format": 2}` for a Zarr v2 group.
func CreateGroupWithOptions(url, attributesJSON, optionsJSON string) (*Group, error) {
	var args cStrings
	defer args.free()
	curl, cattributes := args.add("url", url), args.add("attributes", attributesJSON)
	coptions := args.add("options", optionsJSON)
	if args.err != nil {
		return nil, args.err
	}
	return newGroup(func(out **C.zarr_group) C.int {
		return C.zarr_group_create_ex(out, curl, orNull(cattributes, attributesJSON), orNull(coptions, optionsJSON))
	})
}

func newGroup(open func(out **C.zarr_group) C.int) (*Group, error) {
	var handle *C.zarr_group
	if err := call(func() C.int { return open(&handle) }); err != nil {
		return nil, err
	}
	return &Group{handle: handle}, nil
}

// orNull passes "" as NULL: no attributes.
func orNull(c *C.char, s string) *C.char {
	if s == "" {
		return nil
	}
	return c
}

// Close releases the handle. Closing twice is fine.
func (g *Group) Close() error {
	C.zarr_group_close(g.handle)
	g.handle = nil
	return nil
}

// Children lists the direct children, sorted by name.
func (g *Group) Children() ([]Child, error) {
	g.listing.Lock()
	defer g.listing.Unlock()
	var count C.size_t
	if err := call(func() C.int { return C.zarr_group_child_count(g.handle, &count) }); err != nil {
		return nil, err
	}
	children := make([]Child, count)
	for i := range children {
		var name *C.char
		var kind C.int
		if err := call(func() C.int { return C.zarr_group_child(g.handle, C.size_t(i), &name, &kind) }); err != nil {
			return nil, err
		}
		children[i] = Child{Name: C.GoString(name), Kind: NodeKind(kind)}
		if children[i].Kind != ArrayNode && children[i].Kind != GroupNode {
			return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("unknown node kind %d", kind)}
		}
	}
	return children, nil
}

// OpenArray opens the array at a path relative to the group ("a", "sub/b").
func (g *Group) OpenArray(path string, mode Mode) (*Array, error) {
	var args cStrings
	defer args.free()
	cpath, cmode := args.add("path", path), args.add("mode", string(mode))
	if args.err != nil {
		return nil, args.err
	}
	return newArray(func(out **C.zarr_array) C.int { return C.zarr_group_open_array(out, g.handle, cpath, cmode) })
}

// CreateArray creates an array at a relative path (parents as needed), as Create.
func (g *Group) CreateArray(path string, metadataJSON string) (*Array, error) {
	var args cStrings
	defer args.free()
	cpath, cmetadata := args.add("path", path), args.add("metadata", metadataJSON)
	if args.err != nil {
		return nil, args.err
	}
	return newArray(func(out **C.zarr_array) C.int {
		return C.zarr_group_create_array(out, g.handle, cpath, cmetadata)
	})
}

// OpenGroup opens the group at a relative path, with this handle's mode.
func (g *Group) OpenGroup(path string) (*Group, error) {
	var args cStrings
	defer args.free()
	cpath := args.add("path", path)
	if args.err != nil {
		return nil, args.err
	}
	return newGroup(func(out **C.zarr_group) C.int { return C.zarr_group_open_group(out, g.handle, cpath) })
}

// CreateGroup creates a group at a relative path (parents as needed), with
// attributes (a JSON object, or "" for none).
func (g *Group) CreateGroup(path string, attributesJSON string) (*Group, error) {
	var args cStrings
	defer args.free()
	cpath, cattributes := args.add("path", path), args.add("attributes", attributesJSON)
	if args.err != nil {
		return nil, args.err
	}
	return newGroup(func(out **C.zarr_group) C.int {
		return C.zarr_group_create_group(out, g.handle, cpath, orNull(cattributes, attributesJSON))
	})
}

// Attributes are the group's attributes as a JSON object.
func (g *Group) Attributes() (string, error) {
	return takeJSON(func(out **C.char) C.int { return C.zarr_group_get_attributes(g.handle, out) })
}

// SetAttributes replaces the group's attributes with a JSON object.
func (g *Group) SetAttributes(json string) error {
	var args cStrings
	defer args.free()
	cjson := args.add("attributes", json)
	if args.err != nil {
		return args.err
	}
	return call(func() C.int { return C.zarr_group_set_attributes(g.handle, cjson) })
}

// GetAttribute is one attribute's JSON value, as Attributes shows them;
// ErrNotFound naming the key when there is none.
func (g *Group) GetAttribute(key string) (string, error) {
	var args cStrings
	defer args.free()
	ckey := args.add("key", key)
	if args.err != nil {
		return "", args.err
	}
	return takeJSON(func(out **C.char) C.int { return C.zarr_group_get_attribute(g.handle, ckey, out) })
}

// UpdateAttributes merges a JSON object into the stored attributes: each
// member replaces the attribute of its name, a null member removes it, the
// others stay. Read, merged and written under the group's lock, so writers
// of different keys lose nothing.
func (g *Group) UpdateAttributes(jsonObject string) error {
	var args cStrings
	defer args.free()
	cjson := args.add("json_object", jsonObject)
	if args.err != nil {
		return args.err
	}
	return call(func() C.int { return C.zarr_group_update_attributes(g.handle, cjson) })
}
