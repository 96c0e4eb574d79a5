"""Dtypes: the element types, their names, and torch's promotion rules.

Layer: base. Input: nothing (leaf module). Output: ``DType`` singletons and ``promote``.
It must not know about tensors, graphs or ops.

``DType`` is the one source of numeric-type policy: its ``kind`` (bool, int, uint, float,
complex), whether it is signed, what it computes in (``computes_in``), what a sum of it
accumulates in (``accumulates_in``), its real counterpart (``real_dtype``) and its size. Code
elsewhere asks these, never the C name (``ctype``), which backends only print.

Complex numbers (not yet a dtype; the convention is fixed now so that they add no redesign):
symgrad follows torch. The gradient of a real loss L with respect to a complex leaf z is the
conjugate Wirtinger derivative, ``z.grad = dL/d(conj z)`` (times 2: torch's ``dL/dx + i dL/dy``
for z = x + iy), so that ``z -= lr * z.grad`` descends. A VJP rule receives the cotangent of
the output in that convention and returns the inputs' cotangents in it; for a holomorphic f
that is ``g * conj(f'(z))``. Forward mode stays "the transposed VJP" (``transforms.forward``)
when transposition is taken under the real inner product <a, b> = Re(sum(conj(a) * b)): the
transpose of multiplying by a constant c is multiplying by conj(c), of a matmul by A is one by
A^H, and a JVP tangent is ``f'(z) * t`` for holomorphic f (and ``df/dz t + df/d(conj z)
conj(t)`` in general), which is what torch's forward AD gives.

symgrad computes in four types: float32, float64, int64 and bool. int8, int16, int32, uint8 and
float16 are storage types: tensors hold them, promotion and printing know them, and an op on
them computes in their ``compute`` type (int64, float32) and rounds the result back, which is
what torch's CPU kernels give (integers wrap modulo 2**bits; float16 rounds once per op).

Promotion follows torch: categories bool < integer < floating; among operands of the highest
category, dimensioned tensors outrank 0-d tensors, which outrank Python scalars. So
``float32[2,2] * float64[]`` is float32, ``int64[3] * 2.5`` is the default float (float32), and
``float64[] + float32[]`` is float64.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import cached_property

import numpy as np


# Promotion categories by kind: bool < integers < floating < complex (torch's).
_CATEGORY = {"bool": 0, "uint": 1, "int": 1, "float": 2, "complex": 3}


# (Its derived properties are cached on first use: every op asks several of them. A DType is
# immutable, pickled and fingerprinted by its name, so what is cached changes nothing else.)
@dataclass(frozen=True, eq=False)
class DType:
    name: str        # torch spelling: float32, float64, int64, bool
    np: np.dtype     # the NumPy dtype
    ctype: str       # the C scalar type's name: backends print it, nothing decides on it
    kind: str        # "bool" | "int" | "uint" | "float" | "complex"
    short: str       # IR printing: f32, f64, i64, bool
    compute: str = ""  # a storage type: the name of the type its ops compute in
    accumulate: str = ""  # the name of the type its sums accumulate in, if not its compute type
    part: str = ""     # complex: the name of the dtype of its real and imaginary parts

    @cached_property
    def category(self) -> int:
        """Its promotion category: 0 bool, 1 integer, 2 floating, 3 complex."""
        return _CATEGORY[self.kind]

    @cached_property
    def is_storage(self) -> bool:
        return bool(self.compute)

    @cached_property
    def computes_in(self) -> DType:
        """The dtype an op on this one computes in (itself unless a storage type)."""
        return _BY_NAME[self.compute] if self.compute else self

    @cached_property
    def accumulates_in(self) -> DType:
        """The dtype a sum (a reduction, a cumulative sum) of this one accumulates in: float32
        in float64, as torch's CPU kernels do, each result rounded once; integers and bools in
        int64 (wrapping modulo 2**64); float64 in itself."""
        return _BY_NAME[self.accumulate] if self.accumulate else self.computes_in

    @cached_property
    def real_dtype(self) -> DType:
        """The dtype of the real and imaginary parts of a complex one; itself otherwise."""
        return _BY_NAME[self.part] if self.part else self

    @cached_property
    def complex_dtype(self) -> DType:
        """The complex dtype whose parts are this floating one (float16 and float32:
        complex64, float64: complex128); a complex one is its own."""
        if self.is_complex:
            return self
        return complex128 if self.itemsize >= 8 else complex64

    @cached_property
    def is_differentiable(self) -> bool:
        """Whether a tensor of it can require grad: floating and complex dtypes."""
        return self.kind in ("float", "complex")

    @cached_property
    def is_floating(self) -> bool:
        return self.kind == "float"

    @cached_property
    def is_floating_point(self) -> bool:
        return self.kind == "float"

    @cached_property
    def is_complex(self) -> bool:
        return self.kind == "complex"

    @cached_property
    def is_integer(self) -> bool:
        """An integer type (signed or not; bool is not one)."""
        return self.kind in ("int", "uint")

    @cached_property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @cached_property
    def itemsize(self) -> int:
        return self.np.itemsize

    @cached_property
    def is_signed(self) -> bool:
        """torch's ``dtype.is_signed``: False for bool and uint8."""
        return self.kind in ("int", "float", "complex")

    @property
    def scalar_type(self) -> str:
        """torch's ScalarType name, as its error messages spell the dtype (Float, Long...)."""
        return _SCALAR_TYPE[self.name]

    @property
    def cpp_name(self) -> str:
        """The C++ name torch's messages give some dtypes ("float", "long int")."""
        return _CPP_NAME[self.name]

    def __repr__(self) -> str:
        # torch's spelling, so that ported programs print torch's text (``print(x.dtype)``)
        return f"torch.{self.name}"

    def __reduce__(self):  # pickle as the singleton
        return (from_name, (self.name,))


