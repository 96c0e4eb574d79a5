"""symgrad's own C functions, for the elementwise ops C99's libm lacks: digamma, polygamma,
Hurwitz zeta, erfinv, and torch's floor division and remainder (float and int64).

Layer: codegen. Input: the function names a program's C calls (``cprinter`` notes them).
Output: the C definitions those names need, in dependency order, as text for the module's
preamble (``static`` functions: each translation unit has its own copy; the compiler inlines
or drops them). Their prefix ``sgm_`` cannot clash with an entry point (``sg_<name>``).

The algorithms are those of the NumPy references in ``ops/special.py`` (its docstring says
why each is accurate), written again in C; the constants are printed from the same Python
numbers, so the two cannot drift. float versions compute in double and round once. The int64
division helpers never trap: x // 0 and x % 0 are 0 here (eager mode raises torch's
ZeroDivisionError first), and INT64_MIN // -1 wraps as NumPy's does.
"""

from __future__ import annotations

from ...ops.special import (DIGAMMA_SERIES, SHIFT, TRIGAMMA_SERIES, TWO_OVER_SQRT_PI,
                           WINITZKI_A, ZETA_COEFFICIENTS, ZETA_MIN_SHIFT)

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


_DIGAMMA = f"""\
/* digamma: recurrence up to x >= {SHIFT!r}, then the asymptotic series; reflection below 0. */
static double sgm_digamma_positive(double x)
{{
    double acc = 0.0;
    while (x < {SHIFT!r}) {{ acc -= 1.0 / x; x += 1.0; }}
    const double z = 1.0 / (x * x);
    return acc + (log(x) - 0.5 / x - {_horner("z", DIGAMMA_SERIES)});
}}
static double sgm_digamma(double x)
{{
    if (x == 0.0) return copysign(INFINITY, -x);
    if (x < 0.0) {{
        if (x == floor(x)) return NAN;
        return sgm_digamma_positive(1.0 - x) - {_PI} / tan({_PI} * (x - nearbyint(x)));
    }}
    if (!(x < INFINITY)) return x;   /* +inf, NaN */
    return sgm_digamma_positive(x);
}}
"""

_TRIGAMMA = f"""\
/* trigamma (polygamma of order 1): the same scheme as digamma. */
static double sgm_trigamma_positive(double x)
{{
    double acc = 0.0;
    while (x < {SHIFT!r}) {{ acc += 1.0 / (x * x); x += 1.0; }}
    const double z = 1.0 / (x * x);
    return acc + (1.0 / x + 0.5 * z + ({_horner("z", TRIGAMMA_SERIES)}) / x);
}}
static double sgm_trigamma(double x)
{{
    if (x <= 0.0 && x == floor(x)) return INFINITY;
    if (x < 0.0) {{
        const double s = {_PI} / sin({_PI} * (x - nearbyint(x)));
        return s * s - sgm_trigamma_positive(1.0 - x);
    }}
    if (!(x < INFINITY)) return x == INFINITY ? 0.0 : x;
    return sgm_trigamma_positive(x);
}}
"""

_ZETA_TERMS = "\n".join(f"        {c!r}," for c in ZETA_COEFFICIENTS)
_ZETA = f"""\
/* Hurwitz zeta(s, q): Euler-Maclaurin, n terms summed so that q + n >= max({ZETA_MIN_SHIFT!r}, 2 s). */
static double sgm_zeta(double s, double q)
{{
    static const double coefficients[{len(ZETA_COEFFICIENTS)}] = {{   /* B_2j / (2j)! */
{_ZETA_TERMS}
    }};
    if (s != s || q != q) return NAN;
    if (s == 1.0) return INFINITY;
    if (s < 1.0) return NAN;
    if (q <= 0.0) {{
        if (q == floor(q)) return INFINITY;
        if (s != floor(s)) return NAN;
    }}
    if (q == INFINITY) return 0.0;
    const double shift = fmax({ZETA_MIN_SHIFT!r}, 2.0 * s);
    double total = 0.0, a = q;
    while (a < shift) {{ total += pow(a, -s); a += 1.0; }}
    double tail = pow(a, 1.0 - s) / (s - 1.0) + 0.5 * pow(a, -s);
    double rising = s, power = pow(a, -s - 1.0);
    for (int j = 1; j <= {len(ZETA_COEFFICIENTS)}; j++) {{
        tail += coefficients[j - 1] * rising * power;
        rising *= (s + 2 * j - 1) * (s + 2 * j);
        power /= a * a;
    }}
    return total + tail;
}}
"""

