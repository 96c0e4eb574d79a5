"""Tensor text the way torch prints it: ``tensor([[3., 3.],\\n        [3., 3.]], grad_fn=<...>)``.

Layer: front end. Input: a tensor. Output: its repr. Follows torch's formatter: integer-valued
floats print as ``3.``, others with 4 decimals, or in scientific notation when the magnitudes
span more than 1000x (or exceed 1e8, or go below 1e-4); all elements share one width; rows wrap
at 80 columns.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ... import dtypes
from ...ir.graph import type_str


class _Options:
    """The print options (``set_printoptions``), torch's defaults."""
    precision = 4
    threshold = 1000     # summarize tensors with more elements than this
    edgeitems = 3
    linewidth = 80
    sci_mode = None      # None: decide per tensor; True/False: always/never scientific


OPTIONS = _Options()
_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80),
             "full": (4, math.inf, 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """``torch.set_printoptions``: digits after the point, summarization, line width."""
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"set_printoptions: profile must be one of {sorted(_PROFILES)}")
        (OPTIONS.precision, OPTIONS.threshold, OPTIONS.edgeitems,
         OPTIONS.linewidth) = _PROFILES[profile]
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(OPTIONS, name, value)
    OPTIONS.sci_mode = sci_mode


def _float_formatter(values: np.ndarray):
    finite = values[np.isfinite(values)]
    nonzero = np.abs(finite[finite != 0]).astype(np.float64)
    int_mode = bool(np.all(np.ceil(finite) == finite))
    sci = False
    if nonzero.size:
        lo, hi = nonzero.min(), nonzero.max()
        if int_mode:
            sci = hi / lo > 1000.0 or hi > 1.0e8
        else:
            sci = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
    if OPTIONS.sci_mode is not None:
        sci = OPTIONS.sci_mode
    p = OPTIONS.precision
    if sci:
        fmt = f"{{:.{p}e}}".format
    elif int_mode:
        def fmt(v):
            return f"{v:.0f}." if math.isfinite(v) else f"{v}"
    else:
        fmt = f"{{:.{p}f}}".format

    def one(v: float) -> str:
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return fmt(v)
    return one


def _formatter(values: np.ndarray, dtype: dtypes.DType):
    if dtype.is_floating:
        return _float_formatter(values.astype(np.float64))
    if dtype is dtypes.bool_:
        return lambda v: "True" if v else "False"
    return lambda v: str(int(v))


def _summarized(arr: np.ndarray) -> np.ndarray:
    """The elements that will be shown (edges only for big tensors)."""
    if arr.size <= OPTIONS.threshold or arr.ndim == 0:
        return arr.reshape(-1)
    parts = []

    def walk(a):
        if a.ndim == 1:
            parts.append(a if a.shape[0] <= 2 * OPTIONS.edgeitems
                         else np.concatenate([a[:OPTIONS.edgeitems], a[-OPTIONS.edgeitems:]]))
            return
        rows = range(a.shape[0]) if a.shape[0] <= 2 * OPTIONS.edgeitems else \
            list(range(OPTIONS.edgeitems)) + list(range(a.shape[0] - OPTIONS.edgeitems, a.shape[0]))
        for i in rows:
            walk(a[i])
    walk(arr)
    return np.concatenate(parts)


def _width(shown: np.ndarray, dtype: dtypes.DType, fmt) -> int:
    """The width every element is padded to. Like torch, a float tensor measures only its
    nonzero finite elements, so zeros, infs and NaNs neither widen the others nor get padded
    when they are the longest: ``tensor([0., -inf])``, not ``tensor([  0., -inf])``."""
    if dtype.is_floating:
        values = shown.astype(np.float64)
        shown = values[np.isfinite(values) & (values != 0)]
    return max((len(fmt(v)) for v in shown.tolist()), default=1)


