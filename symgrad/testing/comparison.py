"""``torch.testing.assert_close``: are two (nested) results close, with torch's rules and message.

Layer: front end (torch.testing mirror). Input: ``actual`` and ``expected``, each a tensor, a
NumPy array, a Python or NumPy number, a bool, None, or a sequence or mapping of these (nested
as deep as wanted), and torch's options. Output: nothing, or the error torch raises:
``AssertionError`` for values, shapes or dtypes that differ, ``TypeError`` for inputs that
cannot be compared, ``ValueError`` for ``rtol`` given without ``atol``; its text is torch's
("Tensor-likes are not close!", the mismatched elements, the greatest absolute and relative
differences and where they are, the item of a nested input that failed).

Closeness is torch's: ``|actual - expected| <= atol + |rtol * expected|`` in the tensors'
dtype (integers in the default float dtype), infinities close only to themselves, NaNs only
with ``equal_nan``. The default tolerances depend on the dtypes (the loosest of the two):
float16 (1e-3, 1e-5), float32 (1.3e-6, 1e-5), float64 (1e-7, 1e-7), integers and bool exact.
"""

from __future__ import annotations

import cmath
import collections.abc
import warnings
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import dtypes
from ..frontend.core.tensor import Tensor, tensor
from ..frontend.functions.assorted import promote_types
from ..frontend.functions.creation import as_tensor

# {dtype: (rtol, atol)}; any other dtype compares exactly
_PRECISIONS = {dtypes.float16: (0.001, 1e-5), dtypes.float32: (1.3e-6, 1e-5),
               dtypes.float64: (1e-7, 1e-7)}
# Python numbers compare as int64, float64 and complex128 do
_NUMBER_PRECISIONS = {int: (0.0, 0.0), float: (1e-7, 1e-7), complex: (1e-7, 1e-7)}
_NUMBER_TYPES = (int, float, complex, np.number)


class Mismatch(Exception):
    """One failed comparison: the exception type to raise, its text, and where it happened
    (the keys and indices of the nested inputs)."""

    def __init__(self, kind: type, msg: str, where: tuple = ()) -> None:
        super().__init__(msg)
        self.kind, self.msg, self.where = kind, msg, where

    def error(self, msg: str | Callable[[str], str] | None = None) -> Exception:
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.msg
        if self.where:
            text += "\n\nThe failure occurred for item " + \
                "".join(str([item]) for item in self.where)
        return self.kind(msg(text) if callable(msg) else text)


class _Unsupported(Exception):
    """This kind of comparison does not take these inputs: try the next one."""


def default_tolerances(*kinds) -> tuple[float, float]:
    """The loosest (rtol, atol) of the given tensors' or dtypes' defaults."""
    found = [_PRECISIONS.get(k.dtype if isinstance(k, Tensor) else k, (0.0, 0.0))
             for k in kinds]
    return max(r for r, _ in found), max(a for _, a in found)


def tolerances(*kinds, rtol, atol, where: tuple = ()) -> tuple[float, float]:
    if (rtol is None) ^ (atol is None):
        raise Mismatch(ValueError, f"Both 'rtol' and 'atol' must be either specified or "
                                   f"omitted, but got no {'rtol' if rtol is None else 'atol'}.",
                       where)
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*kinds)


# ---------------------------------------------------------------- messages

def mismatch_text(name: str, extra: str, diffs: list, rtol: float, atol: float) -> str:
    """torch's message: a header, ``extra``, then the absolute and relative difference lines
    (``diffs``: (difference, index or None) for each)."""
    equality = rtol == 0 and atol == 0
    lines = [f"{name} are not {'equal' if equality else 'close'}!", "", extra.strip()]
    for kind, (diff, where), tol in zip(("absolute", "relative"), diffs, (atol, rtol)):
        line = f"{kind.title()} difference: {diff}" if where is None else \
            f"Greatest {kind} difference: {diff} at index {where}"
        lines.append(line if equality else f"{line} (up to {tol} allowed)")
    return "\n".join(lines).strip()


def scalar_text(actual, expected, rtol: float, atol: float) -> str:
    diff = abs(actual - expected)
    rel = float("inf") if expected == 0 else diff / abs(expected)
    return mismatch_text("Scalars", f"Expected {expected} but got {actual}.",
                         [(diff, None), (rel, None)], rtol, atol)


def _unravel(flat: int, shape: tuple) -> tuple:
    return tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()


