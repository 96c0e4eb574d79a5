"""A maximum or minimum of one long row, in partial results that do not wait on each other.

Layer: codegen (a helper of ``loops``). Input: a loop kernel over one reduced dim of at least
``MIN_LENGTH`` elements whose reductions are all maxima or minima, its views and accumulators
(``loops.LoopEmitter``). Output: its nests: the row in blocks of ``PARTS`` elements, element j
of a block into partial result j (the block's loop vectorized), then the partial results and
the remainder combined in order.

Why: in one accumulator, even in SIMD lanes, each step's comparison and select wait on the
one before (a chain of ~2.6 cycles a vector here), where the loads and comparisons of
``PARTS`` / lanes independent vectors overlap. Measured (a C harness, gcc 12 -O3, one
thread): the maximum of 160,000 doubles with its NaN check 0.039 -> 0.017 ms (NumPy's 0.013);
GradBench's logsumexp of 160,000 numbers reads them twice, the first time for this maximum.
Any order of comparisons gives the same extremum (a NaN anywhere is propagated by its own
sum, as in SIMD lanes); of a -0.0 and a +0.0 another one may be kept, as in SIMD lanes.
"""

from __future__ import annotations

from .nest import Loop, Nest
from .reductions import LANE_STEP
from .text import index

PARTS = 32           # partial results (a few vectors of any width: independent chains)
MIN_LENGTH = 1024    # elements: shorter rows, a few blocks, gain nothing measurable


def applies(dims: list, accs: dict, stores: list, vector_math: bool) -> bool:
    """Whether a kernel of these collapsed ``dims`` reduces one long row to maxima and minima
    only (and is marked ``omp simd``: vector math on)."""
    return (vector_math and len(dims) == 1 and dims[0][2] and type(dims[0][0]) is int
            and dims[0][0] >= MIN_LENGTH and bool(accs) and len(accs) == len(stores)
            and all(a.op in LANE_STEP for a in accs.values()))


def nests(emitter, k, dims: list, loads: list, outs: list, accs: dict, values: list) -> tuple:
    """(init, nests, final) of the kernel (see the module docstring); ``values``: the C
    operand each store reduces."""
    n = dims[0][0]
    full = n - n % PARTS
    init, block, combined, tail, final = [], [], [], [], []
    for j, (value, out) in enumerate(zip(values, outs)):
        a = accs[j]
        part, nan, step = f"{a.name}_v", f"{a.name}_nv", LANE_STEP[a.op]
        init += [f"{a.ctype} {part}[{PARTS}];", *([f"{a.ctype} {nan}[{PARTS}];"] * a.floating),
                 f"for (int64_t j = 0; j < {PARTS}; j++) {{ {part}[j] = {a.identity};"
                 + (f" {nan}[j] = 0;" if a.floating else "") + " }"]
        block.append(f"{part}[j] = {step.format(a=f'{part}[j]', v=value)};")
        tail.append(f"{a.name} = {step.format(a=a.name, v=value)};")
        combined += [f"{a.ctype} {a.name} = {a.identity};",
                     *([f"{a.ctype} {a.name}_nan = 0;"] * a.floating),
                     f"for (int64_t j = 0; j < {PARTS}; j++) {{ "
                     f"{a.name} = {step.format(a=a.name, v=f'{part}[j]')};"
                     + (f" {a.name}_nan = {a.name}_nan + {nan}[j];" if a.floating else "")
                     + " }"]
        result = a.name
        if a.floating:
            check = f"((({value}) != ({value})) ? ({value}) : 0)"
            block.append(f"{nan}[j] = {nan}[j] + {check};")
            tail.append(f"{a.name}_nan = {a.name}_nan + {check};")
            result = f"({a.name}_nan != {a.name}_nan) ? {a.name}_nan : {a.name}"
        final.append(f"{out.buffer.name}[{index(out, [])}] = ({out.buffer.dtype.ctype})"
                     f"({result});")
    made = [Nest([Loop("b", "0", str(full // PARTS)),
                  Loop("j", "0", str(PARTS), "#pragma omp simd")],
                 emitter.element(k, loads, [(f"(b*{PARTS} + j)", 0)]) + block),
            Nest([], combined)]
    if full < n:
        made.append(Nest([Loop("i0", str(full), str(n))],
                         emitter.element(k, loads, [("i0", 0)]) + tail))
    return init, made, final
