"""symgrad's own C functions, for the elementwise ops C99's libm lacks: digamma, polygamma,
Hurwitz zeta, erfinv, and torch's floor division and remainder (float and int64).

Layer: codegen. Input: the function names a program's C calls (``cprinter`` notes them).
Output: the C definitions those names need, in dependency order, as text for the module's
preamble (``static`` functions: each translation unit has its own copy; the compiler inlines
or drops them). Their prefix ``sgm_`` cannot clash with an entry point (``sg_<name>``).

The algorithms are those of the NumPy references in ``ops/special.py`` (its docstring says why
each is accurate), written again in C in ``templates/helper_*.c.j2``; the constants are printed
into them from the same Python numbers, so the two cannot drift. float versions compute in
double and round once. The int64 division helpers never trap: x // 0 and x % 0 are 0 here
(eager mode raises torch's ZeroDivisionError first), and INT64_MIN // -1 wraps as NumPy's does.
"""

from __future__ import annotations

from ...ops.special import (DIGAMMA_SERIES, HUGE_ORDER, SHIFT, TRIGAMMA_SERIES,
                           TWO_OVER_SQRT_PI, WINITZKI_A, ZETA_COEFFICIENTS, ZETA_MIN_SHIFT)

__all__ = ["HELPERS", "definitions"]

_PI = "3.141592653589793"


def _horner(name: str, coefficients: list[float]) -> str:
    """C text of sum_k c_k name^k, k = 1.. (Horner)."""
    text = "0.0"
    for c in reversed(coefficients):
        text = f"({text} + {c!r}) * {name}"
    return text


def _float_version(name: str, nargs: int) -> str:
    params = ", ".join(f"float a{i}" for i in range(nargs))
    args = ", ".join(f"(double)a{i}" for i in range(nargs))
    return f"static float {name}f({params}) {{ return (float){name}({args}); }}\n"


# What the templates print from Python's numbers (the algorithms' constants, ``ops.special``).
_CONSTANTS = {
    "pi": _PI, "shift": repr(SHIFT), "zeta_min_shift": repr(ZETA_MIN_SHIFT),
    "huge_order": repr(HUGE_ORDER),
    "digamma_series": _horner("z", DIGAMMA_SERIES),
    "trigamma_series": _horner("z", TRIGAMMA_SERIES),
    "zeta_count": len(ZETA_COEFFICIENTS),
    "zeta_terms": "\n".join(f"        {c!r}," for c in ZETA_COEFFICIENTS),
    "winitzki_a": repr(WINITZKI_A), "two_over_sqrt_pi": repr(TWO_OVER_SQRT_PI),
}

# name -> (its template, names it needs defined first, its arguments); each has a float
# version, computed in double.
_DOUBLE: dict[str, tuple[str, tuple[str, ...], int]] = {
    "sgm_digamma": ("helper_digamma.c.j2", (), 1),
    "sgm_trigamma": ("helper_trigamma.c.j2", (), 1),
    "sgm_zeta": ("helper_zeta.c.j2", (), 2),
    "sgm_polygamma": ("helper_polygamma.c.j2", ("sgm_digamma", "sgm_trigamma", "sgm_zeta"), 2),
    "sgm_erfinv": ("helper_erfinv.c.j2", (), 1),
    "sgm_floordiv": ("helper_floordiv.c.j2", (), 2),
    "sgm_remainder": ("helper_remainder.c.j2", (), 2),
    "sgm_truncdiv": ("helper_truncdiv.c.j2", (), 2),
}

# name -> (a template, or the C text itself; None: defined by another's), names needed first.
HELPERS: dict[str, tuple[str | None, tuple[str, ...]]] = {}
for _name, (_template, _needs, _nargs) in _DOUBLE.items():
    HELPERS[_name] = (_template, _needs)
    HELPERS[_name + "f"] = (_float_version(_name, _nargs), (_name,))
HELPERS["sgm_floordiv_i64"] = ("helper_int_division.c.j2", ())
# complex values: complex.h and NumPy's arithmetic (``complex_ops``), all defined together
HELPERS["sgm_complex_h"] = ("helper_complex.c.j2", ())
for _name in ("sgm_cmplx", "sgm_cadd", "sgm_csub", "sgm_cmul", "sgm_cdiv", "sgm_clog1p",
              "sgm_cexpm1", "sgm_csgn", "sgm_csinc", "sgm_clogaddexp"):
    HELPERS[_name] = HELPERS[_name + "f"] = (None, ("sgm_complex_h",))
HELPERS["sgm_fft"] = ("helper_fft.c.j2", ("sgm_complex_h",))   # torch.fft's transforms
for _name in ("sgm_remainder_i64", "sgm_truncdiv_i64", "sgm_fmod_i64"):
    HELPERS[_name] = (None, ("sgm_floordiv_i64",))   # defined together


def definitions(env, calls) -> list[str]:
    """The C definitions the functions in ``calls`` need, each once, dependencies first, in a
    fixed order (the same calls give the same text); ``env``: the templates'."""
    done: list[str] = []

    def visit(name: str) -> None:
        if name in done or name not in HELPERS:
            return
        text, needs = HELPERS[name]
        for need in needs:
            visit(need)
        done.append(name)

    for name in sorted(calls):
        visit(name)
    return [env.get_template(text).render(**_CONSTANTS) if text.endswith(".j2") else text
            for text in (HELPERS[name][0] for name in done) if text]
