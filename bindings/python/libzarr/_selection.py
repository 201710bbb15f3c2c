"""Turn NumPy-style indices into the hyper-rectangular regions the C API reads.

The C API moves hyper-rectangles (start, count) only. A selection is planned
axis by axis (orthogonal indexing, as zarr-python's ``oindex``):

- an integer or a slice of step 1 is one run of the axis;
- a slice with another step is its bounding run (first to last element); the
  result is a strided view of it (``[::step]``), so a step of k reads k times
  the elements it returns along that axis;
- an integer array or a boolean mask becomes the runs of consecutive indices
  among its sorted distinct values, then ``take`` puts them in the asked order
  (repeats included).

The runs of every axis laid end to end form the *compact* array; each
combination of one run per axis is one C call, which reads into (or writes
from) its part of the compact array through byte strides. When no axis needs
a view or a take, the compact array is the caller's result (or ``out=``)
itself, so the data lands where it belongs without a copy.
"""
import itertools
import operator

import numpy as np

from .errors import InvalidSelectionError, OutOfBoundsError


class AxisPlan:
    """How one axis of a selection maps onto runs of the array's axis.

    Attributes:
        runs: (start, count) intervals of the array's axis, ascending; laid end to
            end they make this axis of the compact array.
        pick: how the result's axis comes from the compact axis: None (as is), a
            slice (a step or a reversal) or an integer array (np.take).
        drop: the axis was indexed by an integer and leaves the result.
        covers: every element of the runs is selected. False for the bounding run
            of a step slice, which a write must read first to keep the rest.
    """

    def __init__(self, runs, pick=None, drop=False, covers=True):
        self.runs = runs
        self.pick = pick
        self.drop = drop
        self.covers = covers

    @property
    def compact_length(self):
        """Length of this axis in the compact array."""
        return sum(count for _, count in self.runs)

    @property
    def result_length(self):
        """Length of this axis in the result (before an integer index drops it)."""
        if self.pick is None:
            return self.compact_length
        if isinstance(self.pick, slice):
            return len(range(*self.pick.indices(self.compact_length)))
        return len(self.pick)


class Selection:
    """A planned selection of an array of a given shape.

    Args:
        key: what ``__getitem__`` received.
        shape: the array's shape.
        orthogonal: allow integer arrays or masks on several axes (``oindex``).
            Plain indexing allows one, where orthogonal and NumPy's pointwise
            indexing agree, so ``a[[0, 1], [2, 3]]`` cannot silently mean
            something else than in NumPy.
    """

    def __init__(self, key, shape, orthogonal=False):
        items, self.has_ellipsis = _expand_key(key, len(shape))
        self.axes = [_plan_axis(item, length, axis) for axis, (item, length)
                     in enumerate(zip(items, shape))]
        if sum(map(_is_array_index, items)) > 1 and not orthogonal:
            raise InvalidSelectionError(
                "integer arrays or masks on several axes: use a.oindex[...] for "
                "orthogonal indexing (NumPy's pointwise indexing is not offered)")

    @property
    def shape(self):
        """Shape of the result."""
        return tuple(plan.result_length for plan in self.axes if not plan.drop)

    @property
    def compact_shape(self):
        """Shape of the compact array the runs fill."""
        return tuple(plan.compact_length for plan in self.axes)

    @property
    def dropped_axes(self):
        """Axes indexed by an integer (length 1 in the compact array)."""
        return tuple(axis for axis, plan in enumerate(self.axes) if plan.drop)

    @property
    def is_direct(self):
        """The compact array is the result, with the dropped axes put back."""
        return all(plan.pick is None for plan in self.axes)

    @property
    def covers_runs(self):
        """Every element of every run is selected: a write need not read first."""
        return all(plan.covers for plan in self.axes)

    @property
    def is_scalar(self):
        """Every axis taken by an integer and no ``...``: NumPy returns a scalar."""
        return not self.has_ellipsis and all(plan.drop for plan in self.axes)

    def blocks(self):
        """(start, count, compact slices) of each C call: one run per axis."""
        per_axis = [_runs_with_offsets(plan.runs) for plan in self.axes]
        for combination in itertools.product(*per_axis):
            start = tuple(start for start, _, _ in combination)
            count = tuple(count for _, count, _ in combination)
            # The trailing ... keeps compact[where] a view even for a 0-d array.
            where = tuple(slice(offset, offset + count) for _, count, offset in combination) + (...,)
            yield start, count, where

    def as_compact(self, result):
        """A view of a result-shaped array with the dropped axes put back (length 1)."""
        return np.expand_dims(result, self.dropped_axes) if self.dropped_axes else result

    def result_from_compact(self, compact):
        """The result: the compact array with each axis's pick applied, integers dropped.

        Always an array (0-d when every axis is dropped), never a NumPy scalar.
        """
        view = compact[tuple(plan.pick if isinstance(plan.pick, slice) else slice(None)
                             for plan in self.axes)]
        for axis, plan in enumerate(self.axes):
            if isinstance(plan.pick, np.ndarray):
                view = np.take(view, plan.pick, axis=axis)
        return view[tuple(0 if plan.drop else slice(None) for plan in self.axes) + (...,)]

    def assign_to_compact(self, compact, value):
        """Put a result-shaped value where the selection's elements are in compact."""
        value = self.as_compact(value)
        picks = [slice(None) if plan.pick is None else plan.pick for plan in self.axes]
        if not any(isinstance(pick, np.ndarray) for pick in picks):
            compact[tuple(picks)] = value
            return
        # An open mesh of per-axis positions keeps several index arrays orthogonal.
        positions = [np.arange(plan.compact_length)[pick] for plan, pick in zip(self.axes, picks)]
        compact[np.ix_(*positions)] = value


