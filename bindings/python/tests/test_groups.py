"""Groups: create or open, list and open children, nested paths, attributes, formats."""
import pytest

import libzarr


@pytest.fixture
def tree(url):
    """root: attrs {"title": "t"}; arrays a and sub/b; groups sub and sub/deeper."""
    root = libzarr.group(url, attributes={"title": "t"}, zarr_format=2)
    root.create_array("a", {"shape": [3], "dtype": "<i4"})[...] = [1, 2, 3]
    root.create_array("sub/b", {"shape": [2], "dtype": "<f8"})
    root["sub"].create_group("deeper", attributes={"level": 2})
    return url


def test_group_lists_and_opens_children(tree):
    root = libzarr.open(tree, mode="r")
    assert isinstance(root, libzarr.Group) and root.mode == "r"
    assert list(root) == ["a", "sub"] and root.keys() == ["a", "sub"] and len(root) == 2
    assert [name for name, _ in root.arrays()] == ["a"]
    assert [name for name, _ in root.groups()] == ["sub"]
    assert root["a"][...].tolist() == [1, 2, 3] and root["a"].read_only
    assert isinstance(root["sub/deeper"], libzarr.Group)
    assert root["sub"]["deeper"].attrs["level"] == 2
    assert "sub/b" in root and "sub/nothing" not in root and "a/x" not in root


def test_open_by_url_gives_array_or_group(tree):
    assert isinstance(libzarr.open(tree + "/sub/b"), libzarr.Array)
    assert isinstance(libzarr.open(tree + "/sub"), libzarr.Group)
    assert libzarr.open_group(tree).attrs["title"] == "t"
    with pytest.raises(libzarr.NotFoundError, match="it is a group"):
        libzarr.open_array(tree + "/sub")


def test_missing_child_is_a_key_error_naming_it(tree):
    root = libzarr.open(tree, mode="r")
    with pytest.raises(KeyError) as caught:
        root["nothing"]
    assert isinstance(caught.value, libzarr.NotFoundError) and "'nothing'" in caught.value.message
    assert caught.value.code == -2


def test_group_opens_an_existing_group_read_write(tree):
    again = libzarr.group(tree, attributes={"ignored": True})
    assert again.mode == "r+" and dict(again.attrs) == {"title": "t"}
    again.attrs["title"] = "u"
    again["a"][0] = 10  # children share the group's mode
    assert libzarr.open(tree + "/a")[0] == 10 and libzarr.open(tree).attrs["title"] == "u"


def test_read_only_group_refuses_changes(tree):
    root = libzarr.open(tree, mode="r")
    with pytest.raises(libzarr.ReadOnlyError) as caught:
        root.attrs["x"] = 1
    assert isinstance(caught.value, PermissionError)
    with pytest.raises(libzarr.ReadOnlyError):
        root["a"][0] = 5


def test_v3_group_makes_v3_children(url):
    root = libzarr.group(url, zarr_format=3)
    child = root.create_array("x", {"shape": [2], "data_type": "int8"})
    assert child.zarr_format == 3 and root.create_group("g").keys() == []
    with pytest.raises(libzarr.InvalidArgumentError):
        root.create_array("y", {"shape": [2], "dtype": "|i1"})  # a v2 document in a v3 group


def test_consolidated_metadata(tree):
    libzarr.consolidate_metadata(tree)
    consolidated = libzarr.open_group(tree, consolidated=True)
    assert consolidated.keys() == ["a", "sub"] and consolidated["a"][...].tolist() == [1, 2, 3]


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_move_keeps_consolidated_metadata_in_step(url, zarr_format):
    root = libzarr.group(url, zarr_format=zarr_format)
    spec = {"shape": [3], "dtype": "<i4"} if zarr_format == 2 else {"shape": [3], "data_type": "int32"}
    root.create_array("a", spec)[...] = [1, 2, 3]
    root.create_group("sub").create_group("deeper")
    libzarr.consolidate_metadata(url)
    libzarr.consolidate_metadata(url + "/sub")  # a consolidated group inside the hierarchy
    root.move("a", "sub/deeper/a2")  # a folder of the filesystem: renamed, not copied
    consolidated = libzarr.open_group(url, consolidated=True)
    assert consolidated.keys() == ["sub"] and "a" not in consolidated
    assert consolidated["sub/deeper/a2"][...].tolist() == [1, 2, 3]
    assert libzarr.open_group(url + "/sub", consolidated=True)["deeper"].keys() == ["a2"]
    libzarr.open_group(url + "/sub", mode="r+").move("deeper/a2", "a3")
    assert libzarr.open_group(url, consolidated=True)["sub"].keys() == ["a3", "deeper"]


def test_group_without_consolidated_metadata_refuses_the_option(tree):
    with pytest.raises(libzarr.NotFoundError):
        libzarr.open_group(tree, consolidated=True)


def test_creating_where_a_node_is_raises_exists(tree):
    root = libzarr.open(tree, "r+")
    with pytest.raises(libzarr.ExistsError) as caught:
        root.create_array("a", {"shape": [1], "dtype": "<i4"})
    assert isinstance(caught.value, FileExistsError) and caught.value.code == -3
    with pytest.raises(FileExistsError):
        libzarr.group(tree + "/a")  # an array is there


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_group_attribute_changes_merge_into_the_stored_attributes(url, zarr_format):
    libzarr.group(url, attributes={"title": "t"}, zarr_format=zarr_format)
    first, second = libzarr.open_group(url, mode="r+"), libzarr.open_group(url, mode="r+")
    assert first.attrs["title"] == "t" and second.attrs["title"] == "t"
    first.attrs["a"] = 1
    del second.attrs["title"]
    assert dict(libzarr.open_group(url, mode="r").attrs) == {"a": 1}
    with pytest.raises(KeyError):
        second.attrs["title"]