float32 = DType("float32", np.dtype(np.float32), "float", "float", "f32", accumulate="float64")
float64 = DType("float64", np.dtype(np.float64), "double", "float", "f64")
int64 = DType("int64", np.dtype(np.int64), "int64_t", "int", "i64")
bool_ = DType("bool", np.dtype(np.bool_), "uint8_t", "bool", "bool", accumulate="int64")
int8 = DType("int8", np.dtype(np.int8), "int8_t", "int", "i8", "int64")
int16 = DType("int16", np.dtype(np.int16), "int16_t", "int", "i16", "int64")
int32 = DType("int32", np.dtype(np.int32), "int32_t", "int", "i32", "int64")
uint8 = DType("uint8", np.dtype(np.uint8), "uint8_t", "uint", "u8", "int64")
float16 = DType("float16", np.dtype(np.float16), "uint16_t", "float", "f16", "float32",
                accumulate="float64")
complex64 = DType("complex64", np.dtype(np.complex64), "float _Complex", "complex", "c64",
                  accumulate="complex128", part="float32")
complex128 = DType("complex128", np.dtype(np.complex128), "double _Complex", "complex", "c128",
                   part="float64")

ALL = (float32, float64, int64, bool_, int8, int16, int32, uint8, float16, complex64, complex128)
# Named so that programs choosing a dtype by name import and run (nanoGPT's table of dtypes);
# NumPy has no such type, so a tensor of it cannot be made (as_dtype says so).
bfloat16 = DType("bfloat16", np.dtype(np.float32), "uint16_t", "float", "bf16", "float32")
UNSUPPORTED = (bfloat16,)
_SCALAR_TYPE = {"float32": "Float", "float64": "Double", "int64": "Long", "bool": "Bool",
                "int8": "Char", "int16": "Short", "int32": "Int", "uint8": "Byte",
                "float16": "Half", "complex64": "ComplexFloat", "complex128": "ComplexDouble",
                "bfloat16": "BFloat16"}
