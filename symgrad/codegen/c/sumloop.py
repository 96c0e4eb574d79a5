"""Loop nests for float sums as accurate as NumPy's pairwise summation.

Layer: codegen. Input: a loop kernel's collapsed dims (``loopdims.collapse``) and its reducing
stores, with callbacks from ``loops.py`` that print one iteration's statements and an output's
C lvalue. Output: the kernel's setup lines and its loop nests (``nest.Nest``). ``loops.py`` asks
``plan`` first; kernels without a float sum keep its plain nests. It must not print op
statements, index expressions or literals itself.

Why: one running sum per output (per SIMD lane) of n terms has an error growing like n (like
sqrt(n) for random rounding); NumPy sums pairwise, error ~ log2(n). Here the terms are summed
in **blocks** (a vectorized inner loop into a block-local accumulator), and the block sums are
added **pairwise** through a binary counter: a stack ``acc_s[k]`` holds the sum of 2**k blocks,
so pushing block number m merges as many equal-sized partial sums as m has trailing one bits
(the carries of m + 1). Rounding errors of the blocks average out; the partial sums that are
added are always of similar size, as in NumPy. Float sums of float32 data accumulate in double
(complex ones: complex64 in complex128, the accumulator type ``Acc.ctype``).

Two shapes of nest:

* ``inner``: the last loop dim is reduced. The kept dims become the outer loops (each iteration
  owns its outputs: threads split them), the reduced dims the inner ones; the innermost one is
  cut into blocks of ``BLOCK`` elements whose loop is ``omp simd reduction(+:...)``. A kernel
  that reduces to a single output and has enough work is cut into ``CHUNKS`` pieces summed
  separately (on threads, if any) into ``acc_p[c]`` and then added pairwise: the same result
  for any number of threads, bit for bit.
* ``tiled``: the last loop dim is kept (e.g. a sum over axis 0). Its outputs are taken
  ``TILE`` at a time; for each tile the reduced loops run outside a vectorized loop over the
  tile, each output summing ``ROWS`` terms per block into ``acc[TILE]`` before the pairwise
  push. The tile loop has a constant trip count (a last partial tile gets a nest of its own;
  a tile width that divides the extent avoids it when there is one), which lets the compiler
  keep the accumulators in registers: measured as fast as the plain in-place row-by-row sum,
  and faster for narrow outputs (a variable trip count measured 30% slower). Tiles own their
  outputs: threads split them.

Other reductions of the same kernel (max, min, prod, integer sums) are carried along as before:
in a scalar accumulator (``inner``) or in place in their output (``tiled``); each output still
combines its terms in the original order, so their results do not change. In an ``inner`` nest
whose other reductions are all maxima and minima, those run in the block loop's SIMD lanes as
``loops.py``'s plain nests run them (the plain compare, a float one's NaNs summed apart): their
NaN-aware step is a loop-carried select gcc does not vectorize, and it kept the whole block
loop scalar, its libm calls too (``x.max()`` fused with ``exp(x - 4.5).sum()``, 160,000
doubles: 835 us, where the two apart took 21 + 143).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...dims import Dim
from ...dtypes import DType
from .nest import Loop, Nest, counted

# Terms per block of an ``inner`` sum: one vectorized loop into a block-local accumulator.
BLOCK = 256
# Outputs per tile of a ``tiled`` sum, and terms (rows) each output sums per block.
TILE = 128
ROWS = 128
# Pieces of a single-output sum with enough work for threads (each gets its own pairwise
# stack; a thread takes a contiguous run of pieces).
CHUNKS = 64
# The pairwise stack's depth when the number of blocks is known only at call time (2**40
# blocks of 128 terms: more elements than any machine holds).
DYNAMIC_DEPTH = 40


@dataclass
class Acc:
    """One reducing store of the kernel, as codegen describes it."""

    name: str           # C name of its accumulator ("acc", "acc0", ...)
    op: str             # "sum" | "max" | "min" | "prod"
    dtype: DType        # what it accumulates in
    out_dtype: DType    # the output's
    identity: str       # C literal of the op's identity, in ``dtype``
    fill: str           # C statement setting its output to the identity (in-place reductions)
    step: str           # its step ``{a} = <this>`` in its accumulator (``reductions.combine``)
    unsigned: bool = False   # an int64 sum or product, kept in a uint64_t (wraps mod 2**64)

    @property
    def ctype(self) -> str:
        """The accumulator's C type."""
        return "uint64_t" if self.unsigned else self.dtype.ctype

    @property
    def out_ctype(self) -> str:
        return self.out_dtype.ctype

    @property
    def floating(self) -> bool:
        return self.out_dtype.is_differentiable   # (complex sums are summed as floats are)

    @property
    def pairwise(self) -> bool:
        """Float sums are summed in blocks and pairwise; the others are carried along."""
        return self.op == "sum" and self.floating


