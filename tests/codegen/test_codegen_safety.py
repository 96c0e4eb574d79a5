"""Generated C is safe whatever the user's code contains, and compiles without warnings.

1. Text from user code (function, argument and dict-key names, file names, source lines)
   reaches the C only escaped, inside comments: a C99 scanner (trigraphs, line splices,
   comments, literals) finds it nowhere in the code, the code has no preprocessor line that
   symgrad did not write, it compiles with -Werror, and the results match NumPy.
2. Constants round-trip bit for bit (signed zeros, the sign of NaN, subnormals, overflow to
   infinity, float32 rounding, int64 extremes); int64 arithmetic wraps like NumPy's instead of
   overflowing (undefined behaviour in C); bool arithmetic stays 0/1.
3. A corpus covering every op family, the value_and_grad of each, programs split into several
   translation units (SG_TU) and OpenMP loops compiles with compiler.py's own commands plus
   -Wall -Wextra -pedantic -Werror, unit by unit.
"""

from __future__ import annotations

import importlib.util
import linecache
import math
import re
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symgrad as sg
import symgrad.nn.functional as F
from symgrad.api import CompiledFunction
from symgrad.build.backends import default
from symgrad.build.c import compiler
from symgrad.codegen.c import split
from symgrad.codegen.c.literals import c_literal
from symgrad.dtypes import float32, float64
from symgrad.codegen.c.csource import Target
from symgrad.codegen.c.module import generate
from symgrad.codegen.c.text import c_identifier, comment_text
from symgrad.frontend.functions.basic import gather_along
from symgrad.lower import lower
from symgrad.passes import PIPELINE
from symgrad.pipeline import optimize
from symgrad.pytree import flatten

STRICT = ["-Wall", "-Wextra", "-pedantic", "-Werror"]

# --------------------------------------------------------------------------- a C99 scanner

_TRIGRAPHS = {"=": "#", "/": "\\", "'": "^", "(": "[", ")": "]", "!": "|", "<": "{", ">": "}",
              "-": "~"}
# Leftmost match wins, so a quote inside a comment or a `/*` inside a string is never a start.
_LEXEME = re.compile(r"""/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""",
                     re.DOTALL)


def split_comments(text: str) -> tuple[str, list[str]]:
    """C99 translation phases 1-3 as far as comments go: trigraphs replaced, backslash-newlines
    spliced, then every comment (block or line) replaced by a space. Returns the code and the
    comments' bodies; string and character literals stay in the code."""
    text = re.sub(r"\?\?([=/'()!<>-])", lambda m: _TRIGRAPHS[m.group(1)], text)
    text = text.replace("\\\n", "")
    code, comments, at = [], [], 0
    for m in _LEXEME.finditer(text):
        code.append(text[at:m.start()])
        lexeme = m.group()
        if lexeme.startswith("/*"):
            comments.append(lexeme[2:-2])
            code.append(" ")
        elif lexeme.startswith("//"):
            comments.append(lexeme[2:])
            code.append(" ")
        else:
            code.append(lexeme)
        at = m.end()
    code.append(text[at:])
    return "".join(code), comments


_DIRECTIVE = re.compile(r"#include <(math|stdint)\.h>|#pragma omp .*|#ifndef SG_MATH_DECLARED|"
                        r"#if !defined\(SG_TU\) \|\| SG_TU == \d+|#endif")


def assert_user_text_only_in_comments(text: str, markers: list[str]) -> list[str]:
    """The C's code (comments removed) holds none of ``markers`` and no preprocessor line but
    symgrad's own; no comment is left open. Returns the comments."""
    code, comments = split_comments(text)
    assert "/*" not in code and "*/" not in code, "a comment delimiter outside a comment"
    for marker in markers:
        assert marker not in code, f"{marker!r} escaped its comment"
    for line in code.splitlines():
        if line.strip().startswith("#"):
            assert _DIRECTIVE.fullmatch(line.strip()), f"unexpected directive {line!r}"
    assert not re.search(r'["\']', code), "a string or character literal in generated C"
    return comments


def test_scanner_is_an_independent_oracle():
    code, comments = split_comments('a /* x "y */ b "/* s */" // c\nd ??/\ne \'"\'')
    assert code == 'a   b "/* s */"  \nd e \'"\''
    assert comments == [' x "y ', " c"]
    # a trigraph splice joins lines: `*??/` + newline + `/` closes a comment
    assert split_comments("/* a *??/\n/ b")[0] == "  b"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_stays_inside_its_comment(text):
    comment = comment_text(text)
    assert comment.isascii() and comment.isprintable()
    code, comments = split_comments(f"x /* {comment} */ y /*   {comment} [op] */\n")
    assert code == "x   y  \n" and len(comments) == 2


