"""The sweep's sample language: tensor specs, samples, their printed patterns and their data.

Input: what a sample generator writes (``T(shape, dtype, kind)``, Python numbers, dtypes,
lists, keyword options). Output: a ``Sample`` whose ``pattern`` (a one-line call such as
``torch.add(f32[2,3], f64[3], alpha=2)``) names it in the stored expectations and the
known-differences list, and whose arguments ``materialize`` builds for either library from the
same NumPy data. The data of a tensor is a pure function of its spec and its position in the
call (a splitmix64 hash, no NumPy random stream), so a pattern alone reproduces its sample.
"""

from __future__ import annotations

import functools
import math
import zlib
from dataclasses import dataclass, field

import numpy as np

SHORT = {"float16": "f16", "float32": "f32", "float64": "f64", "int64": "i64",
         "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "b8",
         "complex64": "c64", "complex128": "c128"}
NP = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "int64": np.int64,
      "int32": np.int32, "int16": np.int16, "int8": np.int8, "uint8": np.uint8, "bool": np.bool_,
      "complex64": np.complex64, "complex128": np.complex128}
FLOATS = ("float16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
# the dtypes whose tensors require grad unless a spec says
GRADS = ("float32", "float64", "complex64", "complex128")
ALL_DTYPES = ("float32", "float64", "int64", "bool", "int32", "uint8", "float16")

EDGE = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -1.5, 1e-8,
        3.0, -2.0, 1e30, 0.25]
INT_EDGE = [0, 1, -1, 2, -2, 127, -128, 255, 2**31 - 1, -2**31, 7, -7, 2**62, 3]


@dataclass(frozen=True)
class T:
    """A tensor argument: its shape, dtype and value kind, whether it requires grad (default:
    float32 and float64 do) and an optional data seed (two specs with the same ``seed`` hold the
    same values wherever they are in the call). float16 tensors require grad only where a
    spec says (``+g``): their gradients round differently in every order of operations.

    Kinds: ``n`` in (-2, 2); ``p`` in (0.1, 3); ``u`` in (-0.95, 0.95); ``e`` edge values
    (nan, +-inf, +-0, ties of rounding, tiny and huge); ``t`` ties (-1, 0, 1, 2); ``i`` small
    integers; ``idxN`` integers in [0, N); ``oneN`` in [1, N]; ``negN`` in [-N, N);
    ``permN`` distinct ones; ``spd`` symmetric positive definite matrices; ``tri``
    well-conditioned lower-triangular; ``hpd`` and ``ctri`` their complex counterparts
    (Hermitian positive definite; lower-triangular with a real positive diagonal, as a
    Cholesky factor has); ``prob`` positive rows that sum to 1; ``01`` in
    (0.05, 0.95); ``sorted`` ascending rows; ``sing`` singular (rank-1) matrices; ``pm1`` -1
    or 1."""

    shape: tuple
    dtype: str = "float64"
    kind: str = ""
    grad: bool | None = None
    seed: int | None = None

    @property
    def requires_grad(self) -> bool:
        return self.dtype in GRADS if self.grad is None else self.grad

    def render(self) -> str:
        text = f"{SHORT[self.dtype]}[{','.join(str(s) for s in self.shape)}]"
        if self.kind:
            text += ":" + self.kind
        if self.grad is not None and self.grad != (self.dtype in GRADS):
            text += "+g" if self.grad else "~g"
        if self.seed is not None:
            text += f"@{self.seed}"
        return text

    def data(self, salt: int) -> np.ndarray:
        return make_data(self.shape, self.dtype, self.kind, salt if self.seed is None
                         else self.seed)


@dataclass(frozen=True)
class D:
    """A dtype argument, printed and materialized as ``torch.<name>``."""

    name: str

    def render(self) -> str:
        return f"torch.{self.name}"


@dataclass(frozen=True)
class Raw:
    """An argument printed as ``text`` and built by ``build(lib)`` (a device, a generator,
    a layout: things that are neither tensors nor plain values)."""

    text: str
    build: object = field(compare=False, hash=False, default=None)

    def render(self) -> str:
        return self.text


@dataclass
class Sample:
    """One call: ``ns.name(*args, **kwargs)``; ``ns`` is ``torch``, ``F``, ``linalg``,
    ``special``, ``fft`` or ``Tensor`` (a method: ``args[0]`` is the receiver). ``tag`` tells
    apart samples whose printed calls would be the same."""

    ns: str
    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    tag: str = ""

    @property
    def op(self) -> str:
        return f"{self.ns}.{self.name}"

    @functools.cached_property
    def pattern(self) -> str:
        parts = [render(a) for a in self.args]
        parts += [f"{k}={render(v)}" for k, v in self.kwargs.items()]
        text = f"{self.op}({', '.join(parts)})"
        return f"{text} #{self.tag}" if self.tag else text


