"""How a program's output is compared with torch's: line by line, the same text around the
numbers, the numbers close (float32 tolerance). Used by ``test_programs`` and by
``make bench-programs`` (which runs where pytest is not installed)."""

from __future__ import annotations

import re

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")


def same_output(got: str, want: str, rtol: float = 2e-4, atol: float = 1e-5) -> None:
    """Line by line: the same text around the numbers, the numbers close."""
    g_lines, w_lines = got.strip().splitlines(), want.strip().splitlines()
    assert len(g_lines) == len(w_lines), f"{len(g_lines)} lines printed, torch printed " \
                                         f"{len(w_lines)}:\n{got}\n---- torch:\n{want}"
    for k, (g, w) in enumerate(zip(g_lines, w_lines)):
        gn, wn = NUMBER.findall(g), NUMBER.findall(w)
        assert NUMBER.sub("#", g) == NUMBER.sub("#", w) and len(gn) == len(wn), \
            f"line {k + 1}:\n  symgrad: {g}\n  torch:   {w}"
        for a, b in zip(gn, wn):
            fa, fb = float(a), float(b)
            assert a == b or fa == fb or abs(fa - fb) <= atol + rtol * abs(fb), \
                f"line {k + 1}: {a} vs torch's {b}\n  symgrad: {g}\n  torch:   {w}"