def plan(dims: list, accs: list) -> str | None:
    """"inner", "tiled", or None when codegen's plain nest is as accurate (no float sum, or
    nothing to sum). ``dims``: (extent, strides, reduced, dim) per loop dim."""
    if not dims or not any(r for _, _, r, _ in dims) or any(e == 0 for e, _, _, _ in dims):
        return None
    if not any(a.pairwise for a in accs):
        return None
    return "inner" if dims[-1][2] else "tiled"


def build(mode: str, dims: list, accs: list, element, out_ref, *, threads: bool,
          parallel: str, simd: bool, work_check: str | None = None) -> tuple[list, list]:
    """(setup lines, nests) of the kernel. ``element(var_of, targets)`` gives one iteration's
    lines, with ``var_of[d]`` the C index of loop dim d and ``targets[j]`` the lvalue that
    accumulator ``j`` adds into (None: in place, into its output); ``out_ref(j, var_of)`` is
    output ``j``'s element. ``threads``: the kernel has enough work for threads (a single-output
    sum is then chunked, whether or not threads run); ``parallel``: the ``omp parallel for``
    pragma for a loop whose iterations own their outputs ("" for none); ``simd``: mark the
    innermost loop ``omp simd``; ``work_check``: for call-time sizes, the C condition that the
    work is large enough for threads (``threads`` is then True: the size may be large)."""
    kept = [d for d, (_, _, r, _) in enumerate(dims) if not r]
    reduced = [d for d, (_, _, r, _) in enumerate(dims) if r]
    if mode == "inner":
        return [], [_inner(dims, kept, reduced, accs, element, out_ref, threads=threads,
                           parallel=parallel, simd=simd, work_check=work_check)]
    last = kept[-1]
    extent = dims[last][0]
    if isinstance(extent, Dim):     # call-time columns: tiles of TILE, the last one partial
        tiles = f"(({extent} + {TILE - 1}) / {TILE})"
        return [a.fill for a in accs if not a.pairwise], [
            _tiled(dims, kept[:-1], reduced, last, TILE, tiles, 0, accs, element, out_ref,
                   parallel=parallel, simd=simd, columns=extent)]
    width = _tile_width(extent)
    full, rest = divmod(extent, width)
    nests = [_tiled(dims, kept[:-1], reduced, last, width, full, 0, accs, element, out_ref,
                    parallel=parallel, simd=simd)]
    if rest:
        nests.append(_tiled(dims, kept[:-1], reduced, last, rest, 1, full * width, accs,
                            element, out_ref, parallel=parallel, simd=simd))
        nests = [n.scoped() if n.before else n for n in nests]   # same local names
    return [a.fill for a in accs if not a.pairwise], nests