def render(value) -> str:
    if isinstance(value, (T, D, Raw)):
        return value.render()
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value) if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        return "[" + ", ".join(render(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(render(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, slice):
        return ":".join("" if v is None else render(v) for v in (value.start, value.stop,
                                                                  value.step))
    if value is Ellipsis:
        return "..."
    return repr(value)


# ---------------------------------------------------------------- deterministic data

def _unit(salt: int, n: int) -> np.ndarray:
    """n numbers in [0, 1) from splitmix64 of (salt, i): the same on every machine."""
    mask = np.uint64(0xFFFFFFFFFFFFFFFF)
    with np.errstate(over="ignore"):
        z = (np.arange(n, dtype=np.uint64) + np.uint64(salt % 2**32) * np.uint64(0x100000001)
             ) * np.uint64(0x9E3779B97F4A7C15) & mask
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9) & mask
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB) & mask
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(2**53)


def salt_of(text: str) -> int:
    return zlib.crc32(text.encode())


def _floats(kind: str, n: int, u: np.ndarray, salt: int) -> np.ndarray:
    if kind == "e":
        start = salt % len(EDGE)
        return np.array([EDGE[(start + i) % len(EDGE)] for i in range(n)])
    if kind == "t":
        return np.floor(u * 4) - 1
    if kind == "i":
        return np.floor(u * 10) - 4
    if kind == "pm1":
        return np.where(u < 0.5, -1.0, 1.0)
    lo, hi = {"p": (0.1, 3.0), "u": (-0.95, 0.95), "01": (0.05, 0.95)}.get(kind, (-2.0, 2.0))
    return lo + (hi - lo) * u


def _ints(kind: str, dtype: str, n: int, u: np.ndarray, salt: int) -> np.ndarray:
    if kind == "e":
        start = salt % len(INT_EDGE)
        return np.array([INT_EDGE[(start + i) % len(INT_EDGE)] for i in range(n)],
                        dtype=np.int64)
    if kind.startswith("idx"):
        return np.floor(u * int(kind[3:])).astype(np.int64)
    if kind.startswith("one"):
        return np.floor(u * int(kind[3:])).astype(np.int64) + 1
    if kind.startswith("neg"):
        m = int(kind[3:])
        return np.floor(u * 2 * m).astype(np.int64) - m
    if kind == "t":
        return np.floor(u * 3).astype(np.int64)
    if kind == "pm1":
        return np.where(u < 0.5, -1, 1)
    if dtype == "uint8" or kind == "p":
        return np.floor(u * 10).astype(np.int64) + (1 if kind == "p" else 0)
    return np.floor(u * 10).astype(np.int64) - 4


def _structured(kind: str, shape: tuple, u: np.ndarray) -> np.ndarray | None:
    """Kinds that shape the whole array: matrices, permutations, probabilities, sorted rows."""
    if kind in ("spd", "tri") and len(shape) >= 2:
        m = (4 * u - 2).reshape(shape)
        k = shape[-1]
        if kind == "spd":
            return m @ np.swapaxes(m, -1, -2) + k * np.eye(k)
        return np.tril(m, -1) + np.eye(k) * (1.5 + np.abs(m))
    if kind in ("hpd", "ctri") and len(shape) >= 2:   # complex (Hermitian) matrices
        m = ((4 * u - 2) + 1j * (4 * _unit(len(u) + 29, len(u)) - 2)).reshape(shape)
        k = shape[-1]
        if kind == "hpd":
            return m @ np.swapaxes(m, -1, -2).conj() + k * np.eye(k)
        return np.tril(m, -1) + np.eye(k) * (1.5 + np.abs(m))   # a real positive diagonal
    if kind == "sing" and len(shape) >= 2:
        a = (4 * u - 2).reshape(shape)
        return a[..., :, :1] * a[..., :1, :]
    if kind.startswith("perm") and shape:
        n = max(int(kind[4:]) if kind[4:] else shape[-1], shape[-1])
        rows = math.prod(shape[:-1])
        w = _unit(len(u) + 17, rows * n).reshape(rows, n)
        return np.argsort(w, axis=-1)[:, :shape[-1]].reshape(shape)
    if kind == "prob" and shape:
        m = (0.1 + u).reshape(shape)
        return m / m.sum(axis=-1, keepdims=True)
    if kind == "sorted" and shape:
        return np.sort((4 * u - 2).reshape(shape), axis=-1)
    return None


def make_data(shape: tuple, dtype: str, kind: str, salt: int) -> np.ndarray:
    n = math.prod(shape)
    u = _unit(salt, n)
    structured = _structured(kind, shape, u)
    if structured is not None:
        return np.asarray(structured).astype(NP[dtype])
    if dtype == "bool":
        flat = (u < 0.5) if kind != "e" else (np.arange(n) % 2 == 0)
    elif dtype in COMPLEX:
        flat = _floats(kind, n, u, salt) + 1j * _floats(kind, n, _unit(salt + 1, n), salt + 7)
    elif dtype in FLOATS:
        flat = _floats(kind, n, u, salt)
        if kind.startswith(("idx", "neg")):
            flat = _ints(kind, "int64", n, u, salt).astype(np.float64)
    else:
        flat = _ints(kind, dtype, n, u, salt)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(flat).astype(NP[dtype]).reshape(shape)


def calls(op: str, *entries) -> list:
    """Samples of ``op`` from entries: a tuple of arguments whose last element may be a dict
    of keyword options (and may hold ``"#": tag``)."""
    ns, name = op.split(".", 1)
    out = []
    for entry in entries:
        args, kwargs = tuple(entry), {}
        if args and isinstance(args[-1], dict):
            args, kwargs = args[:-1], dict(args[-1])
        tag = kwargs.pop("#", "")
        out.append(Sample(ns, name, args, kwargs, tag))
    return out


def over_dtypes(op: str, make, dtypes=ALL_DTYPES) -> list:
    """One sample per dtype: ``make(dtype)`` gives the entry (as ``calls`` reads it)."""
    return calls(op, *[make(dt) for dt in dtypes])