_CPP_NAME = {"float32": "float", "float64": "double", "int64": "long int", "bool": "bool",
             "int8": "signed char", "int16": "short int", "int32": "int",
             "uint8": "unsigned char", "float16": "c10::Half",
             "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
DEFAULT_FLOAT = float32
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
# NumPy dtypes accepted at the API boundary by a lossless cast to one of ours.
_SAFE_CASTS = {np.dtype(np.uint16): int64, np.dtype(np.uint32): int64}
# torch's names for the same types.
ALIASES = {"float": float32, "double": float64, "long": int64, "int": int32, "short": int16,
           "half": float16, "char": int8, "byte": uint8, "cfloat": complex64,
           "cdouble": complex128}


def set_default_dtype(d) -> None:
    """``torch.set_default_dtype``: the dtype of Python floats made into tensors (float32 or
    float64)."""
    global DEFAULT_FLOAT
    d = as_dtype(d)
    if not d.is_floating:
        raise TypeError(f"only floating-point types are supported as the default type, got "
                        f"{d.name}")
    DEFAULT_FLOAT = d


def get_default_dtype() -> DType:
    return DEFAULT_FLOAT


class finfo:  # noqa: N801  (torch's name)
    """``torch.finfo(dtype)``: the limits of a floating dtype (``eps``, ``max``, ``tiny``...)."""

    def __init__(self, dtype=None):
        d = DEFAULT_FLOAT if dtype is None else as_dtype(dtype)
        if not d.is_floating:
            raise TypeError(f"torch.finfo() requires a floating point input type, got {d.name}")
        info = np.finfo(d.np)
        self.dtype, self.bits = d.name, info.bits
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = float(info.resolution)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:  # noqa: N801  (torch's name)
    """``torch.iinfo(dtype)``: the range of an integer dtype."""

    def __init__(self, dtype):
        d = as_dtype(dtype)
        if not d.is_integer:
            raise TypeError(f"torch.iinfo() requires an integer input type, got {d.name}")
        info = np.iinfo(d.np)
        self.dtype, self.bits, self.min, self.max = d.name, info.bits, int(info.min), int(info.max)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


def from_name(name: str) -> DType:
    return _BY_NAME[name]


def from_numpy(dt: np.dtype) -> DType | None:
    """Our dtype for a NumPy dtype, casting losslessly where we must (a narrower type, or
    non-native byte order: ``>f8`` is float64 byte-swapped); None if unsupported."""
    dt = np.dtype(dt)
    if not dt.isnative:
        dt = dt.newbyteorder("=")
    return _BY_NP.get(dt) or _SAFE_CASTS.get(dt)


def as_dtype(d: object) -> DType:
    """Accept a DType, a NumPy dtype or a Python type (float, int, bool); raise TypeError else."""
    if isinstance(d, DType):
        if d in UNSUPPORTED:
            raise TypeError(f"symgrad has no {d.name} tensors (NumPy has no such type); use "
                            f"float32, or float16 for half-size storage")
        return d
    if d is float:
        return DEFAULT_FLOAT
    if d is int:
        return int64
    if d is bool:
        return bool_
    if d is complex:
        return DEFAULT_FLOAT.complex_dtype
    try:
        found = from_numpy(np.dtype(d))
    except TypeError:
        found = None
    if found is None:
        raise TypeError(f"unsupported dtype {d!r}; symgrad has float16, float32, float64, "
                        "complex64, complex128, int8, int16, int32, int64, uint8 and bool")
    return found


def scalar_dtype(value: object) -> DType:
    """The dtype a Python scalar takes when it becomes a tensor on its own (torch's rule);
    lists and arrays of a supported dtype take the default float. TypeError for anything else
    (None, strings, complex numbers, dicts...), which NumPy would turn into NaN or garbage."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    if isinstance(value, (np.floating, np.complexfloating)):
        return as_dtype(value.dtype)
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        return DEFAULT_FLOAT.complex_dtype
    if isinstance(value, (numbers.Real, list, tuple)) or (
            isinstance(value, np.ndarray) and from_numpy(value.dtype) is not None):
        return DEFAULT_FLOAT
    what = "None" if value is None else f"NumPy data of dtype {value.dtype}" \
        if isinstance(value, (np.ndarray, np.generic)) else f"a {type(value).__name__}"
    raise TypeError(f"expected a tensor, an array or a number as an operand, got {what} "
                    f"(symgrad computes in float32, float64, complex64, complex128, int64 and "
                    f"bool)")


# Operand ranks within one category: a dimensioned tensor beats a 0-d tensor beats a Python scalar.
RANK_TENSOR, RANK_ZERO_DIM, RANK_SCALAR = 2, 1, 0


def promote(operands: list[tuple[DType, int]]) -> DType:
    """Result dtype for (dtype, rank) operands, rank being one of the RANK_* constants.

    torch's rule: the operands of each rank (dimensioned tensors, 0-d tensors, Python
    scalars) promote among themselves (``promote_types``), then a lower rank changes the
    result only if it is of a higher category: a Python float meeting integer tensors gives
    the default float, a complex number meeting float64 tensors complex128. Python scalars
    alone keep their own kind (the widest: a float64 number passed to a compiled function
    keeps its precision).
    """
    by_rank: dict[int, DType] = {}
    for d, r in operands:
        by_rank[r] = promote_types(by_rank[r], d) if r in by_rank else d
    if set(by_rank) == {RANK_SCALAR}:
        return by_rank[RANK_SCALAR]
    wrapped = by_rank.get(RANK_SCALAR)
    if wrapped is not None and wrapped.kind in ("float", "complex"):
        # a Python number counts as the default dtype of its kind
        wrapped = DEFAULT_FLOAT if wrapped.kind == "float" else DEFAULT_FLOAT.complex_dtype
    return _combine(by_rank.get(RANK_TENSOR), _combine(by_rank.get(RANK_ZERO_DIM), wrapped))


def _combine(higher: DType | None, lower: DType | None) -> DType | None:
    """A higher-ranked result met by a lower-ranked one (torch's combine_categories)."""
    if higher is None or lower is None:
        return lower if higher is None else higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.complex_dtype if higher.is_floating else lower
    if higher.is_floating:
        return higher
    if higher.is_bool or lower.is_floating:
        return promote_types(higher, lower)
    return higher


def promote_types(a: DType, b: DType) -> DType:
    """torch.promote_types: the dtype holding both (uint8 with int8 is int16; an integer
    with a float is the float; a complex with float64 is complex128)."""
    if a is b or b.is_bool:
        return a
    if a.is_bool:
        return b
    if a.is_complex or b.is_complex:
        wide = max(_part_size(a), _part_size(b)) >= 8
        return complex128 if wide else complex64
    if a.is_floating or b.is_floating:
        if a.is_floating and b.is_floating:
            return a if a.itemsize >= b.itemsize else b
        return a if a.is_floating else b
    if uint8 in (a, b):
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if a.itemsize >= b.itemsize else b


def can_cast(source: DType, target: DType) -> bool:
    """torch.can_cast: whether a result of ``source`` may be written into a tensor of
    ``target`` (an out= tensor, an in-place update): never to a lower category (complex to
    real, floating to integer, anything but bool to bool)."""
    return source.category <= target.category


def cast_error(source: DType, target: DType) -> RuntimeError:
    """torch's error for a result that ``can_cast`` refuses to write."""
    return RuntimeError(f"result type {source.scalar_type} can't be cast to the desired "
                        f"output type {target.scalar_type}")


def _part_size(d: DType) -> int:
    return d.itemsize // 2 if d.is_complex else d.itemsize if d.is_floating else 0
