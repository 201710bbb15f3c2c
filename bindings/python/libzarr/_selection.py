"""NumPy-style keys turned into one of four kinds of selection.

Every key becomes a Plan of one kind, and each kind is carried out by one
function of _engine (read and write):

- region:     integers and slices of step 1: one hyper-rectangle;
- step:       slices with other steps (negative ones read forward, then reversed);
- orthogonal: index arrays or masks, each on its own axis (``a.oindex``, and a
              single 1-D index array or mask in plain indexing, where NumPy means
              the same);
- points:     coordinates (``a.vindex``, several index arrays or an N-D mask in
              plain indexing, with NumPy's meaning).

A plan knows the shape of the selection in array axes (its *kernel*: one
extent per array axis, 1 where an integer drops the axis) and how the result
comes from it: axes reversed, dropped, and ``None`` (np.newaxis) axes
inserted. These are views both ways, so the kernel a read fills can be the
caller's ``out`` itself, and a scalar written broadcasts without a copy.
"""
import operator

import numpy as np

from . import _engine
from .errors import InvalidSelectionError, OutOfBoundsError


class Plan:
    """A selection of one kind on an array of a given shape (see the module's docstring)."""

    kind = None
    flips = ()        # array axes read forward and reversed in the result
    dropped = ()      # array axes indexed by an integer
    new_axes = ()     # positions of None axes in the result
    scalar = False    # every axis an integer and no ...: NumPy gives a scalar

    @property
    def shape(self):
        """Shape of the result."""
        shape = [n for axis, n in enumerate(self.kernel_shape) if axis not in self.dropped]
        for position in self.new_axes:
            shape.insert(position, 1)
        return tuple(shape)

    def result_of(self, kernel):
        """The result as a view of the kernel."""
        if self.flips:
            kernel = kernel[tuple(slice(None, None, -1) if axis in self.flips else slice(None)
                                  for axis in range(kernel.ndim))]
        if self.dropped:
            # The trailing ... keeps a view (a 0-d array, never an element) when all axes go.
            kernel = kernel[tuple(0 if axis in self.dropped else slice(None) for axis in range(kernel.ndim)) +
                            (Ellipsis,)]
        return np.expand_dims(kernel, self.new_axes) if self.new_axes else kernel

    def kernel_of(self, result):
        """The kernel as a view of a result-shaped array (the inverse of result_of)."""
        if self.new_axes:
            result = result[tuple(0 if axis in self.new_axes else slice(None) for axis in range(result.ndim)) +
                            (Ellipsis,)]
        if self.dropped:
            result = np.expand_dims(result, self.dropped)
        if self.flips:
            result = result[tuple(slice(None, None, -1) if axis in self.flips else slice(None)
                                  for axis in range(result.ndim))]
        return result

    def read(self, array, out=None):
        """The selection as a new array, or read into out (result-shaped); returns it."""
        if out is not None:
            kernel = self.kernel_of(out)
            # Straight into out only through a view of it (a reshape may have copied).
            if all(stride >= 0 for stride in kernel.strides) and np.may_share_memory(kernel, out):
                self._read_kernel(array, kernel)
                return out
        kernel = np.empty(self.kernel_shape, dtype=array.dtype)
        self._read_kernel(array, kernel)
        result = self.result_of(kernel)
        if out is None:
            return result
        np.copyto(out, result)
        return out

    def write(self, array, value):
        """Write value, broadcast to the result's shape."""
        self._write_kernel(array, self.kernel_of(value))


class RegionPlan(Plan):
    """Integers and slices: start, count and step (>= 1) per array axis."""

    def __init__(self, start, count, step, flips, dropped, new_axes, scalar):
        self.start, self.kernel_shape, self.step = tuple(start), tuple(count), tuple(step)
        self.flips, self.dropped, self.new_axes, self.scalar = flips, dropped, new_axes, scalar
        self.kind = "region" if all(s == 1 for s in self.step) else "step"

    def _read_kernel(self, array, kernel):
        if self.kind == "region":
            _engine.read_region(array, self.start, self.kernel_shape, kernel)
        else:
            _engine.read_step(array, self.start, self.kernel_shape, self.step, kernel)

    def _write_kernel(self, array, kernel):
        if self.kind == "region":
            _engine.write_region(array, self.start, self.kernel_shape, kernel)
        else:
            _engine.write_step(array, self.start, self.kernel_shape, self.step, kernel)


