"""A C loop nest, the one shape every kernel's loops take before the template prints them.

Layer: codegen. Loop kernels (``loops.py``, ``sumloop.py``), index and matmul kernels
(``kernels.py``) build ``Nest``s; ``templates/kernel.c.j2`` prints them. Every line is C text
already: the template only indents.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass
class Loop:
    """``for (int64_t var = start; var < end; var++)``, with lines before and after its body
    (inside the loop), and a pragma line above it."""

    var: str
    start: str
    end: str
    pragma: str = ""
    prologue: list = field(default_factory=list)
    epilogue: list = field(default_factory=list)
    depth: int = 0      # indentation level (set by the nest)


@dataclass
class Nest:
    """Lines ``before`` the loops, the loops (outermost first), the ``body`` inside them all,
    lines ``after``; ``indent`` extra levels (a nest in a block of its own)."""

    loops: list
    body: list
    before: list = field(default_factory=list)
    after: list = field(default_factory=list)
    indent: int = 0

    def __post_init__(self) -> None:
        for i, lp in enumerate(self.loops):
            lp.depth = self.indent + i

    @property
    def depth(self) -> int:
        """The body's indentation level."""
        return self.indent + len(self.loops)

    def scoped(self) -> Nest:
        """The nest in a block of its own (its locals then do not clash with another nest's)."""
        pad = "    "
        return replace(self, before=["{"] + [pad + line for line in self.before],
                       after=[pad + line for line in self.after] + ["}"], indent=self.indent + 1)


def counted(var: str, trips) -> Loop:
    """``for (int64_t var = 0; var < trips; var++)``."""
    return Loop(var, "0", str(trips))
