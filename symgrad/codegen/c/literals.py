"""C99 literals of Python numbers: exact, correctly rounded, fewest digits.

Layer: codegen (a leaf of it; no SymPy, so that printing a literal costs no SymPy import).
Input: a number and the dtype it is for (``dtypes.DType``: the kind and width decide, the C
name is only printed). Output: its literal. ``c_literal(0.1, float32)`` is ``0.1F``: the
correctly rounded
(nearest, ties to even) value of the exact number in the target type, spelled with the fewest
decimal digits that read back to it; ``-0.0`` and the sign of a NaN survive; values beyond the
type's range round to ``INFINITY`` as IEEE arithmetic would; integers must fit their type.
``cprinter`` prints the constants inside SymPy expressions with the same rules.

Spelling: ``oo`` / ``-oo`` / ``nan`` are ``INFINITY`` / ``-INFINITY`` / ``NAN``. C99 makes those
float constants, so double code gets ``(double)INFINITY`` etc.: same value, but the widening is
explicit and ``-Wdouble-promotion`` stays quiet. ``-0.0`` survives, and so does the sign of a
NaN (``-NAN``); NaN payloads do not, C99 cannot spell them. Whole numbers are written out
exactly (``2**40`` -> ``1099511627776.0F``). Math macros such as ``M_PI`` are never used: they
are not part of C99.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ...dims import Dim
from ...dtypes import DType, int64

__all__ = ["c_literal"]


# ---------------------------------------------------------------------------------------
# Exact rounding of constants into IEEE binary formats
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BinaryFormat:
    """An IEEE-754 binary format and how C spells it."""

    precision: int  # significand bits, hidden bit included
    emin: int  # exponent of the smallest normal number
    emax: int  # exponent of the largest finite number
    max_digits: int  # significant decimal digits that always read back exactly
    literal_suffix: str
    func_suffix: str
    # Put before the float-typed INFINITY / NAN macros to give them this type.
    macro_cast: str

    def special(self, name: str, negative: bool = False) -> str:
        """INFINITY or NAN in this type, e.g. '-(double)INFINITY'."""
        return f"{'-' if negative else ''}{self.macro_cast}{name}"


_FLOAT = BinaryFormat(24, -126, 127, 9, "F", "f", "")
_DOUBLE = BinaryFormat(53, -1022, 1023, 17, "", "", "(double)")

# The binary format of each floating dtype C arithmetic computes in, by dtype name.
FLOAT_FORMATS: dict[str, BinaryFormat] = {"float32": _FLOAT, "float64": _DOUBLE}
_INT64 = (-(2**63), 2**63 - 1)


# The values of the integer dtypes C arithmetic (or a masked load) uses; a bool is stored as a
# byte, as uint8 is.
_INT_RANGES = {"int64": _INT64, "bool": (0, 255), "uint8": (0, 255)}


def int_range(dtype: DType) -> tuple[int, int] | None:
    """The values an integer or bool dtype's C type holds, or None (a floating dtype, or one
    no C arithmetic of symgrad's uses)."""
    return _INT_RANGES.get(dtype.name)


_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def round_to_format(value: Fraction, fmt: BinaryFormat) -> Fraction | None:
    """The nearest value of ``fmt`` to ``value`` (ties to even), or None on overflow.

    Done in exact integer arithmetic because going through a Python float first would
    round twice (exact -> double -> float) and can land one ulp off for float.
    """
    if value == 0:
        return Fraction(0)
    num, den = abs(value.numerator), value.denominator
    # e = floor(log2(|value|)), from bit lengths then one exact correction.
    e = num.bit_length() - den.bit_length()
    if (num << max(0, -e)) < (den << max(0, e)):
        e -= 1
    # Spacing of representable numbers around |value|; fixed below emin (subnormals).
    quantum = max(e, fmt.emin) - (fmt.precision - 1)
    if quantum >= 0:
        q, r = divmod(num, den << quantum)
        twice_r, divisor = 2 * r, den << quantum
    else:
        q, r = divmod(num << -quantum, den)
        twice_r, divisor = 2 * r, den
    if twice_r > divisor or (twice_r == divisor and q & 1):
        q += 1
    magnitude = Fraction(q) * Fraction(2) ** quantum
    # IEEE overflow: the result rounded with an unbounded exponent exceeds the largest
    # finite number, which after rounding means it reached 2**(emax + 1).
    if magnitude >= Fraction(2) ** (fmt.emax + 1):
        return None
    return -magnitude if value < 0 else magnitude


def _decimal_spelling(text: str) -> str:
    """Readable C spelling of a positive decimal string: '0.5', '16777216.0', '1.0e+30'."""
    dec = Decimal(text).normalize()
    adjusted = dec.adjusted()
    if -4 <= adjusted < 16:  # the same switch-over points as Python's float repr
        plain = format(dec, "f")
        return plain if "." in plain else plain + ".0"
    digits = "".join(str(d) for d in dec.as_tuple().digits)
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{mantissa}e{'+' if adjusted >= 0 else '-'}{abs(adjusted):02d}"


