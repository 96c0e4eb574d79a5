"""The C expression of each elementwise op on complex values: a table written by hand.

Layer: codegen. Input: an op's name and its complex dtype. Output: its C text with operand
placeholders (as ``exprs`` uses them) and the helper functions it calls (``helpers``).

The SymPy printer (``cprinter``) prints real arithmetic; complex arithmetic is C99's
``_Complex`` types with ``complex.h``'s functions (``cexp``, ``clog``... what NumPy calls on
glibc), and symgrad's own helpers where torch or NumPy compute otherwise than C: sums and
differences as torch's ``x + alpha * y`` (``ops.elementwise.torch_complex_axpy``), products and
quotients (NumPy's plain formula and Smith's division, where C would rescue NaN results),
``log1p``/``expm1`` (C99 has none for complex values) and ``sgn``. ``_Complex`` storage is two
reals, NumPy's layout, so arrays pass between them as they are.
"""

from __future__ import annotations

from ...dtypes import DType

# op -> (C text with {0}, {1}... for the operands and {f} for the float suffix, helpers)
_TABLE: dict[str, tuple[str, tuple[str, ...]]] = {
    "add": ("sgm_cadd{f}({0}, {1})", ("sgm_cadd",)),
    "sub": ("sgm_csub{f}({0}, {1})", ("sgm_csub",)),
    "neg": ("-{0}", ()),
    "mul": ("sgm_cmul{f}({0}, {1})", ("sgm_cmul",)),
    "div": ("sgm_cdiv{f}({0}, {1})", ("sgm_cdiv",)),
    "exp": ("cexp{f}({0})", ()),
    "log": ("clog{f}({0})", ()),
    "sqrt": ("csqrt{f}({0})", ()),
    "rsqrt": ("sgm_cdiv{f}(1, csqrt{f}({0}))", ("sgm_cdiv",)),
    "sin": ("csin{f}({0})", ()),
    "cos": ("ccos{f}({0})", ()),
    "tan": ("ctan{f}({0})", ()),
    "tanh": ("ctanh{f}({0})", ()),
    "sinh": ("csinh{f}({0})", ()),
    "cosh": ("ccosh{f}({0})", ()),
    "asin": ("casin{f}({0})", ()),
    "acos": ("cacos{f}({0})", ()),
    "atan": ("catan{f}({0})", ()),
    "asinh": ("casinh{f}({0})", ()),
    "acosh": ("cacosh{f}({0})", ()),
    "atanh": ("catanh{f}({0})", ()),
    "exp2": ("cpow{f}(2, {0})", ()),
    "log2": ("sgm_cdiv{f}(clog{f}({0}), sgm_cmplx{f}(0.693147180559945309417232121458176568, 0))",
             ("sgm_cdiv", "sgm_cmplx")),
    "log10": ("sgm_cdiv{f}(clog{f}({0}), sgm_cmplx{f}(2.30258509299404568401799145468436421, "
              "0))", ("sgm_cdiv", "sgm_cmplx")),
    "log1p": ("sgm_clog1p{f}({0})", ("sgm_clog1p",)),
    "expm1": ("sgm_cexpm1{f}({0})", ("sgm_cexpm1",)),
    "sigmoid": ("sgm_cdiv{f}(1, 1 + cexp{f}(-{0}))", ("sgm_cdiv",)),
    "pow": ("cpow{f}({0}, {1})", ()),
    "abs": ("cabs{f}({0})", ()),
    "angle": ("carg{f}({0})", ()),
    "real": ("creal{f}({0})", ()),
    "imag": ("cimag{f}({0})", ()),
    "conj": ("conj{f}({0})", ()),
    "complex": ("sgm_cmplx{f}({0}, {1})", ("sgm_cmplx",)),
    "sgn": ("sgm_csgn{f}({0})", ("sgm_csgn",)),
    "sinc": ("sgm_csinc{f}({0})", ("sgm_csinc",)),
    "logaddexp": ("sgm_clogaddexp{f}({0}, {1})", ("sgm_clogaddexp",)),
    "eq": ("{0} == {1}", ()),
    "ne": ("{0} != {1}", ()),
    "where": ("{0} ? {1} : {2}", ()),
}

# pow with a constant exponent, as the real table has it: 0.5 is sqrt, -0.5 1/sqrt
_POW = {0.5: ("csqrt{f}({0})", ()), -0.5: ("sgm_cdiv{f}(1, csqrt{f}({0}))", ("sgm_cdiv",))}


def _filled(text: str, helpers: tuple, dtype: DType, placeholder) -> tuple[str, tuple]:
    f = "f" if dtype.name == "complex64" else ""
    args = [placeholder(i) for i in range(3)]
    return (f"({text.format(*args, f=f)})",
            tuple(sorted({h + f for h in helpers} | {"sgm_complex_h"})))


def template(op: str, dtype: DType, placeholder) -> tuple[str, tuple[str, ...]]:
    """``op``'s C text on ``dtype`` values (complex64: float parts), and what it calls."""
    if op not in _TABLE:
        raise TypeError(f"{op} has no C translation for {dtype.name} values in symgrad")
    return _filled(*_TABLE[op], dtype, placeholder)


def pow_template(exponent, dtype: DType, placeholder) -> tuple[str, tuple[str, ...]]:
    text, helpers = _POW.get(exponent, _TABLE["pow"])
    return _filled(text, helpers, dtype, placeholder)