def format_array(arr: np.ndarray, dtype: dtypes.DType, indent: int) -> str:
    if dtype.is_complex:
        fmt, width, step = _complex_element(arr)
    else:
        fmt = _formatter(_summarized(arr), dtype)
        width = step = _width(_summarized(arr), dtype, fmt) if arr.ndim else 0
    if arr.ndim == 0:
        return fmt(arr.item()).rjust(width)
    summarize = arr.size > OPTIONS.threshold

    def rec(a: np.ndarray, level: int) -> str:
        if a.ndim == 1:
            items = [fmt(v).rjust(width) for v in a.tolist()]
            if summarize and len(items) > 2 * OPTIONS.edgeitems:
                # torch's elided run inside a row is " ...": two spaces after the comma
                items = items[:OPTIONS.edgeitems] + [" ..."] + items[-OPTIONS.edgeitems:]
            per_line = max(1, (OPTIONS.linewidth - indent - level) // (step + 2))
            lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
            return "[" + (",\n" + " " * (indent + level + 1)).join(lines) + "]"
        n = a.shape[0]
        idx = range(n)
        if summarize and n > 2 * OPTIONS.edgeitems:
            idx = list(range(OPTIONS.edgeitems)) + [None] + list(range(n - OPTIONS.edgeitems, n))
        sep = "," + "\n" * (a.ndim - 1) + " " * (indent + level + 1)
        rows = ["..." if i is None else rec(a[i], level + 1) for i in idx]
        return "[" + sep.join(rows) + "]"
    return rec(arr, 0)


def _complex_element(arr: np.ndarray):
    """torch's complex elements: the real parts formatted and padded as a real tensor's, the
    imaginary parts formatted alike, unpadded, signed and followed by ``j``: ``1.+2.j``."""
    shown = _summarized(arr)
    real, imag = shown.real.astype(np.float64), shown.imag.astype(np.float64)
    fr, fi = _float_formatter(real), _float_formatter(imag)
    float64 = dtypes.float64
    wr, wi = _width(real, float64, fr), _width(imag, float64, fi)

    def one(v: complex) -> str:
        re = fr(v.real).rjust(wr)
        im = (fi(v.imag).rjust(wi) + "j").lstrip()
        return re + im if im[0] in "+-" else re + "+" + im
    return one, 0, wr + wi + 1


def tensor_repr(t) -> str:
    suffix = []
    if t._value is None:
        body = f"<traced {type_str(t._node)}>"
    else:
        body = format_array(t._value, t.dtype, len("tensor("))
        if t.numel() == 0:
            body = "[]" if t.ndim == 1 else body
            if t.ndim != 1:
                suffix.append(f"size={tuple(t.shape)}")
    # An empty tensor has no elements to tell an int64 from a float, so torch names every
    # dtype but the default float there: tensor([], dtype=torch.int64).
    default = dtypes.get_default_dtype()
    implicit = (default,) if t.numel() == 0 and not t.is_traced \
        else (default, default.complex_dtype, dtypes.int64, dtypes.bool_)
    if t.dtype not in implicit:
        suffix.append(f"dtype=torch.{t.dtype.name}")
    if t.grad_fn is not None:
        suffix.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffix.append("requires_grad=True")
    return with_suffixes("tensor(" + body, suffix, len("tensor("))


def with_suffixes(text: str, suffixes: list, indent: int) -> str:
    """``text`` followed by ``, suffix`` items and the closing parenthesis; like torch, an item
    that would take the last line past the line width starts a new line, indented."""
    parts = [text]
    last = len(text) - text.rfind("\n") - 1
    for item in suffixes:
        if last + len(item) + 4 > OPTIONS.linewidth:
            parts.append(",\n" + " " * indent + item)
            last = indent + len(item)
        else:
            parts.append(", " + item)
            last += len(item) + 2
    return "".join(parts) + ")"


def return_type(name: str, fields=("values", "indices")):
    """A named tuple class like torch's ``torch.return_types.<name>`` (``x.max(1)``,
    ``sort``...), printed as torch prints it, one field per line."""
    base = namedtuple(name, fields)

    def __repr__(self) -> str:
        inner = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{inner})"
    return type(name, (base,), {"__slots__": (), "__repr__": __repr__})