def _expand_key(key, ndim):
    """The key as one item per axis (``...`` and missing trailing axes become ``:``)."""
    items = list(key) if isinstance(key, tuple) else [key]
    ellipses = sum(item is Ellipsis for item in items)
    if ellipses > 1:
        raise InvalidSelectionError("an index can only have a single ellipsis ('...')")
    if ellipses:
        at = next(i for i, item in enumerate(items) if item is Ellipsis)
        items[at:at + 1] = [slice(None)] * (ndim - len(items) + 1)
    if len(items) > ndim:
        raise InvalidSelectionError(
            f"too many indices: the array has {ndim} dimensions but {len(items)} were indexed")
    return items + [slice(None)] * (ndim - len(items)), bool(ellipses)


def _plan_axis(item, length, axis):
    """The AxisPlan of one index item along an axis of the given length."""
    if isinstance(item, slice):
        return _plan_slice(item, length)
    if _is_array_index(item):
        return _plan_indices(_index_array(item, length, axis), length, axis)
    if isinstance(item, (bool, np.bool_)) or item is None:
        raise InvalidSelectionError(
            f"axis {axis}: {item!r} is not an index (new axes and scalar masks are not offered)")
    try:
        index = operator.index(item)
    except TypeError:
        raise InvalidSelectionError(
            f"axis {axis}: {item!r} is not an index: use integers, slices, '...', "
            "integer arrays or boolean masks") from None
    return AxisPlan([(_in_bounds(index, length, axis), 1)], drop=True)


def _plan_slice(item, length):
    """Runs and pick of a slice: one run; a step or reversal becomes a view of it."""
    try:
        start, stop, step = item.indices(length)
    except ValueError as exc:  # a zero step
        raise InvalidSelectionError(str(exc)) from None
    count = len(range(start, stop, step))
    if count <= 1 or step == 1:
        return AxisPlan([(start if count else 0, count)])
    last = start + (count - 1) * step
    low, high = min(start, last), max(start, last)
    # Positive steps begin at the run's first element, negative ones at its last.
    return AxisPlan([(low, high - low + 1)], pick=slice(None, None, step), covers=abs(step) == 1)


def _plan_indices(indices, length, axis):
    """Runs of consecutive distinct indices; a take restores order and repeats."""
    distinct, order = np.unique(indices, return_inverse=True)
    breaks = np.flatnonzero(np.diff(distinct) != 1) + 1
    starts = distinct[np.r_[0, breaks]] if len(distinct) else []
    counts = np.diff(np.r_[0, breaks, len(distinct)]) if len(distinct) else []
    runs = [(int(s), int(c)) for s, c in zip(starts, counts)]
    already_sorted = np.array_equal(distinct, indices)  # ascending, no repeats
    return AxisPlan(runs, pick=None if already_sorted else order.astype(np.intp))


def _is_array_index(item):
    """A list, tuple or array used as integer indices or a mask along one axis."""
    return isinstance(item, (list, np.ndarray)) and not (isinstance(item, np.ndarray) and item.ndim == 0)


def _index_array(item, length, axis):
    """Integer positions (negatives wrapped, bounds checked) of an index array or mask."""
    array = np.asarray(item)
    if array.ndim != 1:
        raise InvalidSelectionError(f"axis {axis}: index arrays and masks must be one-dimensional")
    if array.dtype == bool:
        if len(array) != length:
            raise InvalidSelectionError(
                f"axis {axis}: boolean mask of length {len(array)} for an axis of length {length}")
        return np.flatnonzero(array)
    if array.size == 0:
        return np.empty(0, dtype=np.int64)
    if array.dtype.kind not in "iu":
        raise InvalidSelectionError(f"axis {axis}: index arrays must hold integers, not {array.dtype}")
    array = array.astype(np.int64)
    wrapped = np.where(array < 0, array + length, array)
    outside = (wrapped < 0) | (wrapped >= length)
    if outside.any():
        bad = array[outside][0]
        raise OutOfBoundsError(f"index {bad} is out of bounds for axis {axis} with size {length}")
    return wrapped


def _in_bounds(index, length, axis):
    """An integer index with negatives counted from the end; OutOfBoundsError outside."""
    wrapped = index + length if index < 0 else index
    if not 0 <= wrapped < length:
        raise OutOfBoundsError(f"index {index} is out of bounds for axis {axis} with size {length}")
    return wrapped


def _runs_with_offsets(runs):
    """(start, count, offset in the compact axis) of each run."""
    offset = 0
    placed = []
    for start, count in runs:
        placed.append((start, count, offset))
        offset += count
    return placed
