"""Large programs: the entry function split into parts, and the parts into translation units.

Layer: codegen. Input: the entry function's body as items (a kernel's C, or a function-scope
scalar statement, with what each defines, reads and weighs). Output: ``Part``s (functions of at
most ``PART_WEIGHT`` statements, roughly) and the translation units they are compiled in.

gcc's time on one huge straight-line function grows much faster than linearly (measured: 22k
scalar statements of an unrolled RK4 adjoint, 10 s at -O1 in one function), so a body above
``PART_WEIGHT`` is split into parts called in order; a scalar local defined in one part and read
in a later one is stored to (and reloaded from) a spill slot in the workspace, under the same
name. The parts with no hot kernel (only function-scope scalar statements and loops of at most
``HOT_ELEMENTS`` elements, where optimizing harder buys nothing measurable) go into extra
translation units of kind "cold", which the build compiles in parallel and for compile speed
(``build.c.compiler.UNIT_FLAGS``); a hot kernel of ``LARGE_TEXT`` characters or more is a part
of its own in a unit of kind "large" (-O2, see there); the entry point and the other parts
with hot kernels stay in unit 0, of kind "main", at the build's full optimization.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A kernel over more elements than HOT_ELEMENTS is hot: its part is compiled at -O3, in unit 0
# (module.py and control.py read it here, and tests set it here).
from ...lower.loopir import HOT_ELEMENTS  # noqa: F401

# A function body above this many statements is split into parts.
PART_WEIGHT = 400

# A hot kernel of at least this many characters of C (a row loop of dozens of loops: the
# three reverse passes of a bundle adjustment's sparse Jacobian and the writes of its values,
# 75 loops, 135 KB) is a part of its own in a translation unit of kind "large", compiled at
# -O2 beside the main unit (``build.c.compiler.UNIT_FLAGS``): gcc 12 took 2.9 s on that
# function at -O3 and 1.1 s at -O2, for the same time a call (3.3-4.3 ms at -O3, 3.7-3.8 at
# -O2, one thread: its inner loops are marked ``omp simd``, vectorized at either level).
LARGE_TEXT = 60_000

# One cold unit per UNIT_PARTS parts' weight, at most MAX_UNITS (the build compiles them all
# at once), and at least MIN_COLD_UNITS where there are as many cold parts: with the main unit
# small, one cold unit kept one core busy while the other waited (a 7x7 determinant's gradient:
# units of 25 and 274 ms; with two cold units its build went from 308-334 to 206-295 ms).
UNIT_PARTS = 8
MAX_UNITS = 4
MIN_COLD_UNITS = 2


@dataclass
class Item:
    """One piece of the entry function's body, with what it defines and reads."""

    text: str
    defines: list          # Scalars defined here
    uses: set              # names of Scalars read here
    temps: set             # temporary Buffers touched
    params: set            # the entry's parameters it names (buffers, "nthreads")
    weight: int            # statements, roughly: what the C compiler's time scales with
    hot: bool = False      # a kernel over more than HOT_ELEMENTS elements
    calls: bool = False    # a control kernel (``Emitted.calls``)
    large: bool = False    # a hot kernel of at least LARGE_TEXT characters
    functions: tuple = ()  # file-scope functions its text calls (``Emitted.functions``)


@dataclass
class Part:
    """One function of a split body (or the whole entry point, unsplit)."""

    name: str
    title: str
    temps: list            # declarations of the temporaries it touches
    loads: list            # spill slots it reads
    kernels: list          # C blocks, in order
    params: set            # the parameters it names
    cold: bool             # no hot kernel (see the module docstring)
    weight: int
    large: bool = False    # a large kernel alone (see the module docstring)
    voids: list = field(default_factory=list)   # `(void)param;` lines
    functions: list = field(default_factory=list)   # its items' functions (printed before it)
    unit: int | None = None     # its translation unit (None: the text is one unit)
    # noinline: GCC 12 -O3 -march=native miscompiled a split small-CNN program (compiled
    # result off by ~28; correct with the parts kept apart, -fno-inline or without loop
    # vectorization): parts stay separate functions, as their names say.
    storage: str = "static __attribute__((noinline)) "


def split_into_parts(items: list, spill_base: int) -> tuple[list, int]:
    """Group items into parts; returns the parts and the bytes of spill slots they need (at
    ``spill_base`` in the workspace, after the temporaries)."""
    groups, current, weight = [], [], 0
    for item in items:
        if current and (weight + item.weight > PART_WEIGHT or item.large or
                        current[-1].large):
            groups.append(current)
            current, weight = [], 0
        current.append(item)
        weight += item.weight
    if current or not groups:
        groups.append(current)
    crossing, spill_bytes = _spill_slots(groups, spill_base)
    parts = [_part(g, group, len(groups), crossing) for g, group in enumerate(groups)]
    return parts, spill_bytes


def whole(items: list) -> Part:
    """All items as one function (a loop body: never split)."""
    return _part(0, items, 1, {})