class OrthogonalPlan(Plan):
    """One array of indices per array axis (any order, repeats allowed)."""

    kind = "orthogonal"

    def __init__(self, indices, dropped, new_axes):
        self.indices = indices
        self.kernel_shape = tuple(len(ix) for ix in indices)
        self.dropped, self.new_axes = dropped, new_axes

    def _read_kernel(self, array, kernel):
        _engine.read_orthogonal(array, self.indices, kernel)

    def _write_kernel(self, array, kernel):
        _engine.write_orthogonal(array, self.indices, kernel)


class MaskAsOrthogonalPlan(OrthogonalPlan):
    """A full-rank mask that is the outer product of one mask per axis (whole rows,
    columns, boxes): its selected elements in C order are the orthogonal selection of
    those axes' positions, flattened, so each chunk's picks are runs, not points."""

    def __init__(self, indices):
        super().__init__(indices, (), ())

    @property
    def shape(self):
        return (int(np.prod(self.kernel_shape, dtype=np.int64)),)

    def result_of(self, kernel):
        return kernel.reshape(-1)

    def kernel_of(self, result):
        if result.shape != self.shape:  # a value written, broadcast (a read-only view)
            result = np.broadcast_to(result, self.shape)
        return result.reshape(self.kernel_shape)


def _as_outer_product(mask):
    """The per-axis positions when mask is the outer product of one mask per axis, else None."""
    if mask.ndim < 2 or mask.size == 0:
        return None
    axes = [np.logical_or.reduce(mask, axis=tuple(a for a in range(mask.ndim) if a != axis))
            for axis in range(mask.ndim)]
    outer = axes[0]
    for along in axes[1:]:
        outer = np.multiply.outer(outer, along)
    if not np.array_equal(outer, mask):
        return None
    return [np.flatnonzero(along).astype(np.uint64) for along in axes]


class PointsPlan(Plan):
    """Coordinates (npoints x ndim) and the shape the points are laid out in."""

    kind = "points"

    def __init__(self, coords, shape):
        self.coords = coords
        self._shape = shape
        self.kernel_shape = (len(coords),)

    @property
    def shape(self):
        return self._shape

    def result_of(self, kernel):
        return kernel.reshape(self._shape)

    def kernel_of(self, result):
        return result.reshape(-1)

    def _read_kernel(self, array, kernel):
        _engine.read_points(array, self.coords, kernel)

    def _write_kernel(self, array, kernel):
        _engine.write_points(array, self.coords, kernel)


# -- parsing keys ---------------------------------------------------------------------

def plan(key, shape, style="numpy"):
    """The Plan of a key on an array of the given shape.

    style "numpy" is plain indexing (NumPy's meaning, which is also zarr-python's
    for every key it takes); "orthogonal" is ``oindex``; "basic" refuses arrays.
    """
    items, has_ellipsis = _expand(key, len(shape))
    arrays = [i for i, item in enumerate(items) if _is_array_like(item)]
    if not arrays:
        return _region_plan(items, shape, has_ellipsis)
    if style == "basic":
        raise InvalidSelectionError("basic selection takes integers, slices, '...' and None: use "
                                    "get_orthogonal_selection / get_coordinate_selection for arrays")
    if style == "orthogonal" or (len(arrays) == 1 and np.ndim(items[arrays[0]]) == 1 and _adjacent(items)):
        return _orthogonal_plan(items, shape)
    if len(shape) > 1 and not isinstance(key, tuple) and _is_array_like(key) and np.asarray(key).dtype == bool:
        if np.shape(key) == tuple(shape):  # a[mask] with a mask of a's shape: as mask_plan
            return mask_plan(key, shape)
    return _points_plan(items, shape)


