"""Standalone C: one compiled signature as the files a user builds without Python.

Layer: codegen. Input: the standalone ``CSource`` of a program (generated for a
``Target(standalone=True)``), the descriptions of its arguments and results (``Port``), its
constants and, for the test program, the example's inputs and the outputs symgrad computed.
Output: texts, never files (the api writes them):

- ``name.c``: the generated module (its entry point ``static``), the constants the function
  was traced with, ``name()`` (the public function: inputs, outputs, a caller-owned work
  array, a thread count) and ``name_work_size()``;
- ``name.h``: the declarations, each argument's shape, dtype and layout, the work size as a
  constant, the statuses the function can return;
- ``test_name.c``: a ``main`` that calls ``name`` on the example inputs and compares with
  symgrad's outputs (exit status 0 when they match; an optional file argument receives the
  raw outputs, for a bit-for-bit comparison);
- ``Makefile``: ``make`` builds ``name.o`` and ``test_name``, honouring ``CC``, ``CFLAGS``,
  ``OPENMP`` and ``BLAS`` from the command line or the environment.

Numbers are written exactly: floats as C99 hexadecimal literals, so the test compares against
the very bits symgrad computed. The callback adapters SciPy takes (``LowLevelCallable``) are
here too: each is a few lines of C around ``name()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...dtypes import DType, from_name, int64
from ...version import __version__
from ..backend import GUARD_STATUS
from .csource import CSource
from .literals import FLOAT_FORMATS
from .templates import environment
from .text import comment_text

# Values per line of a data array in the generated C.
PER_LINE = 4


@dataclass(frozen=True)
class Port:
    """One argument or result of the public function."""

    param: str       # its C parameter name
    ctype: str       # C element type
    shape: tuple
    dtype: str       # symgrad's dtype name (float64, ...)
    what: str        # the Python side: "argument x", "result out[1]"

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def declarator(self) -> str:
        """The C array type of its layout, for the header: ``double[3][4]``."""
        return self.ctype + "".join(f"[{n}]" for n in self.shape)


def c_array(values: np.ndarray, dtype: DType) -> list[str]:
    """The lines of a C initializer list holding ``values`` (flattened, C order) of ``dtype``
    exactly: at least one element (C has no empty arrays)."""
    flat = np.ascontiguousarray(values).reshape(-1)
    if dtype.name in FLOAT_FORMATS:
        suffix = FLOAT_FORMATS[dtype.name].literal_suffix
        items = [_float(float(v), suffix) for v in flat]
    elif dtype is int64:
        items = ["INT64_MIN" if int(v) == -2**63 else f"INT64_C({int(v)})" for v in flat]
    else:
        items = [str(int(v)) for v in flat]
    items = items or ["0"]
    return [", ".join(items[i:i + PER_LINE]) + ("," if i + PER_LINE < len(items) else "")
            for i in range(0, len(items), PER_LINE)]


def _float(v: float, suffix: str) -> str:
    if math.isnan(v):
        return "-NAN" if math.copysign(1.0, v) < 0 else "NAN"
    if math.isinf(v):
        return "-INFINITY" if v < 0 else "INFINITY"
    mantissa, exponent = v.hex().split("p")
    return mantissa.rstrip("0").rstrip(".") + "p" + exponent + suffix   # 0x1.8p+1


@dataclass(frozen=True)
class Interface:
    """What the texts of one exported function need."""

    name: str                  # the public function's C name
    title: str                 # what it computes (a comment line)
    source: CSource            # the standalone module
    inputs: list               # Ports, in order
    outputs: list              # Ports, in order
    consts: list               # (DType, ndarray) per constant the entry point takes
    guards: tuple = ()         # (outcome, "file.py:line: text") per guard

    @property
    def work_size(self) -> int:
        return max(self.source.workspace_bytes, 1)

    @property
    def declaration(self) -> str:
        params = [f"const {p.ctype} *{p.param}" for p in self.inputs]
        params += [f"{p.ctype} *{p.param}" for p in self.outputs]
        return f"int {self.name}({', '.join(params + ['void *work', 'int nthreads'])});"

    def statuses(self) -> list[tuple[int, str]]:
        """(status, meaning) of each nonzero status the function can return."""
        found = [(s, comment_text(what)) for s, what in self.source.errors]
        found += [(status, comment_text(f"the arguments took the other way at {site} than "
                                        f"when the function was traced (a Python `if` on a "
                                        f"value): this C was generated for the traced way"))
                  for status, site in self.guard_statuses()]
        return sorted(found)

    def guard_statuses(self) -> list[tuple[int, str]]:
        return [(GUARD_STATUS + k, site) for k, (_, site) in enumerate(self.guards)]


def _render(template: str, **values) -> str:
    return environment().get_template(template).render(version=__version__, **values)


def module_text(face: Interface, include_header: bool = True) -> str:
    """``name.c``: the module, its constants and the public functions (with ``#include
    "name.h"`` when ``include_header``; an in-process build declares them through its cdef)."""
    consts = [(f"sg_const{i}", dtype.ctype, c_array(v, dtype), v.size) for i, (dtype, v) in
              enumerate(face.consts)]
    tail = _render("export.c.j2", face=face, consts=consts, include_header=include_header,
                   entry=face.source.entry)
    return face.source.text + tail


def header_text(face: Interface, threads: bool) -> str:
    """``name.h``."""
    return _render("export.h.j2", face=face, guard=f"SG_{face.name.upper()}_H",
                   macro=face.name.upper(), threads=threads, statuses=face.statuses())


def test_text(face: Interface, inputs: list, expected: list) -> str:
    """``test_name.c``: ``inputs``/``expected`` are the example's arrays, one per port."""
    ins = [(p, c_array(v, from_name(p.dtype))) for p, v in zip(face.inputs, inputs)]
    outs = [(p, c_array(v, from_name(p.dtype))) for p, v in zip(face.outputs, expected)]
    return _render("export_test.c.j2", face=face, ins=ins, outs=outs,
                   macro=face.name.upper())


def makefile_text(name: str, cflags: str, ldlibs: str, blas: bool, threads: bool) -> str:
    """The ``Makefile``: default flags ``cflags``; ``ldlibs`` after the objects."""
    return _render("export.mk.j2", name=name, cflags=cflags, ldlibs=ldlibs, blas=blas,
                   threads=threads)


# SciPy's callback signatures (scipy.LowLevelCallable) that a compiled function can serve.
CALLBACKS = {
    # scipy.integrate.quad / dblquad / tplquad / nquad: xx holds the arguments, flattened
    "quad": "double {name}(int n, double *xx, void *user_data)",
    # scipy.ndimage.generic_filter: the window's values in, one value out; 1 is success
    "generic_filter": "int {name}(double *buffer, intptr_t filter_size, double *return_value, "
                      "void *user_data)",
}


def callback_text(face: Interface, kind: str, name: str) -> str:
    """The C of an adapter with SciPy's ``kind`` signature calling ``face.name``; the work
    array is the callback's ``user_data``."""
    offsets = np.cumsum([0] + [p.size for p in face.inputs]).tolist()
    return _render("callback.c.j2", face=face, kind=kind, name=name,
                   signature=CALLBACKS[kind].format(name=name), offsets=offsets,
                   total=offsets[-1])
