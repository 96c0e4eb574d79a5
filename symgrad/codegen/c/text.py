"""C text helpers of code generation: safe comments, identifiers, index expressions.

Layer: codegen. Input: user text (file names, source lines), names, views and loop variables.
Output: C fragments. User text reaches the C only through ``comment_text``, inside comments.
"""

from __future__ import annotations

import functools
import re

from ...dims import is_one, same
from ...lower.loopir import View

_TRIGRAPH = re.compile(r"\?\?(?=[=/'()!<>-])")


@functools.lru_cache(maxsize=4096)   # a large graph repeats a few source lines many times
def comment_text(text: str) -> str:
    """Make any text safe inside a C block comment: printable ASCII (other characters as
    ``\\xe4``-style escapes, control characters such as newlines as spaces), no comment
    delimiters (``*\\/``, ``/\\*``) and no trigraphs (``?\\?/``; -std=c99 translates them even
    in comments, and ``??/`` at the end of a line would splice it with the next)."""
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(ch if 32 <= ord(ch) < 127 else " " for ch in text)
    text = _TRIGRAPH.sub("?\\\\?", text)
    return text.replace("*/", "*\\/").replace("/*", "/\\*")


def c_identifier(name: str) -> str:
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return ident if ident and not ident[0].isdigit() else f"f_{ident}"


@functools.lru_cache(maxsize=4096)
def where(file: str, line: int) -> str:
    """``file.py:line`` as a statement's trailing comment shows it."""
    return comment_text(f"{file}:{line}")


def loc_comment(loc, op: str) -> str:
    """A statement's comment: the user's line and the op (``f.py:3: y = x * 2  [mul]``)."""
    if loc is None:
        return op
    text = f"{loc}: {loc.text}" if loc.text else str(loc)
    return comment_text(f"{text}  [{op}]")


def index(view: View, dims: list) -> str:
    """C index expression of ``view`` for loop variables ``dims`` [(var, dim)]."""
    terms = [] if same(view.offset, 0) else [str(view.offset)]
    for var, d in dims:
        s = view.strides[d]
        if same(s, 0) or is_one(view.shape[d]):
            continue
        terms.append(var if is_one(s) else f"{var}*{s}")
    return " + ".join(terms) or "0"


def affine(base: str, terms) -> str:
    """``base + var*stride + ...`` without the zero base, zero strides and unit factors."""
    parts = [] if base == "0" else [base]
    parts += [v if is_one(s) else f"{v}*{s}" for v, s in terms if not same(s, 0)]
    return " + ".join(parts) or "0"


def with_axis(view: View, axis: int, var: str, dims: list) -> str:
    """``view``'s element at loop variables ``dims``, with ``var`` as the index along ``axis``."""
    other = [(v, d) for v, d in dims if d != axis]
    base = index(view, other)
    s = view.strides[axis]
    return f"{view.buffer.name}[{base} + {var}*{s}]"