def _adjacent(items):
    """NumPy's rule: integers count as index arrays next to one, and when such indices are
    separated by a slice or None their axes go first in the result. Adjacent ones keep
    their place, where orthogonal indexing puts them too."""
    advanced = [i for i, item in enumerate(items) if item is not None and not isinstance(item, slice)]
    return advanced == list(range(advanced[0], advanced[-1] + 1))


def coordinate_plan(selection, shape):
    """zarr-python's coordinate selection: one integer array per axis, broadcast together."""
    items = list(selection) if isinstance(selection, tuple) else [selection]
    if len(items) != len(shape):
        raise InvalidSelectionError(f"coordinate selection needs {len(shape)} index arrays, got {len(items)}")
    for axis, item in enumerate(items):
        if np.asarray(item).dtype.kind not in "iu" and not isinstance(item, int):
            raise InvalidSelectionError(f"axis {axis}: coordinate selection takes integers, not {item!r}")
    return _points_plan(items, shape)


def mask_plan(mask, shape):
    """zarr-python's mask selection: a boolean array of the array's shape."""
    mask = np.asarray(mask)
    if mask.dtype != bool or mask.shape != tuple(shape):
        raise InvalidSelectionError(f"a mask selection is a boolean array of shape {tuple(shape)}, "
                                    f"got {mask.dtype} of shape {mask.shape}")
    indices = _as_outer_product(mask)
    return MaskAsOrthogonalPlan(indices) if indices is not None else _points_plan([mask], shape)