def tensor_text(actual: np.ndarray, expected: np.ndarray, matches: np.ndarray,
                rtol: float, atol: float) -> str:
    """The mismatch statistics of two arrays of one dtype and shape, as torch words them."""
    total, bad = matches.size, int(matches.size - np.count_nonzero(matches))
    extra = f"Mismatched elements: {bad} / {total} ({bad / total:.1%})"
    a, e, ok = actual.reshape(-1), expected.reshape(-1), matches.reshape(-1)
    if a.dtype.kind not in "fc":
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e)
        abs_diff[ok] = 0
        denominator = np.abs(e)
        if a.dtype.kind not in "fc":   # integers divide to the default float dtype
            real = dtypes.get_default_dtype().np
            abs_diff_f, denominator = abs_diff.astype(real), denominator.astype(real)
        else:
            abs_diff_f = abs_diff
        rel_diff = abs_diff_f / denominator
    rel_diff[ok] = 0
    i, j = int(np.argmax(abs_diff)), int(np.argmax(rel_diff))
    return mismatch_text("Tensor-likes", extra,
                         [(abs_diff[i].item(), _unravel(i, matches.shape)),
                          (rel_diff[j].item(), _unravel(j, matches.shape))], rtol, atol)


def close(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float,
          equal_nan: bool) -> np.ndarray:
    """torch.isclose on arrays of one dtype."""
    with np.errstate(all="ignore"):
        matches = np.asarray(actual == expected)
        if equal_nan and actual.dtype.kind in "fc":
            matches = matches | (np.isnan(actual) & np.isnan(expected))
        if rtol == 0 and atol == 0:
            return matches
        if actual.dtype.kind not in "fc":
            real = dtypes.get_default_dtype().np
            actual, expected = actual.astype(real), expected.astype(real)
        allowed = atol + np.abs(rtol * expected)
        error = np.abs(actual - expected)
        return matches | (np.isfinite(error) & (error <= allowed))


# ---------------------------------------------------------------- one pair of leaves

def _none_pair(actual, expected, where: tuple, options: dict) -> Callable[[], None]:
    if not (actual is None or expected is None):
        raise _Unsupported

    def compare() -> None:
        if not (actual is None and expected is None):
            raise Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", where)
    return compare


def _bool_pair(actual, expected, where: tuple, options: dict) -> Callable[[], None]:
    if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
        raise _Unsupported
    actual, expected = bool(actual), bool(expected)

    def compare() -> None:
        if actual is not expected:
            raise Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}",
                           where)
    return compare


def _number_kind(x) -> type:
    return complex if isinstance(x, complex) else float if isinstance(x, float) else int


def _number_pair(actual, expected, where: tuple, options: dict) -> Callable[[], None]:
    if not all(isinstance(x, _NUMBER_TYPES) for x in (actual, expected)):
        raise _Unsupported
    actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    if (options["rtol"] is None) ^ (options["atol"] is None):
        tolerances(rtol=options["rtol"], atol=options["atol"], where=where)
    found = [_NUMBER_PRECISIONS[_number_kind(x)] for x in (actual, expected)]
    rtol, atol = (options["rtol"], options["atol"]) if options["rtol"] is not None else \
        (max(r for r, _ in found), max(a for _, a in found))

    def compare() -> None:
        if options["check_dtype"] and type(actual) is not type(expected):
            raise Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != "
                                           f"{type(expected)}.", where)
        if actual == expected or (options["equal_nan"] and cmath.isnan(actual)
                                  and cmath.isnan(expected)):
            return
        diff = abs(actual - expected)
        if cmath.isfinite(diff) and diff <= atol + rtol * abs(expected):
            return
        raise Mismatch(AssertionError, scalar_text(actual, expected, rtol, atol), where)
    return compare


def _as_compared_tensor(x) -> Tensor:
    if isinstance(x, Tensor):
        return x
    try:
        return as_tensor(x)
    except Exception:
        raise _Unsupported from None


def _attributes(actual: Tensor, expected: Tensor, where: tuple, options: dict) -> None:
    """Shape, then (as asked) strides and dtype: torch's order and words."""
    checks = [("shape", lambda t: t.shape, True),
              ("stride()", _strides, options["check_stride"]),
              ("device", lambda t: t.device, options["check_device"]),
              ("dtype", lambda t: t.dtype, options["check_dtype"])]
    for name, read, wanted in checks:
        a, e = (read(actual), read(expected)) if wanted else (None, None)
        if a != e:
            raise Mismatch(AssertionError, f"The values for attribute '{name}' do not match: "
                                           f"{a} != {e}.", where)