def test_comment_text_escapes():
    assert comment_text("a */ b /* c") == "a *\\/ b /\\* c"
    assert comment_text("x ??/") == "x ?\\?/"      # no trigraph: ??/ would be a backslash
    assert comment_text("??=define ??( ??)") == "?\\?=define ?\\?( ?\\?)"
    assert comment_text("l1\nl2\r\tz\x00") == "l1 l2  z "
    assert comment_text("gr\u00e4dient \u2028") == "gr\\xe4dient \\u2028"
    assert comment_text("?? ok") == "?? ok"         # not a trigraph: left readable


# --------------------------------------------------------------------------- C of a function

def c_source_of(fn, *args, vector_math: bool = True):
    """The CSource symgrad generates for ``fn`` at these (flat, positional) arguments, through
    the same stages as a call, without building it."""
    cf = fn if isinstance(fn, CompiledFunction) else sg.compile(fn)
    program = lower(optimize(cf.trace(*args).graph, PIPELINE)[0], default().capabilities)
    return generate(program, cf.name, title=f"{cf.name}: compiled by symgrad",
                    target=Target(vector_math=vector_math))


def compile_strict(sources: dict, root) -> None:
    """Compile each translation unit of each source with the build's own kernel commands
    (compiler.plan) plus STRICT, at most two compilers at a time; fail listing every
    warning."""
    jobs = []
    for name, src in sources.items():
        directory = root / re.sub(r"\W", "_", name)
        directory.mkdir(parents=True)
        plan = compiler.plan(src)
        compiler.write_sources(plan, directory)     # kernel.c and decls.h, as the build
        for cmd in plan.kernel_cmds:
            jobs.append((name, [cmd[0], *STRICT, *cmd[1:]], directory))
    failures, running = [], []

    def reap(entry):
        name, cmd, proc = entry
        out, _ = proc.communicate(timeout=300)
        if proc.returncode:
            failures.append(f"--- {name}: {' '.join(cmd)}\n{out}")
    for name, cmd, directory in jobs:
        if len(running) == 2:
            reap(running.pop(0))
        running.append((name, cmd, subprocess.Popen(cmd, cwd=directory, text=True,
                                                    stdout=subprocess.PIPE,
                                                    stderr=subprocess.STDOUT)))
    for entry in running:
        reap(entry)
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- user text

_WEIRD_FILE = "m\u00e9'q\"#x \\\n*INJECT_PATH \\"
_WEIRD_MODULE = '''import symgrad as sg

KEY = "k*/ \\n\\"q'\\\\ ??/ \\u00e9 # /* INJECT_KEY"


def gr\u00e4dient(x, int, double):
    y = x * 3.0 + int  # */ INJECT_LINE(); /* ??/ \u00e9 "q" 'c' \\
    z = sg.exp(y) - double * \\
        y
    return {KEY: z, "s": (y * z).sum()}
'''