def _tile_width(extent: int) -> int:
    """Outputs per tile: all of them up to ``TILE``, else a divisor of the extent between
    TILE/2 and TILE if there is one (no partial tile, whose nest would repeat the body), else
    TILE."""
    if extent <= TILE:
        return extent
    return next((w for w in range(TILE, TILE // 2 - 1, -1) if extent % w == 0), TILE)


def _reduced_loops(dims: list, reduced: list, per_block: int) -> tuple[list, object, object]:
    """The reduced loops, the innermost one cut into blocks of ``per_block`` terms if longer;
    the number of blocks each output sums (None when it depends on call-time sizes), and the
    trip count of the outermost loop (an int, a Dim or, for a call-time block count, C)."""
    loops = [counted(f"i{d}", dims[d][0]) for d in reduced[:-1]]
    d = reduced[-1]
    extent = dims[d][0]
    outer = [dims[d][0] for d in reduced[:-1]]
    if isinstance(extent, Dim):      # blocks counted at run time: ceil(extent / per_block)
        blocks = f"(({extent} + {per_block - 1}) / {per_block})"
        block = counted(f"b{d}", blocks)
        block.prologue.append(f"const int64_t e{d} = b{d} < {blocks} - 1 ? "
                              f"b{d}*{per_block} + {per_block} : {extent};")
        loops += [block, Loop(f"i{d}", f"b{d}*{per_block}", f"e{d}")]
        return loops, None, (outer or [blocks])[0]
    blocks = -(-extent // per_block)
    if blocks > 1:
        block = counted(f"b{d}", blocks)
        block.prologue.append(f"const int64_t e{d} = b{d} < {blocks - 1} ? "
                              f"b{d}*{per_block} + {per_block} : {extent};")
        loops += [block, Loop(f"i{d}", f"b{d}*{per_block}", f"e{d}")]
    else:
        loops.append(counted(f"i{d}", extent))
    pushes = blocks * math.prod(outer)
    return (loops, None if isinstance(pushes, Dim) else pushes,
            (outer or [blocks if blocks > 1 else extent])[0])


def _depth(pushes) -> tuple[bool, int]:
    """(whether block sums go through the pairwise stack, its depth)."""
    if pushes is None:
        return True, DYNAMIC_DEPTH
    return pushes > 1, max(1, pushes.bit_length())


def _stack(a, depth: int, width: str = "") -> str:
    """The declaration of accumulator ``a``'s pairwise stack (zeroed when small: only the
    slots ``blocks`` marks are read, which gcc -Wall cannot prove; a call-time depth's is
    not, to keep it cheap)."""
    init = "" if depth == DYNAMIC_DEPTH else (" = {{0.0}}" if width else " = {0.0}")
    what = "sums of 2**k blocks" if width else "the sum of 2**k blocks"
    return f"{a.ctype} {a.name}_s[{depth}]{width}{init};  /* {a.name}_s[k]: {what} */"


def _scope(loops: list, at: int, before: list, after: list) -> tuple[list, list]:
    """The lines just before and after loop ``at`` (the nest's own, for the outermost)."""
    if at == 0:
        return before, after
    return loops[at - 1].prologue, loops[at - 1].epilogue


def _push(sums: list, lane: tuple | None) -> list[str]:
    """Lines adding the block sums into the pairwise stacks (a binary counter's carries)."""
    ix = "" if lane is None else f"[{lane[0]}]"

    def each(fmt: str) -> list[str]:
        lines = [fmt.format(a=a.name, ix=ix) for a in sums]
        if lane is None:
            return lines
        var, width = lane
        return [f"for (int64_t {var} = 0; {var} < {width}; {var}++) {{"] + \
            [f"    {line}" for line in lines] + ["}"]
    return (["{   /* add the block sum in: merge equal-sized partial sums pairwise */",
             "    int k = 0;",
             "    for (int64_t m = blocks++; m & 1; m >>= 1, k++) {"] +
            [f"        {line}" for line in each("{a}{ix} = {a}_s[k]{ix} + {a}{ix};")] +
            ["    }"] + [f"    {line}" for line in each("{a}_s[k]{ix} = {a}{ix};")] + ["}"])


def _fold(a: Acc, depth: int, ix: str, target: str, cast: str) -> list[str]:
    """Lines adding up the partial sums left on ``a``'s stack, smallest first."""
    total = f"{a.name}_sum"
    # (a call-time depth: up to the highest block bit, not through every slot)
    bound = "(blocks >> k) != 0" if depth == DYNAMIC_DEPTH else f"k < {depth}"
    return [f"{a.ctype} {total} = 0.0;",
            (f"for (int k = 0; {bound}; k++) if ((blocks >> k) & 1) "
             f"{total} = {a.name}_s[k]{ix} + {total};"),
            f"{target} = {cast}{total};"]


def _inner(dims, kept, reduced, accs, element, out_ref, *, threads, parallel, simd,
           work_check=None) -> Nest:
    """The nest of an ``inner`` sum (see the module docstring)."""
    nest_before: list = []
    nest_after: list = []
    loops = [counted(f"i{d}", dims[d][0]) for d in kept]
    red, pushes, spread = _reduced_loops(dims, reduced, BLOCK)
    sums = [a for a in accs if a.pairwise]
    ref = {id(a): j for j, a in enumerate(accs)}       # accumulator -> its output's number
    dynamic = not isinstance(spread, int) or isinstance(spread, Dim)
    chunked = not kept and threads and len(sums) == len(accs) and (dynamic or spread >= 2)
    if chunked:
        n = CHUNKS if dynamic else min(CHUNKS, spread)
        if dynamic:   # as many chunks as a fixed size would have: the same sum, bit for bit
            nest_before.append(f"const int64_t nchunks = {work_check or 1} ? "
                               f"({spread} < {CHUNKS} ? {spread} : {CHUNKS}) : 1;")
        count = "nchunks" if dynamic else n
        loops.append(Loop("chunk", "0", str(count), pragma=parallel))   # owns acc_p[chunk]
        red[0].start, red[0].end = f"chunk*{spread}/{count}", f"(chunk + 1)*{spread}/{count}"
        nest_before += [f"{a.ctype} {a.name}_p[{n}];  /* the sums of {n} chunks */"
                        for a in sums]
        for a in sums:
            nest_after += [f"for (int64_t w = 1; w < {count}; w *= 2)  /* pairwise */",
                              (f"    for (int64_t c = 0; c + w < {count}; c += 2*w) "
                               f"{a.name}_p[c] = {a.name}_p[c] + {a.name}_p[c + w];"),
                              f"{out_ref(ref[id(a)], {})} = ({a.out_ctype}){a.name}_p[0];"]
    elif kept and parallel:
        loops[0].pragma = parallel
    out_at = len(loops)
    loops += red
    before, after = _scope(loops, out_at, nest_before, nest_after)
    inner_before, inner_after = _scope(loops, len(loops) - 1, nest_before, nest_after)
    kept_vars = {d: f"i{d}" for d in kept}
    stacked, depth = _depth(pushes)
    stacked = stacked or chunked
    lanes = _simd(loops, accs, simd)
    for a in accs:
        if not a.pairwise:
            before += _carried(a, lanes)
            after.append(f"{out_ref(ref[id(a)], kept_vars)} = ({a.out_ctype}){_result(a, lanes)};")
    if stacked:
        # (zeroed: only the slots `blocks` marks are read, which gcc -Wall cannot prove)
        before += [_stack(a, depth) for a in sums] + ["int64_t blocks = 0;"]
    inner_before += [f"{a.ctype} {a.name} = 0.0;" for a in sums]
    if stacked:
        inner_after += _push(sums, None)
        for a in sums:
            if chunked:
                after += _fold(a, depth, "", f"{a.name}_p[chunk]", "")
            else:
                after += _fold(a, depth, "", out_ref(ref[id(a)], kept_vars),
                               f"({a.out_ctype})")
    else:
        after += [f"{out_ref(ref[id(a)], kept_vars)} = ({a.out_ctype}){a.name};"
                  for a in sums]
    var_of = {d: f"i{d}" for d in range(len(dims))}
    return Nest(loops, element(var_of, {j: a.name for j, a in enumerate(accs)}, lanes),
                nest_before, nest_after)


def _simd(loops: list, accs: list, simd: bool) -> bool:
    """Mark an ``inner`` nest's block loop ``omp simd`` where its reductions allow: sums,
    and maxima and minima in lanes. Whether the max/min run in lanes (``_carried``)."""
    if simd and all(a.op == "sum" for a in accs):
        loops[-1].pragma = f"#pragma omp simd reduction(+:{','.join(a.name for a in accs)})"
        return False
    if not (simd and all(a.pairwise or a.op in ("max", "min") for a in accs)):
        return False
    loops[-1].pragma = "#pragma omp simd" + "".join(_lane_clause(a) for a in accs)
    return True


def _carried(a: Acc, lanes: bool) -> list[str]:
    """The declarations of a reduction carried beside the sums: its accumulator, and in
    lanes a float one's sum of NaNs (see loops.py)."""
    nan = [f"{a.ctype} {a.name}_nan = 0;"] if lanes and a.floating else []
    return [f"{a.ctype} {a.name} = {a.identity};"] + nan


def _result(a: Acc, lanes: bool) -> str:
    """C of its result: the accumulator, or in lanes the NaN its terms held."""
    if lanes and a.floating:
        return f"(({a.name}_nan != {a.name}_nan) ? {a.name}_nan : {a.name})"
    return a.name


def _lane_clause(a: Acc) -> str:
    """The ``reduction`` clauses of one accumulator of an ``inner`` block loop in lanes."""
    if a.op == "sum":
        return f" reduction(+:{a.name})"
    nan = f" reduction(+:{a.name}_nan)" if a.floating else ""
    return f" reduction({a.op}:{a.name}){nan}"


def _tiled(dims, outer, reduced, last, width, tiles, offset, accs, element, out_ref, *,
           parallel, simd, columns=None) -> Nest:
    """One nest of a ``tiled`` sum: ``tiles`` tiles of ``width`` outputs along dim ``last``,
    from index ``offset`` (one tile: no tile loop). ``columns``: a call-time number of
    outputs along ``last`` (``tiles`` is then C), the last tile holding the rest."""
    nest_before: list = []
    nest_after: list = []
    loops = [counted(f"i{d}", dims[d][0]) for d in outer]
    lane = f"i{last}"
    index = lane
    lanes = width
    if columns is not None or tiles > 1:
        loops.append(counted(f"tile{last}", tiles))
        index = f"tile{last}*{width} + {lane}"
    if columns is not None:
        lanes = f"w{last}"
        rest = f"{columns} - tile{last}*{width}"
        loops[-1].prologue.append(f"const int64_t {lanes} = {rest} < {width} ? {rest} : "
                                  f"{width};")
    if offset:
        index = f"{offset} + {index}"
    if loops and parallel:
        loops[0].pragma = parallel
    out_at = len(loops)
    red, pushes, _ = _reduced_loops(dims, reduced, ROWS)
    loops += red
    var_of = {d: f"i{d}" for d in range(len(dims))}
    var_of[last] = f"({index})" if index != lane else lane
    before, after = _scope(loops, out_at, nest_before, nest_after)
    blk_before, blk_after = _scope(loops, len(loops) - 1, nest_before, nest_after)
    sums = [a for a in accs if a.pairwise]
    stacked, depth = _depth(pushes)
    if stacked:
        before += [_stack(a, depth, f"[{width}]") for a in sums] + ["int64_t blocks = 0;"]
    blk_before += [f"{a.ctype} {a.name}[{width}] = {{0.0}};" for a in sums]
    if stacked:
        blk_after += _push(sums, (lane, lanes))
    outs = {**{d: f"i{d}" for d in outer}, last: var_of[last]}
    store = []
    for j, a in enumerate(accs):
        if not a.pairwise:
            continue
        target = out_ref(j, outs)
        if stacked:
            store += _fold(a, depth, f"[{lane}]", target, f"({a.out_ctype})")
        else:
            store.append(f"{target} = ({a.out_ctype}){a.name}[{lane}];")
    after += [f"for (int64_t {lane} = 0; {lane} < {lanes}; {lane}++) {{"] + \
        [f"    {line}" for line in store] + ["}"]
    loops.append(Loop(lane, "0", str(lanes), pragma="#pragma omp simd" if simd else ""))
    targets = {j: (f"{a.name}[{lane}]" if a.pairwise else None) for j, a in enumerate(accs)}
    return Nest(loops, element(var_of, targets), nest_before, nest_after)