def _spill_slots(groups: list, spill_base: int) -> tuple[dict, int]:
    """name -> (Scalar, byte offset) of every scalar read in a later part than its own."""
    defined_in = {}
    for g, group in enumerate(groups):
        for item in group:
            for sc in item.defines:
                defined_in[sc.name] = (g, sc)
    crossing = {}
    offset = -(-spill_base // 64) * 64
    start = offset
    for g, group in enumerate(groups):
        for item in group:
            uses = item.uses
            for used in (sorted(uses) if len(uses) > 1 else uses):
                d = defined_in.get(used)
                if d is not None and d[0] != g and used not in crossing:
                    sc = d[1]
                    offset = -(-offset // sc.dtype.itemsize) * sc.dtype.itemsize
                    crossing[used] = (sc, offset)
                    offset += sc.dtype.itemsize
    return crossing, (offset - start) if crossing else 0


def _part(g: int, group: list, n_groups: int, crossing: dict) -> Part:
    temps = sorted({t for item in group for t in item.temps}, key=lambda b: b.index)
    temp_lines = [f"{b.dtype.ctype} *{'' if b.shared else 'restrict '}{b.name} = "
                  f"({b.dtype.ctype} *)(work + {b.offset});" for b in temps]
    local = {sc.name for item in group for sc in item.defines}
    needed = sorted({u for item in group for u in item.uses if u in crossing and
                     u not in local}, key=lambda n: crossing[n][1])
    loads = [f"const {crossing[n][0].dtype.ctype} {n} = "
             f"*({crossing[n][0].dtype.ctype} *)(work + {crossing[n][1]});" for n in needed]
    kernels, spills = [], False
    # The lines of the scalar paragraph being gathered, joined once (growing it with + copied
    # it at each line: measured 162 -> 104 ms for det7_flat's whole split).
    paragraph = None
    for item in group:
        text = item.text
        for sc in item.defines if crossing else ():
            if sc.name in crossing:
                spills = True
                ct = sc.dtype.ctype
                text += f"\n    *({ct} *)(work + {crossing[sc.name][1]}) = {sc.name};"
        if item.weight != 1:
            paragraph = None
            kernels.append(text)
        elif paragraph is None:
            paragraph = [text]
            kernels.append(paragraph)
        else:
            paragraph.append(text)
    params = {p for item in group for p in item.params}
    if temp_lines or loads or spills:
        params.add("work")
    return Part(f"part{g}", f"part {g + 1} of {n_groups}", temp_lines, loads,
                ["\n".join(k) if isinstance(k, list) else k for k in kernels], params,
                not any(item.hot for item in group), sum(item.weight for item in group),
                large=any(item.large for item in group),
                functions=[f for item in group for f in item.functions])


def assign_units(parts: list, entry: str) -> tuple:
    """Give each part a translation unit (``part.unit``, None when the text is one unit) and
    its C name; returns the units' kinds (``CSource.units``).

    Unit 0 ("main") holds the entry point and every part with a hot kernel; the cold parts are
    spread in order over units 1..K ("cold"). Each part
    is wrapped in ``#if !defined(SG_TU) || SG_TU == k``, so that the text still compiles whole
    without -DSG_TU; parts called from another unit are not ``static`` and are named after the
    entry point (``-fvisibility=hidden`` keeps them out of the module's symbol table)."""
    cold = [p for p in parts if p.cold] if len(parts) > 1 else []
    large = [p for p in parts if p.large][:MAX_UNITS - 1] if len(parts) > 1 else []
    if not cold and not large:
        return ("main",)
    weight = sum(p.weight for p in cold)
    k = min(MAX_UNITS - len(large), len(cold),
            max(MIN_COLD_UNITS, -(-weight // (UNIT_PARTS * PART_WEIGHT))))
    for p in parts:
        p.unit = 0
    for i, p in enumerate(large):
        p.unit, p.storage = 1 + i, ""
    for i, p in enumerate(cold):
        p.unit, p.storage = 1 + len(large) + i * k // len(cold), ""
    for g, p in enumerate(parts):
        p.name = f"{entry}_part{g}"
        p.title += f", translation unit {p.unit}"
    return ("main",) + ("large",) * len(large) + ("cold",) * k


def unused_params(args: list, part: Part, standalone: bool = False) -> list[str]:
    """``(void)`` statements for the parameters an unsplit entry point never names (else gcc
    -Wextra warns): ``nthreads`` without a parallel loop (or in a ``standalone`` text, where
    the loops' pragmas vanish without OpenMP), ``work`` without temporaries, an input no output
    depends on, an output with no elements, a constant whose values the loops print
    (``tables``)."""
    lines = []
    if standalone and "nthreads" in part.params:
        lines.append("(void)nthreads;  /* read only by OpenMP's pragmas */")
    elif "nthreads" not in part.params:
        lines.append("(void)nthreads;  /* no loop here is large enough for threads */")
    if "work" not in part.params:
        lines.append("(void)work;")
    unused = [a for a in args if a not in part.params and a not in ("nthreads", "work")]
    if unused:
        lines.append(" ".join(f"(void){a};" for a in unused) +
                     "  /* no output depends on it, it has no elements, or the loops "
                     "print its values */")
    return lines