def _load_weird_module(tmp_path):
    path = tmp_path / f"{_WEIRD_FILE}.py"
    path.write_text(_WEIRD_MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("sg_weird_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_weird_file_name_source_lines_and_keys_stay_in_comments(tmp_path):
    module = _load_weird_module(tmp_path)
    x, a, b = np.array([1.0, -0.5, 2.0]), 2.0, 0.5
    fn = sg.compile(module.grädient)
    got = fn(x, a, b)
    y = x * 3.0 + a
    z = np.exp(y) - b * y
    assert sorted(got) == sorted([module.KEY, "s"])
    np.testing.assert_allclose(got[module.KEY], z, rtol=1e-14)
    np.testing.assert_allclose(got["s"], np.sum(y * z), rtol=1e-14)
    text = fn.c_source
    comments = assert_user_text_only_in_comments(
        text, ["INJECT", "KEY", "\u00e9", "k*/"])
    assert "k*/" not in text and "INJECT_KEY" not in text    # keys never reach the C
    joined = "\n".join(comments)
    # the file name and the lines are there, readable, escaped
    assert "m\\xe9'q\"#x \\ *INJECT_PATH \\.py:7: y = x * 3.0 + int  # *\\/ INJECT_LINE(); " \
        "/\\* ?\\?/ \\xe9" in joined
    assert "z = sg.exp(y) - double * \\  [mul]" in joined      # a line-continuation line
    assert "gr\\xe4dient: compiled by symgrad" in joined
    assert "int sg_gr_dient(" in text
    src = c_source_of(fn, x, a, b)
    assert src.text == text
    compile_strict({"weird": src}, tmp_path / "strict")


def test_crafted_filename_and_source_lines_with_compile(tmp_path):
    """A code object's file name can be anything (here it has no file behind it: linecache
    serves the text)."""
    filename = "dir/x*\n#error INJECT_NAME \\"
    src = ("def f(v):\n"
           "    w = v * 2.0  # */ #define INJECT_A /* \\\n"
           "    return w + 1.0  # \u00fc \"' \\\n")
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    try:
        namespace: dict = {}
        exec(compile(src, filename, "exec"), namespace)  # noqa: S102
        f = namespace["f"]
        f.__name__ = "*/ INJECT_FN\n#include <stdio.h> /*"
        cf = sg.compile(f)
        v = np.array([1.5, -2.0], np.float32)
        np.testing.assert_array_equal(cf(v), v * np.float32(2) + np.float32(1))
        text = cf.c_source
        src = c_source_of(cf, v)
    finally:
        del linecache.cache[filename]
    comments = assert_user_text_only_in_comments(
        text, ["INJECT_NAME", "INJECT_A", "#error", "#define", "stdio.h", "#include <stdio"])
    joined = "\n".join(comments)
    assert "x* #error INJECT_NAME \\:2: w = v * 2.0  # *\\/ #define INJECT_A /\\* \\" in joined
    assert "*\\/ INJECT_FN #include <stdio.h> /\\*: compiled by symgrad" in joined
    entry = re.search(r"\nint (\w+)\(", text).group(1)
    assert entry == "sg____INJECT_FN__include__stdio_h____"
    assert src.text == text
    compile_strict({"crafted": src}, tmp_path)


_C99_KEYWORDS = set("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static struct
switch typedef union unsigned void volatile while _Bool _Complex _Imaginary""".split())  # noqa: SIM905


@pytest.mark.parametrize("name", ["int", "double", "main", "restrict", "_Bool", "<lambda>",
                                  "gr\u00e4dient", "\u51fd\u6570", "9lives", "", "exp",
                                  "in0", "work", "nthreads", "a b*/c\n#x"])
def test_function_names_become_valid_c_identifiers(name):
    ident = c_identifier(name)
    entry = f"sg_{ident}"      # as generate() names the entry point
    assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", ident)
    # so never a keyword, a libm/stdint name, a parameter or a reserved (_X, __x) name
    assert entry not in _C99_KEYWORDS and re.fullmatch(r"sg_[A-Za-z0-9_]+", entry)
    assert c_identifier(name) == ident     # a pure function of the name


def test_keyword_and_unicode_names_compile_and_run(tmp_path):
    sources, fns = {}, []
    for name in ["int", "main", "<lambda>", "gr\u00e4dient"]:
        def f(x, int, double):    # argument names that are C keywords, too
            return sg.exp(x) * int + double
        f.__name__ = name
        cf = sg.compile(f)
        fns.append(cf)
        sources[name] = c_source_of(cf, np.ones(2), 1.0, 2.0)
    x = np.array([0.0, 1.0])
    for cf in fns:
        np.testing.assert_allclose(cf(x, 3.0, 0.5), np.exp(x) * 3.0 + 0.5, rtol=1e-15)
    assert "int sg_int(" in sources["int"].text and "int sg_main(" in sources["main"].text
    assert "int sg__lambda_(" in sources["<lambda>"].text
    compile_strict(sources, tmp_path)


def test_nested_dict_keys_and_argument_names_never_reach_the_c():
    keys = ["*/", "/*", "a\nb", '"', "'", "\\", "??/", "\u00e9", "#include <x>", "int"]

    def f(ärg, restrict):
        return {k: {"inner" + k: ärg[k] * restrict} for k in keys}
    cf = sg.compile(f)
    arg = {k: np.full(2, float(i)) for i, k in enumerate(keys)}
    got = cf(arg, 2.0)
    for i, k in enumerate(keys):
        np.testing.assert_array_equal(got[k]["inner" + k], np.full(2, 2.0 * i))
    code, _ = split_comments(cf.c_source)
    for k in keys[:-1]:
        assert k not in code.replace("#include <math.h>", "").replace("#include <stdint.h>", "")
    assert "inner" not in code and "\u00e4" not in cf.c_source   # escaped in the comments


def test_generated_c_is_deterministic_for_weird_names(tmp_path):
    module = _load_weird_module(tmp_path)
    fn = module.grädient
    texts = {c_source_of(fn, np.ones(3), 1.0, 2.0).text for _ in range(2)}
    texts.add(c_source_of(sg.compile(fn), np.ones(3), 1.0, 2.0).text)
    assert len(texts) == 1


# --------------------------------------------------------------------------- constants

# NaN appears with its sign bit set only: a graph holding both NaNs has one node (see
# test_nan_and_negative_nan_constants_are_distinct_nodes); the unsigned NAN spelling is
# checked in test_nan_literals_keep_their_sign.
_F64_CONSTANTS = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e308, -1e308,
                  1.7976931348623157e308, math.inf, -math.inf, -math.nan, 0.1, 1 / 3,
                  1e-45, 1.401298464324817e-45, 2.0**-149 * 1.5, 1e-40, 16777217.0,
                  3.4028235677973366e38, 3.4028234663852886e38, -1.0e39, 2.0**63, 1e-320]


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view({4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_constants_round_trip_bit_exact(dtype):
    """In a loop and at function scope (0-d), every constant comes back with the bits NumPy's
    correctly rounded conversion gives: signs of zeros and NaNs, subnormals, overflow to
    infinity (float32), ties to even."""
    consts = _F64_CONSTANTS

    def f(x, s):
        return (tuple(sg.where(x > 0, c, x) for c in consts),
                tuple(sg.where(s > 0, c, s) for c in consts))
    cf = sg.compile(f)
    with np.errstate(over="ignore"):
        want = [np.array(c, dtype=dtype) for c in consts]
        loop, scalar = cf(np.ones(3, dtype), np.ones((), dtype))
    for c, w, got_loop, got_scalar in zip(consts, want, loop, scalar):
        assert got_loop.dtype == dtype and got_scalar.dtype == dtype
        np.testing.assert_array_equal(_bits(got_loop), np.full(3, _bits(w)), err_msg=repr(c))
        np.testing.assert_array_equal(_bits(got_scalar), _bits(w), err_msg=repr(c))
    text = cf.c_source
    assert "cst0" not in text          # every constant is a literal in the text
    suffix, cast = ("F", "") if dtype == np.float32 else ("", "(double)")
    for spelled in (f"-0.0{suffix}", f"-{cast}NAN", f"-{cast}INFINITY"):
        assert spelled in text


def test_float_constants_in_arithmetic_match_numpy():
    x = np.array([1.0, -3.0, 0.0, 2.5e-300, np.inf], np.float64)
    x32 = x.astype(np.float32)

    def f(x, x32):
        return (x * 5e-324, x + 1e308, x * -0.0, x - 2.0**63, x * 1e-320,
                x32 * 0.1, x32 + 16777217.0, x32 * 1e-45, x32 * 3.4e38)
    with np.errstate(all="ignore"):
        got = sg.compile(f)(x, x32)
        want = (x * 5e-324, x + 1e308, x * -0.0, x - 2.0**63, x * 1e-320,
                x32 * np.float32(0.1), x32 + np.float32(16777217.0), x32 * np.float32(1e-45),
                x32 * np.float32(3.4e38))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)       # NaN where NumPy has NaN
        finite = ~np.isnan(w)
        np.testing.assert_array_equal(_bits(g[finite]), _bits(w[finite]))   # signed zeros


def test_nan_literals_keep_their_sign():
    assert c_literal(math.nan, float32) == "NAN"
    assert c_literal(-math.nan, float32) == "-NAN"
    assert c_literal(-math.nan, float64) == "-(double)NAN"
    assert c_literal(np.float32(-math.nan), float32) == "-NAN"
    # the memo keys -NaN apart from NaN although repr() shows both as 'nan'
    assert c_literal(math.nan, float64) == "(double)NAN"
    assert c_literal(-0.0, float64) == "-0.0" and c_literal(0.0, float64) == "0.0"


def test_nan_and_negative_nan_constants_are_distinct_nodes():
    got = sg.compile(lambda x: (sg.where(x > 0, math.nan, x),
                                sg.where(x > 0, -math.nan, x)))(np.ones(1))
    assert [bool(np.signbit(g[0])) for g in got] == [False, True]


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1
_INT_CONSTANTS = [2**62, _I64_MAX, _I64_MIN, 2**31, -(2**31) - 1, 2**32, -1, 0]


def test_int64_constants_and_overflow_wrap_like_numpy():
    a = np.array([1, -2, 3, 0, _I64_MIN, _I64_MAX, 2**32 + 7], np.int64)
    m = np.stack([a, a[::-1] * 3], 1)      # reduced over its outer axis: in place

    def f(a, m):
        out = []
        for c in _INT_CONSTANTS:
            out += [a + c, a * c, a - c, sg.where(a > 0, c, a), sg.maximum(a, c),
                    (a + c) < a]   # with C's signed overflow, gcc folds this one to false
        return tuple(out) + (-a, abs(a), a * a, a * a * a, a.sum(), a.prod(), m.sum(0),
                             m.prod(0), a.amax(), a.amin())
    with np.errstate(all="ignore"):
        cf = sg.compile(f)
        got = cf(a, m)
        want = []
        for c in _INT_CONSTANTS:
            c = np.int64(c)
            want += [a + c, a * c, a - c, np.where(a > 0, c, a), np.maximum(a, c), (a + c) < a]
        want += [-a, np.abs(a), a * a, a * a * a, a.sum(), a.prod(), m.sum(0), m.prod(0),
                 a.max(), a.min()]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, i
        np.testing.assert_array_equal(g, w, err_msg=str(i))
    text = cf.c_source
    assert "uint64_t acc" in text and "= (int64_t)((uint64_t)out" in text   # both paths
    assert "INT64_MIN" in text and "INT64_C(9223372036854775807)" in text


def test_int_argmax_and_extrema_match_numpy():
    a = np.array([[3, _I64_MIN, 3, _I64_MAX], [-1, -1, -7, 0], [5, 4, 5, _I64_MIN]], np.int64)
    got = sg.compile(lambda a: (a.argmax(1), a.argmin(0), a.amax(0), a.amin(1)))(a)
    for g, w in zip(got, (a.argmax(1), a.argmin(0), a.max(0), a.min(1))):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_arg_extrema_over_a_leading_axis_walk_the_rows(dtype, monkeypatch):
    """argmin/argmax over an axis that is not the last walk blocks of columns row by row
    (codegen.c.index._arg_extremum_by_rows): the first extremum wins on ties, a NaN wins and
    stays, blocks of 64 (ROW_BLOCK made small here) and a remainder, against NumPy (and
    min(dim).values, which gathers)."""
    from symgrad.codegen.c import index
    monkeypatch.setattr(index, "ROW_BLOCK", 64)
    rng = np.random.default_rng(4)
    a = rng.integers(-3, 4, size=(2, 9, 70)).astype(dtype)     # many ties
    if dtype != np.int64:
        a[0, 3, 5] = a[1, 0, 69] = a[1, 8, 64] = np.nan
        a[0, 2, 5] = np.nan                                     # the first NaN wins
    f = sg.compile(lambda a: (a.argmin(1), a.argmax(0), a.min(1).values, a.argmin(-1)))
    got = f(a)
    for g, w in zip(got, (np.argmin(a, 1), np.argmax(a, 0), np.min(a, 1), np.argmin(a, -1))):
        np.testing.assert_array_equal(g, w)
    assert f.c_source.count("c0 += 64") == 2      # (min(1) shares argmin(1)'s kernel)


def test_arg_extrema_by_rows_in_blocks_of_a_page():
    """The default block: ROW_BLOCK columns (a page of doubles) a row at a time, and the
    remainder, against NumPy; ties and a NaN in the last block."""
    from symgrad.codegen.c import index
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, size=(7, index.ROW_BLOCK + 90)).astype(np.float64)
    a[4, index.ROW_BLOCK + 3] = np.nan
    f = sg.compile(lambda a: (a.argmin(0), a.argmax(0)))
    got = f(a)
    for g, w in zip(got, (np.argmin(a, 0, keepdims=True), np.argmax(a, 0, keepdims=True))):
        np.testing.assert_array_equal(np.asarray(g).reshape(w.shape), w)
    assert f.c_source.count(f"c0 += {index.ROW_BLOCK}") == 2


def test_values_at_the_extremum_index_are_a_fused_reduction():
    """min(dim).values / max(dim).values over a leading axis compile to a min/max reduction
    (passes.identities.extremum_at_its_index), fused with what computes x: the first of equal
    values kept (-0.0 before 0.0 and the reverse), the first NaN, against NumPy's take at
    argmin; along the last axis the gather stays (its reduction would run in SIMD lanes)."""
    a = np.array([[[-0.0, 0.0, 2.0], [1.0, 5.0, np.nan]],
                  [[0.0, -0.0, 2.0], [1.0, np.nan, -np.inf]],
                  [[0.0, -0.0, np.nan], [1.0, 7.0, -np.inf]]])

    def f(a):
        b = a * 1.0 + 0.0 * a                 # (computed: the reduction fuses with it)
        return b.min(0).values, b.max(1).values, b.min(-1).values
    c = sg.compile(f)
    b = a * 1.0 + 0.0 * a
    want = (np.take_along_axis(b, np.argmin(b, 0)[None], 0)[0],
            np.take_along_axis(b, np.argmax(b, 1)[:, None], 1)[:, 0],
            np.take_along_axis(b, np.argmin(b, -1)[..., None], -1)[..., 0])
    for g, w in zip(c(a), want):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    ir = sg.inspect(c, a, print_=False).optimized_ir
    assert ir.count(" = gather ") == 1 and " = min [axes=(0,)]" in ir


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_extrema_in_simd_lanes_keep_nans_and_infinities(dtype):
    """Float max/min accumulate in SIMD lanes (their NaNs summed apart): a NaN anywhere (in
    any lane, in the remainder, first or last) makes the result NaN, infinities win, and a row
    of -inf stays -inf; against NumPy, whose max propagates NaN too."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=(8, 37)).astype(dtype)
    for row, col in ((0, 0), (1, 36), (2, 17), (3, 33), (4, 5)):
        a[row, col] = np.nan
    a[4, 6] = np.inf
    a[5, 3], a[6, 30] = np.inf, -np.inf
    a[7] = -np.inf
    f = sg.compile(lambda a: (a.amax(1), a.amin(1), a.amax(), (a * 2).amin(0)))
    got = f(a)
    for g, w in zip(got, (a.max(1), a.min(1), a.max(), (a * 2).min(0))):
        np.testing.assert_array_equal(g, w)
    assert "reduction(max:acc" in f.c_source and "reduction(min:acc" in f.c_source


def test_bool_arithmetic_stores_zero_or_one():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    got = sg.compile(lambda a, b: (a + b, a * b, (a + b).sum(), (a + b).to(sg.int64)))(a, b)
    assert set(_bits_u8(got[0])) <= {0, 1} and set(_bits_u8(got[1])) <= {0, 1}
    np.testing.assert_array_equal(got[0], a | b)
    np.testing.assert_array_equal(got[1], a & b)
    assert got[2] == 3 and (got[3] == (a | b)).all()
    # NumPy sums a bool array's bytes: a 2 from True + True would count twice
    assert got[0].sum() == 3


def _bits_u8(a: np.ndarray) -> list:
    return a.view(np.uint8).tolist()


# --------------------------------------------------------------------------- -Werror corpus

def test_unused_parameters_are_voided_whatever_the_comments_say(tmp_path):
    """`(void)work;`, `(void)nthreads;` and unused inputs or empty outputs are decided on the
    code, not on the comments: this line says 'work' and 'nthreads'."""
    def f(x, idx, e):
        return (x * 2.0 + 1.0).sum(), e * 3.0  # work nthreads in0 out1
    src = c_source_of(f, np.ones(4), np.zeros(2, np.int64), np.ones((0, 3)))
    code, _ = split_comments(src.text)
    assert "(void)work;" in code and "(void)nthreads;" in code
    assert "(void)in1;" in code and "(void)in2;" in code and "(void)out1;" in code
    compile_strict({"unused": src}, tmp_path)


def _corpus() -> dict:
    """name -> (function, arguments, argnums to differentiate or None)."""
    rng = np.random.default_rng(7)

    def f64(*s):
        return rng.standard_normal(s)

    def f32(*s):
        return rng.standard_normal(s).astype(np.float32)

    def i64(*s):
        return rng.integers(-5, 5, s).astype(np.int64)

    def b8(*s):
        return rng.random(s) > 0.5
    big = (512, 512)     # enough work for OpenMP threads

    def ew(x, y):
        return (sg.exp(x) * sg.sin(y) + sg.tanh(x) / (1 + y * y) - sg.sqrt(sg.abs(x) + 1)
                + sg.log1p(sg.abs(y)) + sg.expm1(x) ** 3 + sg.relu(x) + sg.softplus(y)
                + sg.sigmoid(x) + sg.clamp(x, -1, 1) + sg.maximum(x, y) + sg.minimum(x, y)
                + sg.sign(x) * sg.cos(y) + sg.abs(x) ** y + sg.rsqrt(sg.abs(y) + 1)
                + x ** -2 + 2 ** x + sg.square(y) + sg.log(sg.abs(x) + 1))

    def reductions(x):
        return (x.sum(), x.sum(0), x.sum(1, keepdim=True), x.mean(1), x.amax(0), x.amin(1),
                x.prod(1), sg.logsumexp(x, 1), sg.norm(x), x.max(1)[0], x.min(0)[0],
                x.argmax(1), x.argmin(0), sg.softmax(x, 1), sg.log_softmax(x, 0))

    def movement(x):
        return (x.T * 1.5, x.reshape(5, 4) * 2, x.permute(1, 0).reshape(-1)[3:9],
                x[1:3, ::2] + 1, x[None, :, 2], sg.cat([x, x * 2], 0), sg.stack([x, x], 1),
                x.unsqueeze(0).expand(3, 4, 5), sg.broadcast_to(x[:, :1], (4, 5)) * x,
                x[1:] * x[:-1], x[0, 0] * x[3, 4] * x[2],
                sg.cat([sg.zeros(4, 1, dtype=x.dtype), x], 1) + 1)   # (a padded read)

    def linalg(a, b, v):
        return a @ b, sg.matmul(a, v), sg.dot(v, v), sg.bmm(a[None], b[None]), a.T @ a

    def blas(a, b):
        return sg.tanh(a @ b), (a @ b.T).sum()

    def indexing(x, i):
        return (gather_along(x, i, 1) * 2, x.argmax(0), x.max(1)[0],
                gather_along(x, (i + 1) % 4, 1).sum(1))   # (a gather in its index's loop)

    def losses(z, y, t, w):
        return (F.binary_cross_entropy_with_logits(z, y), F.binary_cross_entropy(sg.sigmoid(z), y),
                F.mse_loss(z, y, reduction="sum"), F.cross_entropy(z, t),
                F.nll_loss(F.log_softmax(z, 1), t, weight=w, reduction="none"))

    def integers(a, b):
        return (a + b, a * b, -a, abs(a), sg.maximum(a, b), sg.where(a > b, a, 3), a.sum(),
                a.amax(1), a.amin(0), a.prod(0), sg.sign(a), a == b, a.argmax(1), a.argmin(0),
                a.to(sg.float32) * 0.5, (a > 0).sum())

    def booleans(p, q):
        return (sg.logical_and(p, q), sg.logical_or(p, q), sg.logical_not(p), p + q, p * q,
                p.sum(), sg.where(p, 1.0, -0.0), p.to(sg.float64), sg.amax(p, 0), sg.amin(q, 0))

    def casts(x, a):
        return x.to(sg.int64), a.to(sg.float32), (x > 0).to(sg.float64), a.to(sg.bool), \
            x.to(sg.bool), sg.isnan(x), sg.isinf(x), sg.isfinite(x)

    def scalars(s, t):
        return (s * t + 1e-300, sg.exp(s) / t, sg.where(s > t, s, -0.0), s ** 2,
                sg.maximum(s, float("nan")), sg.minimum(s, -math.inf) + t)

    def constants(x):
        return (x * math.inf + 5e-324, x * -0.0, x + 1e308, x * 3.4028235677973366e38,
                sg.where(x > 0, math.inf, -math.inf), x + 1e-45, sg.where(x > 1, -math.nan, x))

    def threads(x, y):
        return sg.exp(x) * y + 1, (x * y).sum(), x.sum(1), x.amax(0)

    def empty(x, y):
        return x * 2, x.sum(), x.sum(0), y + 1

    return {
        "elementwise": (ew, (f64(3, 4), f64(3, 4)), (0, 1)),
        "elementwise32": (ew, (f32(5, 3), f32(5, 3)), (0, 1)),
        "reductions": (reductions, (f64(4, 5),), 0),
        "reductions32": (reductions, (f32(4, 5),), 0),
        "movement": (movement, (f64(4, 5),), 0),
        "matmul": (linalg, (f64(3, 4), f64(4, 2), f64(4)), (0, 1, 2)),
        "blas": (blas, (f32(32, 32), f32(32, 32)), (0, 1)),
        "gather": (indexing, (f64(3, 4), rng.integers(0, 4, (3, 2)).astype(np.int64)), 0),
        "losses": (losses, (f32(4, 3), (rng.random((4, 3)) > 0.5).astype(np.float32),
                            rng.integers(0, 3, 4).astype(np.int64), np.abs(f32(3))), 0),
        "integers": (integers, (i64(3, 4), i64(3, 4)), None),
        "booleans": (booleans, (b8(3, 4), b8(3, 4)), None),
        "casts": (casts, (f32(5), i64(5)), None),
        "scalars": (scalars, (np.float64(1.5), np.float64(-2.0)), (0, 1)),
        "scalars32": (scalars, (np.float32(1.5), np.float32(-2.0)), (0, 1)),
        "constants": (constants, (f32(4),), 0),
        "constants64": (constants, (f64(4),), 0),
        "threads": (threads, (np.zeros(big), np.zeros(big)), (0, 1)),
        "threads32": (threads, (np.zeros(big, np.float32), np.zeros(big, np.float32)), (0, 1)),
        "empty": (empty, (f64(0, 3), f64(3)), (0, 1)),
    }


def _value_and_grad(fn, argnums):
    """value_and_grad of a scalar loss built from every output of ``fn``."""
    def loss(*args):
        total = 0.0
        for out in flatten(fn(*args))[0]:
            if out.dtype.is_floating:
                total = total + out.sum()
        return total
    loss.__name__ = fn.__name__
    return sg.value_and_grad(loss, argnums=argnums)


def _corpus_sources(vector_math: bool = True) -> dict:
    sources = {}
    for name, (fn, args, argnums) in _corpus().items():
        sources[name] = c_source_of(fn, *args, vector_math=vector_math)
        if argnums is not None:
            sources[f"{name}_vg"] = c_source_of(_value_and_grad(fn, argnums), *args,
                                                vector_math=vector_math)
    return sources


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # 1e308 in f32
def test_corpus_compiles_warning_free(tmp_path, monkeypatch):
    sources = _corpus_sources()
    sources["elementwise_scalar_libm"] = c_source_of(_corpus()["elementwise"][0],
                                                     np.ones((3, 4)), np.ones((3, 4)),
                                                     vector_math=False)
    # Large programs: parts in several translation units (forced small, as in
    # test_end_to_end; the split does not depend on why a program is large).
    monkeypatch.setattr(split, "PART_WEIGHT", 3)
    monkeypatch.setattr(split, "UNIT_PARTS", 1)
    for name in ("scalars", "reductions", "losses", "gather", "matmul", "elementwise32"):
        fn, args, argnums = _corpus()[name]
        sources[f"split_{name}"] = c_source_of(fn, *args)
        sources[f"split_{name}_vg"] = c_source_of(_value_and_grad(fn, argnums), *args)
    compile_strict(sources, tmp_path)
    everything = "\n".join(src.text for src in sources.values())
    # the corpus covers what it claims to (so this test cannot pass by shrinking)
    for feature in ("#pragma omp parallel for", "#pragma omp simd", "#pragma omp declare simd",
                    "scipy_cblas_sgemm", "scipy_cblas_dgemm", "SG_TU == 4", "argmax along",
                    "check the indices in", "sg_bad |=", "scatter_add along", "uint64_t acc",
                    "-NAN", "INT64_MIN",
                    "(void)out", "-0.0F", "(int64_t)((uint64_t)"):
        assert feature in everything, feature
    assert re.search(r"= \(i\d+ (<|>=) \d+[^;]*\) \? (tmp|in)\d+\[", everything)  # windows
    assert re.search(r"tmp\d+\[\d+\] \+= s\d+;", everything)   # an accumulation chain
    assert any(len(src.units) > 2 for src in sources.values())


# --------------------------------------------------------------------------- math declarations

def _libm_source() -> str:
    """One C function per entry of the op table (every elementwise op's C in each dtype) and
    every helper (digamma, zeta, erfinv, complex, FFT...): all that the kernels call of libm."""
    from symgrad.codegen.c import helpers, optable
    from symgrad.codegen.c.templates import environment
    types = {"float32": "float", "float64": "double", "int64": "int64_t", "bool": "_Bool"}
    lines = helpers.definitions(environment(), list(helpers.HELPERS))
    for k, ((op, dtype), (expr, _)) in enumerate(sorted(optable.EXPRESSIONS.items())):
        t = types[dtype]
        expr = re.sub(r"__sg_arg(\d)__", r"a\1", expr)
        lines.append(f"{t} op{k}_{op}({t} a0, {t} a1, {t} a2) "
                     f"{{ (void)a0; (void)a1; (void)a2; return {expr}; }}\n")
    return "".join(lines)


def test_math_declarations_give_the_same_object_code(tmp_path):
    """decls.h's own declarations of <math.h> (build/c/math_decls.h) compile every kernel of the
    corpus, and every op's and helper's C, to the same object file, byte for byte, as glibc's
    <math.h> does: the build reads the short header for speed only."""
    sources = {name: (compiler.kernel_text(src), compiler.plan(src))
               for name, src in _corpus_sources().items()}
    libm = _libm_source()
    for needle in ("lgammaf(", "erfc(", "nextafter(", "isinf(", "INFINITY", "NAN", "hypotf(",
                   "sgm_zeta(", "creal(", "fmod("):     # (the table covers the functions)
        assert needle in libm, needle
    some_plan = next(iter(sources.values()))[1]
    sources["libm"] = ("#ifndef SG_MATH_DECLARED\n#include <math.h>\n#endif\n"
                       "#include <stdint.h>\n" + libm, some_plan)
    assert "#ifndef SG_MATH_DECLARED" in next(iter(sources.values()))[0]
    system_decls = compiler.MATH_DECLS + "#define SG_MATH_DECLARED 1\n"
    checked = 0
    for name, (text, plan) in sources.items():
        directory = tmp_path / name
        directory.mkdir()
        (directory / "kernel.c").write_text(text)
        cmd = plan.kernel_cmds[0]
        cmd = [a for a in cmd[:cmd.index("-include")] if not a.startswith("-DSG_TU")]
        objects = []
        for which, decls in (("own", compiler.decls_text(plan.source)),
                             ("system", compiler.decls_text(plan.source).replace(system_decls,
                                                                                 ""))):
            (directory / f"{which}.h").write_text(decls)
            subprocess.run([*cmd, "-include", f"{which}.h", "-c", "kernel.c", "-o",
                            f"{which}.o"], cwd=directory, check=True, capture_output=True)
            objects.append((directory / f"{which}.o").read_bytes())
        assert "SG_MATH_DECLARED" not in (directory / "system.h").read_text()
        assert objects[0] == objects[1], name
        checked += 1
    assert checked == len(_corpus_sources()) + 1