def float_literal(value: Fraction, fmt: BinaryFormat, negative_zero: bool = False) -> str:
    """C literal of the correctly rounded value of ``value`` in ``fmt``."""
    rounded = round_to_format(value, fmt)
    if rounded is None:
        return fmt.special("INFINITY", negative=value < 0)
    if rounded == 0:
        # Underflow keeps the sign of the exact value, as IEEE rounding does.
        return f"{'-' if negative_zero or value < 0 else ''}0.0{fmt.literal_suffix}"
    sign = "-" if rounded < 0 else ""
    magnitude = abs(rounded)
    if magnitude.denominator == 1 and magnitude < 10**16:
        # Whole numbers are written out exactly (2**40 -> 1099511627776.0F, not the
        # shorter 1099511600000.0F, which reads back the same but misleads a reader).
        return f"{sign}{magnitude.numerator}.0{fmt.literal_suffix}"
    # Both formats embed exactly in a Python float, so this conversion is exact and the
    # formatting below is correctly rounded; take the shortest that reads back exactly.
    as_double = float(magnitude)
    for ndigits in range(1, fmt.max_digits + 1):
        candidate = f"{as_double:.{ndigits - 1}e}"
        if round_to_format(Fraction(candidate), fmt) == magnitude:
            break
    return f"{sign}{_decimal_spelling(candidate)}{fmt.literal_suffix}"


def int_literal(value: int, dtype: DType) -> str:
    """C literal of an integer in integer arithmetic of ``dtype``."""
    if dtype is int64:
        lo, hi = _INT64
        if not lo <= value <= hi:
            raise OverflowError(f"integer constant {value} does not fit in int64_t")
        if value == lo:
            # -9223372036854775808 would be unary minus on an out-of-range constant.
            return "INT64_MIN"
        if not _INT32_MIN <= value <= _INT32_MAX:
            # Plain int constants are 32 bits on common ABIs; make the width explicit.
            return f"INT64_C({value})"
    return str(value)


def check_dtype(dtype: DType) -> None:
    if not isinstance(dtype, DType):
        raise TypeError(f"expected a symgrad dtype, got {dtype!r}")
    if dtype.name not in FLOAT_FORMATS and int_range(dtype) is None:
        raise ValueError(f"no C arithmetic in {dtype.name}; floating dtypes compute in "
                         f"{' or '.join(FLOAT_FORMATS)}")


_LITERALS: dict = {}


def c_literal(value: float | int | bool, dtype: DType) -> str:  # noqa: PYI041
    """C99 literal for a Python number in ``dtype`` (memoized: a large program prints the same
    few constants thousands of times; the key keeps -0.0 apart from 0.0, and -NaN apart from
    NaN, whose reprs are the same). A call-time size (``dims.Dim``) prints as its C
    expression, converted to ``dtype``'s C type unless it is int64."""
    if isinstance(value, Dim):
        return str(value) if dtype is int64 else f"(({dtype.ctype}){value})"
    if dtype.is_complex:
        return complex_literal(complex(value), dtype)
    key = (dtype, type(value), repr(value))
    if value != value:  # noqa: PLR0124  (NaN)
        key += (math.copysign(1.0, value),)
    text = _LITERALS.get(key)
    if text is None:
        text = _c_literal(value, dtype)
        if len(_LITERALS) < 65536:
            _LITERALS[key] = text
    return text


def complex_literal(value: complex, dtype: DType) -> str:
    """A complex constant from its parts, each a literal of the parts' type (GCC's
    ``__builtin_complex``: exact for any parts, inf and NaN included, and a constant
    expression, unlike ``x + y*I``)."""
    part = dtype.real_dtype
    return (f"__builtin_complex({c_literal(value.real, part)}, "
            f"{c_literal(value.imag, part)})")


def _c_literal(value: float | int | bool, dtype: DType) -> str:  # noqa: PYI041
    """C99 literal for a Python number in ``dtype``.

    ``float``/``double``: the correctly rounded value, shortest spelling, ``F`` suffix
    for float; ``-0.0`` keeps its sign; inf/nan become ``INFINITY``/``-INFINITY``/``NAN``
    (``-NAN`` for a NaN with its sign bit set; a ``(double)`` cast for double).
    Integer types: a plain integer literal (``True`` -> ``1``); non-integral floats raise
    ``TypeError`` and values outside the type's range raise ``OverflowError``.
    ``fractions.Fraction`` values are accepted too and rounded exactly.
    """
    check_dtype(dtype)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, numbers.Integral):
        exact: Fraction | float = Fraction(int(value))
    elif isinstance(value, numbers.Rational):
        exact = Fraction(value.numerator, value.denominator)
    elif isinstance(value, numbers.Real):
        exact = float(value)
    else:
        raise TypeError(f"c_literal needs a real number, not {type(value).__name__}")
    if dtype.name in FLOAT_FORMATS:
        return _float_c_literal(exact, FLOAT_FORMATS[dtype.name])
    return _int_c_literal(value, exact, dtype)


def _float_c_literal(exact: Fraction | float, fmt: BinaryFormat) -> str:
    if isinstance(exact, float):
        if math.isnan(exact):
            # The sign bit survives (-NAN: IEEE negation flips only the sign); the payload
            # does not: C99 has no constant expression for it, every NaN is the default one.
            return fmt.special("NAN", negative=math.copysign(1.0, exact) < 0)
        if math.isinf(exact):
            return fmt.special("INFINITY", negative=exact < 0)
        negative_zero = exact == 0 and math.copysign(1.0, exact) < 0
        return float_literal(Fraction(exact), fmt, negative_zero)
    return float_literal(exact, fmt)


def _int_c_literal(value, exact: Fraction | float, dtype: DType) -> str:
    if isinstance(exact, float):
        if not math.isfinite(exact) or not exact.is_integer():
            raise TypeError(f"{value!r} is not an integer; cannot be a {dtype.name} literal")
        exact = Fraction(int(exact))
    if exact.denominator != 1:
        raise TypeError(f"{value!r} is not an integer; cannot be a {dtype.name} literal")
    lo, hi = int_range(dtype)
    if not lo <= exact.numerator <= hi:
        raise OverflowError(f"{value!r} is out of range for {dtype.name}")
    return int_literal(exact.numerator, dtype)