def _strides(t: Tensor) -> tuple:
    value = t.detach().numpy()
    return tuple(s // value.itemsize for s in value.strides)


def _tensor_pair(actual, expected, where: tuple, options: dict) -> Callable[[], None]:
    related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
    if not related or (not options["allow_subclasses"] and type(actual) is not type(expected)):
        raise _Unsupported
    actual, expected = _as_compared_tensor(actual), _as_compared_tensor(expected)
    rtol, atol = tolerances(actual, expected, rtol=options["rtol"], atol=options["atol"],
                            where=where)

    def compare() -> None:
        _attributes(actual, expected, where, options)
        a, e = actual.detach(), expected.detach()
        if a.dtype != e.dtype:
            common = promote_types(a.dtype, e.dtype)
            a, e = a.to(common), e.to(common)
        a, e = np.asarray(a.numpy()), np.asarray(e.numpy())
        matches = close(a, e, rtol, atol, options["equal_nan"])
        if matches.all():
            return
        text = scalar_text(a.item(), e.item(), rtol, atol) if a.shape == () else \
            tensor_text(a, e, matches, rtol, atol)
        raise Mismatch(AssertionError, text, where)
    return compare


_PAIRS = (_none_pair, _bool_pair, _number_pair, _tensor_pair)


# ---------------------------------------------------------------- nested inputs

def _is_sequence(x) -> bool:
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def pairs(actual, expected, where: tuple, options: dict) -> list:
    """The comparisons of the leaves of two nested inputs (sequences elementwise, mappings
    key by key), in torch's order; a structure that differs raises at once."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise Mismatch(AssertionError, f"The length of the sequences mismatch: "
                                           f"{len(actual)} != {len(expected)}", where)
        return [c for k in range(len(actual))
                for c in pairs(actual[k], expected[k], (*where, k), options)]
    if isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        return _mapping_pairs(actual, expected, where, options)
    for kind in _PAIRS:
        try:
            return [kind(actual, expected, where, options)]
        except _Unsupported:
            continue
    raise Mismatch(TypeError, f"No comparison pair was able to handle inputs of type "
                              f"{type(actual)} and {type(expected)}.", where)


def _mapping_pairs(actual, expected, where: tuple, options: dict) -> list:
    mine, theirs = set(actual.keys()), set(expected.keys())
    if mine != theirs:
        raise Mismatch(AssertionError, f"The keys of the mappings do not match:\n"
                                       f"Missing keys in the actual mapping: "
                                       f"{sorted(theirs - mine)}\n"
                                       f"Additional keys in the actual mapping: "
                                       f"{sorted(mine - theirs)}", where)
    try:
        keys = sorted(mine)
    except TypeError:
        keys = list(mine)
    return [c for k in keys for c in pairs(actual[k], expected[k], (*where, k), options)]


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = False, check_device: bool = True, check_dtype: bool = True,
                 check_layout: bool = True, check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None:
    """Raise torch's error if ``actual`` and ``expected`` are not close (see the module)."""
    __tracebackhide__ = True
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol,
                   equal_nan=equal_nan, check_device=check_device, check_dtype=check_dtype,
                   check_stride=check_stride)
    try:
        comparisons = pairs(actual, expected, (), options)
    except Mismatch as failure:
        raise failure.error() from None
    for compare in comparisons:
        try:
            compare()
        except Mismatch as failure:
            raise failure.error(msg) from None


# assert_allclose's own defaults (deprecated since torch 1.12)
_ALLCLOSE_PRECISIONS = {dtypes.float16: (1e-3, 1e-3), dtypes.float32: (1e-4, 1e-5),
                        dtypes.float64: (1e-5, 1e-8)}


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None,
                    atol: float | None = None, equal_nan: bool = True, msg: str = "") -> None:
    """The deprecated ``torch.testing.assert_allclose``: ``assert_close`` with looser default
    tolerances, NaNs equal and dtypes promoted."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in a future release. Please use `torch.testing.assert_close()` "
                  "instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning,
                  stacklevel=2)
    actual = actual if isinstance(actual, Tensor) else tensor(actual)
    expected = expected if isinstance(expected, Tensor) else tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        found = [_ALLCLOSE_PRECISIONS.get(t.dtype, (0.0, 0.0)) for t in (actual, expected)]
        rtol, atol = max(r for r, _ in found), max(a for _, a in found)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)
