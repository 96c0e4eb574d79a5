"""Each translation unit of a large kernel in a file of its own, so that no compiler reads the
other units' text.

Layer: build (the C backend). Input: ``kernel.c``'s text (``compiler.kernel_text``) and its
number of units (``CSource.units``). Output: ``unit_texts``, the text of ``kernel<k>.c`` for each
unit k, which the build compiles with ``-DSG_TU=k`` instead of the whole ``kernel.c``; and
``SKIP_ALL``, the text of a unit file that simply includes the whole ``kernel.c`` (what every
unit file is when the text is not laid out as expected).

Why: a unit compiled from the whole file lexes and preprocesses every other unit's text only to
skip it (measured on det7, 7.6 MB of C: a cold unit took 2.29 s from the whole file, 2.09 s
from its own text; preprocessing alone, ``gcc -E``, 633 -> 292 million instructions by
callgrind). ``kernel.c`` stays the whole, self-contained file that users read and export.

How (``codegen.c.split.assign_units`` lays the text out): a part of unit j is a block from a
line ``#if !defined(SG_TU) || SG_TU == j`` to the next line ``#endif``. Under ``-DSG_TU=k`` the
preprocessor skips every such block with j != k; this module drops exactly those blocks and
keeps every other byte, its own blocks with their ``#if``/``#endif`` lines included, so a unit
file compiles to what ``-DSG_TU=k kernel.c`` compiled to. ``#line`` directives keep each line
at its number in ``kernel.c`` (a diagnostic, or ``-g``'s line table, points into ``kernel.c``).
A block is dropped only when that is certainly what the preprocessor does: no directive in it
but a kernel's ``#pragma``/``#define``/``#undef`` (a conditional would move its end), no
comment left open before it or at its end, no line splice onto its ``#if`` or ``#endif`` line;
otherwise the text is compiled whole (``SKIP_ALL``) for every unit. A block not recognized is
kept, which is always correct (the preprocessor then skips it). The user's text reaches the C
only inside one-line comments (``codegen.c.text.comment_text``), so it can never begin a line
with a directive. Deterministic: the unit files are a function of ``kernel.c``, whose hash is
part of the cache key (so are the commands, which name them).
"""

from __future__ import annotations

OPEN = "\n#if !defined(SG_TU) || SG_TU == "
CLOSE = "\n#endif\n"
# The directives a dropped block may hold (the kernels' pragmas and macros): with any other line
# that starts with a ``#`` in a block (a conditional, which would move the block's end, or
# anything not understood) the text is compiled whole, which is always correct.
DROPPABLE = ("#pragma ", "#define ", "#undef ")
FILE = '"kernel.c"'
SKIP_ALL = f'#include {FILE}\n'


def unit_texts(text: str, n_units: int) -> list[str]:
    """The text of each unit's file (see the module docstring), ``n_units`` of them."""
    blocks = _blocks(text if text.endswith("\n") else text + "\n")
    if blocks is None:
        return [SKIP_ALL] * n_units
    return [_unit(text, blocks, k) for k in range(n_units)]


def _blocks(text: str) -> list[tuple] | None:
    """(start, end, unit, line after the block) of each block: ``text[start:end]`` runs from
    its ``#if`` line to its ``#endif`` line, both included. None when a block cannot safely be
    dropped (see the module docstring)."""
    blocks, pos, line, counted = [], 0, 1, 0
    while True:
        at = text.find(OPEN, pos)
        if at < 0:
            return blocks if _closed(text, pos, len(text)) else None
        start = at + 1
        eol = text.find("\n", start)
        unit = text[start + len(OPEN) - 1:eol]
        close = text.find(CLOSE, eol)
        if not unit.isdigit() or close < 0:
            return None
        end = close + len(CLOSE)
        if not (_closed(text, pos, start) and _closed(text, eol, close + 1)
                and _plain(text, eol, close + 1) and "\\" not in (text[at - 1], text[close - 1])):
            return None
        line += text.count("\n", counted, end)    # the number of the line after the block
        counted = end
        blocks.append((start, end, int(unit), line))
        pos = end - 1     # (the block's last newline starts the search for the next one)


def _closed(text: str, start: int, end: int) -> bool:
    """Whether no block comment opened in ``text[start:end]`` is still open at its end."""
    return text.rfind("/*", start, end) <= text.rfind("*/", start, end)


def _plain(text: str, start: int, end: int) -> bool:
    """Whether every line of ``text[start:end]`` whose first non-blank character is a ``#`` is
    one of the ``DROPPABLE`` directives (so none is a conditional)."""
    at = text.find("#", start, end)
    while at >= 0:
        bol = text.rfind("\n", start, at) + 1
        if not text[bol:at].strip(" \t") and not text.startswith(DROPPABLE, at):
            return False
        at = text.find("#", at + 1, end)
    return True


def _unit(text: str, blocks: list, k: int) -> str:
    """Unit k's file: the text without the blocks of other units, a ``#line`` after each."""
    pieces, pos = [f"#line 1 {FILE}\n"], 0
    for start, end, unit, after in blocks:
        if unit != k:
            pieces += [text[pos:start], f"#line {after} {FILE}\n"]
            pos = end
    pieces.append(text[pos:])
    return "".join(pieces)
