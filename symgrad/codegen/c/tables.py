"""Small constant arrays, printed into the loops that read them.

Layer: codegen (a helper of ``loops``). Input: a ``Program`` (its hidden constants and those of
its bodies' programs). Output: for each constant of at most ``TABLE_MAX`` elements of a real or
integer dtype, the C declaration of a ``static const`` copy that a loop declares in its body
and reads instead of the constant's pointer parameter. The pointer is still passed (the entry
point's signature does not change); the loops just do not read it.

Why: gcc knows a ``static const`` table's values, so once it unrolls a short loop over it, each
read is a number. GradBench's det at ell = 9 indexes a 9 x 9 matrix with a (362880, 9) table of
permutations, ``a.reshape(9, 9)[arange(9), perms]``: the row offsets ``arange(9) * 9`` are such
a constant, and with them known, gcc folds the offset into each address and proves one of the
two bound checks redundant. Measured (a C harness of that loop, gcc 12 -O3 -march=native, one
thread, the same bits): 3.1-3.2 ms with the offsets read through the pointer, 1.55-1.7 ms from
a ``static const`` table.

The values are part of the C text, so a build (keyed by the text) holds the values it was
made with; the artifact still passes its constants, which are the same values.
"""

from __future__ import annotations

import re

import numpy as np

from ...lower.control import ControlKernel
from ...lower.loopir import Buffer, Program
from .literals import FLOAT_FORMATS, c_literal, int_range

# Constants of at most this many elements are printed as tables: index offsets, strides and
# small masks. (Larger ones stay behind their pointer: their text would grow the C and gcc's
# time for no gain in folding.)
TABLE_MAX = 256


def small_tables(program: Program) -> dict:
    """id(buffer) -> (buffer, its values) for the constants of ``program`` and of its bodies'
    programs that are printed as tables."""
    found: dict = {}
    for buf, value in program.consts:
        arr = np.asarray(value)
        if arr.size <= TABLE_MAX and printable(buf) and not _nan_payloads(arr):
            found[id(buf)] = (buf, arr)
    for k in program.kernels:
        if isinstance(k, ControlKernel):
            for p in k.programs:
                found.update(small_tables(p))
    return found


def printable(buf: Buffer) -> bool:
    """Whether ``buf``'s dtype has exact C literals here (real floats, integers, bool)."""
    return buf.dtype.name in FLOAT_FORMATS or int_range(buf.dtype) is not None


def named(buf: Buffer, text: str) -> bool:
    """Whether C ``text`` still names ``buf``'s pointer (some reader of it is not a loop's
    load: then the pointer parameter is used, else the entry point voids it)."""
    return re.search(rf"\b{buf.name}\b", text) is not None


def _nan_payloads(arr: np.ndarray) -> bool:
    """Whether ``arr`` holds a NaN other than the quiet NaN C's ``NAN`` spells (either sign):
    a literal cannot keep its payload, the pointer does."""
    if arr.dtype.kind != "f" or not np.isnan(arr).any():
        return False
    bits = np.dtype(f"u{arr.dtype.itemsize}")
    sign = np.array(1, bits) << (8 * arr.dtype.itemsize - 1)
    nans = arr[np.isnan(arr)].view(bits) & ~sign
    return bool((nans != np.array([np.nan], arr.dtype).view(bits)).any())


def table_name(buf: Buffer) -> str:
    return f"{buf.name}_table"


def declaration(buf: Buffer, values: np.ndarray) -> str:
    """``static const <type> <name>[n] = {...};`` holding ``values`` exactly."""
    flat = values.reshape(-1)
    items = ", ".join(c_literal(v.item(), buf.dtype) for v in flat) or "0"
    return (f"static const {buf.dtype.ctype} {table_name(buf)}[{max(flat.size, 1)}] = "
            f"{{{items}}};")
