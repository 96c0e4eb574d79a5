"""The digest of a captured eager step's structure, the same in every process: the key its
compiled code is kept under on disk, so that a later process loads that code instead of
tracing, optimizing and generating C again (``replay``).

Layer: api, beside ``replay`` (which reads and writes the records), above the recorder's
entries (``frontend.core.lazy_ops`` says what they hold). Input: a step's entries, its
externals' metadata, its root and the results it keeps. Output: a hex key, or None where the
step holds something whose meaning another process cannot check: a rule or a value of the
program's own code. (In one process the trie keys such objects by identity; across processes
their code could be the same while the globals it reads differ, so they are not keyed: that
step is compiled in each process.)

What the key holds: every entry as plain data -- op names, attributes, the operands' wiring,
Python numbers by exact value, arrays by their bytes, symgrad's own rules by their file, name,
line and bytecode, library objects by their qualified names -- and the externals' shapes,
dtypes and flags; then symgrad's code (its files' sizes and times: an edited symgrad is
another compiler), Python's and NumPy's versions, the default dtype and the build target. The
compiled step depends on these alone: its trace reads nothing from outside (every tensor it
reads is an argument), so equal keys make equal C.
"""

from __future__ import annotations

import hashlib
import sys
import types

import numpy as np

from .. import dtypes
from ..config import PACKAGE_DIR
from ..frontend.core.lazy_ops import Code
from ..version import __version__
from .library import symgrad_source

# Part of every key: bumped when what a step record holds, or how entries are spelled here,
# changes meaning.
STEP_FORMAT = 1

_SCALARS = frozenset((str, int, float, bool, bytes, complex, type(None)))
_LIBRARIES = ("builtins", "math", "operator", "numpy", "symgrad")


class _Foreign(Exception):
    """Something in the step that has no meaning outside this process."""


def step_key(entries: list, metas: list, root: int, outs: tuple, target) -> str | None:
    """The key of a step (see the module docstring); None if it cannot have one."""
    try:
        body = repr((_plain(entries), _plain(metas), root, outs))
    except (_Foreign, RecursionError):
        return None
    h = hashlib.blake2b(digest_size=32)
    for part in (STEP_FORMAT, __version__, symgrad_source(), sys.version_info[:2],
                 np.__version__, dtypes.DEFAULT_FLOAT.name, repr(target), body):
        data = str(part).encode()
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _plain(x):
    """``x`` as nested tuples of Python scalars whose ``repr`` is the same in every process."""
    kind = type(x)
    if kind in _SCALARS:
        return x
    if isinstance(x, tuple):
        if len(x) == 3 and x[0] == "id" and type(x[1]) is int:   # a rule's object by identity
            return ("id", _named(x[2]))
        return (kind.__name__, tuple([_plain(v) for v in x]))
    if kind is list:
        return ("list", tuple([_plain(v) for v in x]))
    if kind is frozenset:   # (a code object's constant: ``x in {1, 2}``; sorted, as its
        return ("frozenset", tuple(sorted(repr(_plain(v)) for v in x)))   # order is not)
    if kind is dict:
        return ("dict", tuple([(_plain(k), _plain(v)) for k, v in x.items()]))
    return _value(x)


def _value(x):
    """A value that is not a Python scalar or container (``_plain``)."""
    kind = type(x)
    if isinstance(x, dtypes.DType):
        return ("dtype", x.name)
    if kind is slice:
        return ("slice", _plain(x.start), _plain(x.stop), _plain(x.step))
    if x is Ellipsis:
        return ("Ellipsis",)
    if kind is np.ndarray:
        return ("array", x.shape, x.dtype.str,
                hashlib.blake2b(np.ascontiguousarray(x).tobytes(), digest_size=32).hexdigest())
    if isinstance(x, np.generic):
        return ("scalar", x.dtype.str, x.item())
    if kind is types.CodeType:
        return _code(x)
    if kind is Code:    # (a rule's code in a spec: keyed by identity in one process only)
        return _code(x.code)
    if kind.__name__ == "_Payload":   # (an array keyed by its bytes beside it: lazy_ops)
        return ("payload",)
    return ("id", _named(x))


def _named(x) -> tuple:
    """A library object by its qualified name: a class, a module, a function (symgrad's own
    by its code), an op of ``symgrad.ops``."""
    if isinstance(x, types.ModuleType):
        if x.__name__.split(".")[0] in _LIBRARIES:
            return ("module", x.__name__)
    elif isinstance(x, (type, types.BuiltinFunctionType)):
        module = getattr(x, "__module__", None) or ""
        if module.split(".")[0] in _LIBRARIES:
            return ("named", module, x.__qualname__)
    elif isinstance(x, types.FunctionType):
        return ("function", _code(x.__code__))
    elif isinstance(x, dtypes.DType):
        return ("dtype", x.name)
    elif type(x).__module__.startswith("symgrad.ops") and isinstance(getattr(x, "name", None),
                                                                      str):
        return ("op", type(x).__qualname__, x.name)
    raise _Foreign(type(x).__qualname__)


def _code(code: types.CodeType) -> tuple:
    """symgrad's own code: its file (whose size and time the key holds), name, line and
    bytecode; any other code is the program's."""
    path = code.co_filename
    if not path.startswith(PACKAGE_DIR):
        raise _Foreign(f"code of {path}")
    return ("code", path[len(PACKAGE_DIR):], code.co_qualname, code.co_firstlineno,
            code.co_code, code.co_names, tuple([_plain(c) for c in code.co_consts]))