def block_plan(key, shape, chunks):
    """zarr-python's block selection: integers and slices (step 1) over the chunk grid.
    Each entry of chunks is an axis's chunk extent, or (a rectilinear grid) the axis's
    chunk boundaries as Array.chunk_boundaries gives them."""
    items, _ = _expand(key, len(shape))
    regions = []
    for axis, (item, length, chunk) in enumerate(zip(items, shape, chunks)):
        if isinstance(chunk, tuple):
            blocks, begin = len(chunk) - 1, chunk.__getitem__
        else:
            blocks, begin = -(-length // chunk), lambda block, chunk=chunk, length=length: min(block * chunk, length)
        if isinstance(item, slice):
            start, stop, step = item.indices(blocks)
            if step != 1:
                raise InvalidSelectionError(f"axis {axis}: block selection takes slices of step 1")
            regions.append(slice(begin(start), begin(max(stop, start))))
        else:
            block = _in_bounds(_integer(item, axis), blocks, axis)
            regions.append(slice(begin(block), begin(block + 1)))
    return plan(tuple(regions), shape)


def _expand(key, ndim):
    """The key as one item per array axis, None items kept, ``...`` expanded."""
    items = list(key) if isinstance(key, tuple) else [key]
    ellipses = sum(item is Ellipsis for item in items)
    if ellipses > 1:
        raise InvalidSelectionError("an index can only have a single ellipsis ('...')")
    if any(isinstance(item, (bool, np.bool_)) for item in items):
        raise InvalidSelectionError("a boolean scalar is not an index (use a boolean array as a mask)")
    indexing = sum(_axes_consumed(item) for item in items)
    if indexing > ndim:
        raise InvalidSelectionError(
            f"too many indices: the array has {ndim} dimensions but {indexing} were indexed")
    if ellipses:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (ndim - indexing)
    else:
        items += [slice(None)] * (ndim - indexing)
    return items, bool(ellipses)


def _axes_consumed(item):
    """Array axes an item indexes: none for None and ..., a mask's rank, else one."""
    if item is None or item is Ellipsis:
        return 0
    if isinstance(item, (list, np.ndarray)):
        array = np.asarray(item)
        return array.ndim if array.dtype == bool and array.ndim else 1
    return 1


def _is_array_like(item):
    return isinstance(item, (list, np.ndarray)) and not (isinstance(item, np.ndarray) and item.ndim == 0)


def _region_plan(items, shape, has_ellipsis):
    start, count, step, flips, dropped, new_axes = [], [], [], [], [], []
    axis = 0
    for position, item in enumerate(items):
        if item is None:
            new_axes.append(position - len(dropped))
            continue
        length = shape[axis]
        if isinstance(item, slice):
            first, n, stride = _slice_run(item, length)
            start.append(first)
            count.append(n)
            step.append(abs(stride))
            if stride < 0:
                flips.append(axis)
        else:
            start.append(_in_bounds(_integer(item, axis), length, axis))
            count.append(1)
            step.append(1)
            dropped.append(axis)
        axis += 1
    scalar = not has_ellipsis and not new_axes and len(dropped) == len(shape)
    return RegionPlan(start, count, step, tuple(flips), tuple(dropped), tuple(new_axes), scalar)


def _slice_run(item, length):
    """(first element read, count, step) of a slice; a negative step reads from its last element."""
    try:
        start, stop, step = item.indices(length)
    except ValueError as exc:  # a zero step
        raise InvalidSelectionError(str(exc)) from None
    # Python integers throughout: len(range(...)) stops at 2^63 - 1 elements.
    count = max(0, (stop - start + step - 1) // step) if step > 0 else max(0, (start - stop - step - 1) // -step)
    if count == 0:
        return 0, 0, 1
    if step > 0:
        return start, count, step
    return start + (count - 1) * step, count, step


def _orthogonal_plan(items, shape):
    indices, dropped, new_axes = [], [], []
    axis = 0
    for position, item in enumerate(items):
        if item is None:
            new_axes.append(position - len(dropped))
            continue
        length = shape[axis]
        if isinstance(item, slice):
            first, n, stride = _slice_run(item, length)
            run = _run(first, n, abs(stride))
            indices.append(run[::-1] if stride < 0 else run)
        elif _is_array_like(item):
            indices.append(_index_array(item, length, axis))
        else:
            indices.append(np.array([_in_bounds(_integer(item, axis), length, axis)], dtype=np.uint64))
            dropped.append(axis)
        axis += 1
    return OrthogonalPlan(indices, tuple(dropped), tuple(new_axes))


def _points_plan(items, shape):
    """Coordinates of every selected element, laid out as NumPy lays out the result.

    Each axis's coordinates come from indexing a broadcast (zero-stride) view
    of that axis's positions with the key itself, so the layout is NumPy's
    for any mix of arrays, masks, slices, integers and None.
    """
    if items and all(_is_integer_key(item) for item in items) and len(items) == len(shape):
        return _integer_points_plan(items, shape)
    key = tuple(_as_index(item, axis) for axis, item in enumerate(items))
    coords = []
    try:
        for axis, length in enumerate(shape):
            positions = np.arange(length, dtype=np.int64).reshape((-1,) + (1,) * (len(shape) - axis - 1))
            coords.append(np.broadcast_to(positions, shape)[key])
    except IndexError as exc:
        error = OutOfBoundsError if "out of bounds" in str(exc) else InvalidSelectionError
        raise error(str(exc)) from None
    result_shape = coords[0].shape if coords else ()
    stacked = np.stack([c.reshape(-1) for c in coords], axis=1) if coords else np.zeros((1, 0), np.int64)
    return PointsPlan(stacked.astype(np.uint64), result_shape)


def _is_integer_key(item):
    if _is_array_like(item):
        return np.asarray(item).dtype != bool
    return item is not None and not isinstance(item, slice)


def _integer_points_plan(items, shape):
    """Points named by integers and integer arrays only (coordinate selection): their
    positions broadcast together, without a table of every position of each axis (axes
    of 2^63 elements and more have none)."""
    positions = [_wrapped(item if _is_array_like(item) else [_integer(item, axis)], length, axis)
                 .reshape(np.shape(item)) for axis, (item, length) in enumerate(zip(items, shape))]
    try:
        broadcast = np.broadcast_arrays(*positions)
    except ValueError as exc:
        raise InvalidSelectionError(str(exc)) from None
    result_shape = broadcast[0].shape
    return PointsPlan(np.stack([b.reshape(-1) for b in broadcast], axis=1), result_shape)


def _run(first, n, stride):
    """first, first + stride, ... (n of them) as uint64, exact up to 2^64 - 1."""
    if n <= 1:
        return np.full(n, first, dtype=np.uint64)
    return np.uint64(first) + np.uint64(stride) * np.arange(n, dtype=np.uint64)


def _as_index(item, axis):
    """A key item NumPy can index with (lists become arrays; others are checked)."""
    if item is None or isinstance(item, slice):
        return item
    if _is_array_like(item):
        array = np.asarray(item)
        if array.size and array.dtype.kind not in "iub":
            raise InvalidSelectionError(f"axis {axis}: index arrays must hold integers or booleans, "
                                        f"not {array.dtype}")
        if array.dtype.kind == "u" and array.size:
            return array  # never cast to intp: 2^63 and more would wrap and count from the end
        return array.astype(np.intp) if array.dtype.kind in "iu" or array.size == 0 else array
    return _integer(item, axis)


def _integer(item, axis):
    try:
        return operator.index(item)
    except TypeError:
        raise InvalidSelectionError(
            f"axis {axis}: {item!r} is not an index: use integers, slices, '...', None, "
            "integer arrays or boolean masks") from None


def _index_array(item, length, axis):
    """Integer positions (negatives wrapped, bounds checked) of a 1-D index array or mask."""
    array = np.asarray(item)
    if array.ndim != 1:
        raise InvalidSelectionError(f"axis {axis}: orthogonal index arrays and masks must be "
                                    "one-dimensional")
    if array.dtype == bool:
        if len(array) != length:
            raise InvalidSelectionError(
                f"axis {axis}: boolean mask of length {len(array)} for an axis of length {length}")
        return np.flatnonzero(array).astype(np.uint64)
    return _wrapped(item, length, axis)


def _wrapped(item, length, axis):
    """Integer positions (any shape) as uint64, negatives counted from the end;
    OutOfBoundsError outside. Exact over the whole uint64 range: indices of 2^63 and more
    are never cast to int64 (where they would wrap and count from the end), and a list
    NumPy would turn into floats (2**63 + 5 beside -1) is read as Python integers."""
    array = np.asarray(item)
    if not isinstance(item, np.ndarray) and array.dtype.kind in "fO":
        as_objects = np.array(item, dtype=object)
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in as_objects.reshape(-1)):
            array = as_objects  # Python integers NumPy could not hold in one integer type
    if array.size == 0:
        return np.empty(array.shape, dtype=np.uint64)
    if array.dtype == object:
        flat = [_in_bounds(_integer(v, axis), length, axis) for v in array.reshape(-1)]
        return np.array(flat, dtype=np.uint64).reshape(array.shape)
    if array.dtype.kind not in "iu":
        raise InvalidSelectionError(f"axis {axis}: index arrays must hold integers, not {array.dtype}")
    big = np.uint64(length)
    if array.dtype.kind == "u":
        magnitude, negative = array.astype(np.uint64), np.zeros(array.shape, dtype=bool)
    else:
        signed = array.astype(np.int64)
        negative = signed < 0
        # |x| without overflow at -2^63: -(x + 1) fits, then one more.
        magnitude = np.where(negative, (-(signed + 1)).astype(np.uint64) + np.uint64(1), signed.astype(np.uint64))
    outside = np.where(negative, magnitude > big, magnitude >= big)
    if outside.any():
        bad = array.reshape(-1)[np.flatnonzero(outside.reshape(-1))[0]]
        raise OutOfBoundsError(f"index {bad} is out of bounds for axis {axis} with size {length}")
    return np.where(negative, big - np.minimum(magnitude, big), magnitude).astype(np.uint64)


def _in_bounds(index, length, axis):
    """An integer index with negatives counted from the end; OutOfBoundsError outside."""
    wrapped = index + length if index < 0 else index
    if not 0 <= wrapped < length:
        raise OutOfBoundsError(f"index {index} is out of bounds for axis {axis} with size {length}")
    return wrapped