_POLYGAMMA = """\
/* polygamma(n, x) for an integer order n >= 0: (-1)^(n+1) n! zeta(n + 1, x) from n = 2. */
static double sgm_polygamma(double n, double x)
{
    if (n == 0.0) return sgm_digamma(x);
    if (n == 1.0) return sgm_trigamma(x);
    double factorial = 1.0;
    for (double k = 2.0; k <= n; k += 1.0) factorial *= k;
    return (fmod(n, 2.0) == 0.0 ? -factorial : factorial) * sgm_zeta(n + 1.0, x);
}
"""

_ERFINV = f"""\
/* erfinv: an approximation good to a few 1e-3, then three Halley steps on erf (on erfc for
   |y| > 0.5, where erf(x) - y would cancel). */
static double sgm_erfinv(double y)
{{
    const double ay = fabs(y);
    if (!(ay <= 1.0)) return NAN;
    if (ay == 1.0) return copysign(INFINITY, y);
    if (y == 0.0) return y;
    const double w = -log1p(-y * y);
    const double t = 2.0 / ({_PI} * {WINITZKI_A!r}) - 0.5 * w;
    double x = sqrt(sqrt(t * t + w / {WINITZKI_A!r}) - t);
    const double c = 1.0 - ay;
    for (int step = 0; step < 3; step++) {{
        const double residual = ay > 0.5 ? c - erfc(x) : erf(x) - ay;
        const double slope = {TWO_OVER_SQRT_PI!r} * exp(-x * x);   /* 2 / sqrt(pi) */
        x -= residual / (slope + x * residual);
    }}
    return copysign(x, y);
}}
"""

_FLOORDIV = """\
/* torch's floor division of floats: from fmod, so that a == b * (a // b) + a % b holds. */
static double sgm_floordiv(double a, double b)
{
    if (b == 0.0) return a / b;
    const double mod = fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) div -= 1.0;
    if (div == 0.0) return copysign(0.0, a / b);
    double floordiv = floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
    return floordiv;
}
"""

_REMAINDER = """\
/* torch's remainder of floats: the sign of the divisor. */
static double sgm_remainder(double a, double b)
{
    double mod = fmod(a, b);
    if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) mod += b;
    return mod;
}
"""

_TRUNCDIV = """\
/* a / b rounded toward zero (torch.div's rounding_mode="trunc"). */
static double sgm_truncdiv(double a, double b) { return trunc(a / b); }
"""

_INT_DIVISION = """\
/* int64 division, remainders: never trap (x / 0 and x % 0 are 0; INT64_MIN / -1 wraps). */
static int64_t sgm_truncdiv_i64(int64_t a, int64_t b)
{
    if (b == 0) return 0;
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    return a / b;
}
static int64_t sgm_fmod_i64(int64_t a, int64_t b)
{
    return (b == 0 || b == -1) ? 0 : a % b;
}
static int64_t sgm_floordiv_i64(int64_t a, int64_t b)
{
    if (b == 0) return 0;
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
static int64_t sgm_remainder_i64(int64_t a, int64_t b)
{
    if (b == 0 || b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
"""

# name -> (C text, names it needs defined first); the float versions follow.
_DOUBLE: dict[str, tuple[str, tuple[str, ...], int]] = {
    "sgm_digamma": (_DIGAMMA, (), 1),
    "sgm_trigamma": (_TRIGAMMA, (), 1),
    "sgm_zeta": (_ZETA, (), 2),
    "sgm_polygamma": (_POLYGAMMA, ("sgm_digamma", "sgm_trigamma", "sgm_zeta"), 2),
    "sgm_erfinv": (_ERFINV, (), 1),
    "sgm_floordiv": (_FLOORDIV, (), 2),
    "sgm_remainder": (_REMAINDER, (), 2),
    "sgm_truncdiv": (_TRUNCDIV, (), 2),
}

HELPERS: dict[str, tuple[str, tuple[str, ...]]] = {}
for _name, (_text, _needs, _nargs) in _DOUBLE.items():
    HELPERS[_name] = (_text, _needs)
    HELPERS[_name + "f"] = (_float_version(_name, _nargs), (_name,))
HELPERS["sgm_floordiv_i64"] = (_INT_DIVISION, ())
for _name in ("sgm_remainder_i64", "sgm_truncdiv_i64", "sgm_fmod_i64"):
    HELPERS[_name] = ("", ("sgm_floordiv_i64",))   # defined together


def definitions(calls) -> list[str]:
    """The C definitions the functions in ``calls`` need, each once, dependencies first, in a
    fixed order (the same calls give the same text)."""
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
    return [HELPERS[name][0] for name in done if HELPERS[name][0]]
