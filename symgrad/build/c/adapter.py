"""The calling convention between the native helper and a kernel: its C side and its layout.

Layer: build (the C backend). Input: a ``CSource``'s entry point and its typed parameters
(``CSource.params``: (C type, name) pairs, as data). Output: ``adapter_text``, the C of
``<entry>__sg_call(void *const *p, const int64_t *n)``, which the build appends to the kernel's
text and which calls the entry with its pointers from ``p`` and its integers from ``n``, each
in the signature's order; and ``layout``, the letters the native helper's ``call`` reads its
arguments by ('r' a pointer to read, 'w' a pointer to write, 'i' an integer), one per
parameter. A pointer parameter is one whose type ends in ``*``; ``const`` before it makes it
'r'. Every entry point takes pointers and integers only (``codegen.c.module._signature``).
"""

from __future__ import annotations

SUFFIX = "__sg_call"


def kind(ctype: str) -> str:
    """The layout letter of a parameter of C type ``ctype``."""
    if ctype.rstrip().endswith("*"):
        return "r" if ctype.lstrip().startswith("const ") else "w"
    return "i"


def layout(params: tuple) -> bytes:
    return "".join(kind(ctype) for ctype, _ in params).encode("ascii")


def adapter_text(entry: str, params: tuple, units: int = 1) -> str:
    """The adapter's C, for the end of the kernel's text (in unit 0 when it has several)."""
    args, n_ptr, n_int = [], 0, 0
    for ctype, _ in params:
        if kind(ctype) == "i":
            args.append(f"({ctype})n[{n_int}]")
            n_int += 1
        else:
            args.append(f"({ctype})p[{n_ptr}]")
            n_ptr += 1
    call = f"{entry}({', '.join(args)})" if args else f"{entry}()"
    lines = ["", "/* symgrad's calling convention (symgrad/build/c/adapter.py): pointers in p,",
             "   integers in n, each in the order of the signature above. */",
             f"int {entry}{SUFFIX}(void *const *p, const int64_t *n)", "{",
             "    (void)p;", "    (void)n;", f"    return {call};", "}", ""]
    if units > 1:
        lines = ["", "#if !defined(SG_TU) || SG_TU == 0", *lines[1:], "#endif", ""]
    return "\n".join(lines)


def declaration(entry: str) -> str:
    return f"int {entry}{SUFFIX}(void *const *p, const int64_t *n);"
