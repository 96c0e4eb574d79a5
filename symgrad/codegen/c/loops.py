"""Loop kernels -> C: one loop nest per fused kernel, with OpenMP and SIMD pragmas.

Layer: codegen. Input: a ``LoopKernel`` (loop IR). Output: its C text, and what it used: the
libm functions its statements call (for the vector math declarations), whether a loop is marked
``omp simd`` and whether one runs on threads. Dims contiguous in every view are merged into one
loop; float sums go through ``sumloop`` (blocked, pairwise); every statement carries a comment
naming the user's line.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...dims import Dim, c_text, large
from ...dtypes import int64
from ...lower.loopir import IndexedView, Literal, LoopKernel, Scalar, View
from . import extrema, regions, sumloop, tables, tiles
from .loopdims import clamped_index, collapse, flatten_views, gather_lines, guard
from .emitted import Emitted
from .exprs import c_statement
from .literals import c_literal
from .reductions import LANE_STEP, combine, identity, lane_clause
from .nest import Loop, Nest
from .render import render_kernel
from .text import index, loc_comment

# A loop runs on threads (OpenMP, `nthreads` from the caller) when elements x (1 + statements)
# reaches this: below it, waking the threads costs more than they save (measured ~2 us per
# parallel region with 2 threads; 1e5 element-ops take ~20-50 us on one core).
PARALLEL_MIN_WORK = 1 << 17
# A loop of fewer iterations than this is not marked `omp simd`: the pragma makes gcc
# vectorize regardless of its cost model, and a vector loop of 2 or 3 doubles (with its
# remainder loop and checks) is slower than the plain one. Measured on the 100-step RK4 of
# `make bench-compile` (2-element state vectors): 18.2 -> 10.2 us a call; the 7x7
# determinant's gradient (loops of 2 to 49 elements) keeps its 19.5 us (a threshold of 8
# took it to 25.6 us: at -O1 only marked loops are vectorized).
SIMD_MIN = 4
# Sums from 3 elements: a vectorized sum of 2 just stored one by one (a descent's 2-vector
# gradient, each step) reads them back as one vector, which the store buffer cannot forward
# (a stall of ~12 cycles: GradBench's saddle 1.4-1.9x slower); sums of 3 (bundle
# adjustment's 3-vectors, in a row loop) ran ~5% faster vectorized than not.
SUM_SIMD_MIN = 3
# A 1-D loop whose loads stop short of its end (``(i0 < 9999) ? a[1 + i0] : 0``, the gradient
# of a shift by one) runs as a loop without that test and a tail of at most this many
# iterations with it: gcc 12 vectorizes no loop with such a load ("control flow in loop";
# loads windowed from below vectorize). GradBench's ode gradient at n = 10,000: one of its
# reverse body's four such loops was scalar, ~25% of the body's time.
TAIL_MAX = 64

# Threads split a loop statically (same thread count, same result). `parallel:` limits the
# `if` to the threads: on a combined `parallel for simd` a bare `if` also applies to the simd
# part (OpenMP 4.5+), and gcc then runs the single-thread case unvectorized (measured: a fused
# tanh value_and_grad of 1e7 elements took 84 ms on 1 thread instead of 20 ms).
THREADS = " schedule(static) num_threads(nthreads) if(parallel: nthreads > 1)"
# A loop with gathers sets this flag when an index is out of its bound (its kernel's error
# status after it, as an index kernel's).
BAD = "sg_bad"


# The size checks that choose threads (or BLAS) read the sizes through volatile copies
# (declared by codegen.c.module): gcc 12.2 -O3 -fopenmp miscompiled a shape-generic CNN (wrong
# max-pool outputs) when its range propagation and jump threading could use them, and any of
# -fno-tree-vrp, -fno-tree-dominator-opts, -fno-tree-ch or a copy it cannot see through
# avoided it (tests/api/test_dynamic.py::test_conv_bias_padding_max_pool).
OPAQUE = "sg_opaque_"


def opaque(size: Dim) -> str:
    """C of a call-time size for a run-time decision: on the opaque copies of the sizes."""
    return c_text(tuple((tuple(OPAQUE + s for s in m), c) for m, c in size.terms))


def large_work(work: Dim) -> str:
    """C: ``work >= PARALLEL_MIN_WORK``, on the opaque copies of the sizes."""
    return f"{opaque(work)} >= {PARALLEL_MIN_WORK}"

def operand(a, loads_c: list) -> str:
    """The C text of a statement's operand: a literal, a scalar local, a 0-d view read at
    function scope, a load of the loop (``("load", k)``) or a local name."""
    if isinstance(a, Literal):
        return c_literal(a.value, a.dtype)
    if isinstance(a, Scalar):
        return a.name
    if isinstance(a, View):
        return f"{a.buffer.name}[{a.offset}]"
    if isinstance(a, tuple):
        return loads_c[a[1]]
    return a


def emit(ctx, number: int, k: LoopKernel) -> Emitted:
    """The ``loops`` kernel family: ``ctx.loops`` prints the loop nest."""
    text, threaded, functions = ctx.loops.emit(number, k)
    errors = ()
    if k.fails:      # (status number + 1, as an index kernel's: codegen.c.index)
        loc = next(s.loc for s in k.body if s.expr.op == "gather")
        where_ = f" (from {loc}: {loc.text})" if loc else ""
        errors = ((number + 1, f"an index passed to gather is out of range{where_}"),)
    return Emitted(text, math.prod(k.shape), uses=frozenset(a.name for a in k.scalars()),
                   threaded=threaded, errors=errors, functions=tuple(functions))


def local_ctype(dtype) -> str:
    """The C type of a loop body's local: a bool is an ``int`` there, as C's comparisons
    give it (buffers keep one byte). gcc 12 vectorizes no loop that narrows the comparison
    of two int64 values into a byte (``const uint8_t t = a == b`` with int64_t a, b: "no
    vectype"), as the columns of an identity matrix are compared."""
    return "int" if dtype.is_bool else dtype.ctype


class LoopEmitter:
    """Prints loop kernels. ``vector_math``: mark loops ``omp simd`` (glibc's vector math);
    ``parallel``: large loops may run on threads; ``entry``: the module's entry point (its
    threaded loops' functions are named after it, ``regions``), ``sizes``: the call-time sizes
    loops may name. Accumulates ``calls`` (libm functions called in loops) and ``simd`` (some
    loop is marked ``omp simd``)."""

    def __init__(self, env, vector_math: bool, parallel: bool, entry: str = "sg",
                 sizes: tuple = ()):
        self.env = env
        self.entry, self.sizes = entry, sizes
        self.made_regions = 0                # threaded loops' functions made so far
        self.span: tuple | None = None       # C (start, end) of a 1-D loop (a strip: ``strips``)
        self.vector_math = vector_math
        self.parallel = parallel
        self.calls: set = set()
        self.simd = False
        self.work_check: str | None = None   # C: the work is enough for threads (call-time)
        self.gathers = False                 # the kernel being printed reads at indices
        self.fails = False                   # ... and checks one (``LoopKernel.fails``)
        self.tables: dict = {}               # small constants the loops print (``tables``)

    def emit(self, number: int, k: LoopKernel) -> tuple[str, bool, list]:
        """(the kernel's C, whether it runs on threads, the C of the functions it calls: its
        threaded loops', ``regions``); "" for a loop with no iterations."""
        views = k.loads + [s.out for s in k.stores]
        reduces = any(s.reduce for s in k.stores)
        reduced = set(k.reduce_axes) if reduces else set()
        dims = collapse(k.shape, views, [d in reduced for d in range(len(k.shape))])
        if any(ext == 0 for ext, _, _, _ in dims) and not reduces:
            return "", False, []
        flat = flatten_views(views, dims)
        loads, outs = flat[:len(k.loads)], flat[len(k.loads):]
        accs = self._accumulators(k.stores, outs)
        work = math.prod(k.shape) * (1 + len(k.body))
        threads = bool(dims) and large(work, PARALLEL_MIN_WORK)
        # (call-time sizes: whether the work is large enough is known only at run time)
        self.work_check = large_work(work) if isinstance(work, Dim) else None
        mode = sumloop.plan(dims, list(accs.values()))
        self.gathers, self.fails = k.gathers, k.fails
        init, nests, final = self._nests(k, mode, dims, loads, outs, accs, threads)
        pragmas = [lp.pragma for n in nests for lp in n.loops]
        self.simd |= any("simd" in p for p in pragmas)
        threaded = any("parallel" in p for p in pragmas)
        functions = []
        if threaded:
            nests, functions = regions.split(self.region_name(), nests, init,
                                             regions.known([k], self.sizes), self.env)
        if self.fails:        # an index out of its bound: the error status, after the loop
            init = [f"int {BAD} = 0;"] + init
            final = final + [f"if ({BAD}) return {number + 1};"]
        return self._render(number, k, init, nests, final), threaded, functions

    def region_name(self) -> str:
        """A new name for a threaded loop's function (``regions``)."""
        self.made_regions += 1
        return f"{self.entry}_loop{self.made_regions}"

    def _nests(self, k, mode, dims, loads, outs, accs, threads) -> tuple[list, list, list]:
        if mode is not None:    # float sums: blocked and pairwise (see sumloop.py)
            return self._sum_nests(k, mode, dims, loads, outs, accs, threads)
        return self._plain_nest(k, dims, loads, outs, accs, threads)

    def element(self, k: LoopKernel, loads: list, loop_vars: list) -> list[str]:
        """The lines of one loop iteration before its stores: the loads and the statements.
        ``loop_vars``: (C index expression, loop dim) per loop dim."""
        body, declared = [], set()
        for i, v in enumerate(loads):
            if isinstance(v, IndexedView):      # read by its gather statement
                continue
            dtype = v.buffer.dtype
            source = v.buffer.name
            table = self.tables.get(id(v.buffer))
            if table is not None:       # a small constant: read from its values in the C
                source = tables.table_name(v.buffer)
                if source not in declared:
                    declared.add(source)
                    body.append(tables.declaration(*table))
            read = f"{source}[{index(v, loop_vars)}]"
            cond = guard(v, loop_vars)
            if cond:     # the fill outside the window (0 for the gradient of a slice)
                held = clamped_index(v, loop_vars)
                if held is not None:     # (a load and a select, not a branch: vectorizes)
                    body.append(f"const {dtype.ctype} r{i} = {source}[{held}];")
                    read = f"r{i}"
                read = f"({cond}) ? {read} : {c_literal(v.fill, dtype)}"
            body.append(f"const {dtype.ctype} l{i} = {read};")
        load_names = [f"l{i}" for i in range(len(loads))]
        for s in k.body:
            if s.expr.op == "gather":
                body += gather_lines(s, loads[s.args[0][1]], operand(s.args[1], load_names),
                                     loop_vars, BAD)
                continue
            text, calls = c_statement(s.expr, [operand(a, load_names) for a in s.args])
            self.calls.update(calls)
            body.append(f"const {local_ctype(s.expr.dtype)} {s.local} = {text};"
                        f"  /* {loc_comment(s.loc, s.expr.op)} */")
        return body

    def _accumulators(self, stores: list, outs: list) -> dict:
        """A ``sumloop.Acc`` per reducing store (keyed by the store's position): its C name
        and type, the op's identity, the line that fills its output with the identity."""
        n = sum(1 for st in stores if st.reduce)
        accs = {}
        for j, (st, out) in enumerate(zip(stores, outs)):
            if not st.reduce:
                continue
            dtype = out.buffer.dtype
            acc_dtype = dtype.accumulates_in if st.reduce == "sum" and dtype.is_differentiable \
                else dtype
            unsigned = dtype is int64 and st.reduce in ("sum", "prod")   # (see combine)
            fill = (f"for (int64_t i = 0; i < {st.size}; i++) "
                    f"{out.buffer.name}[{out.offset} + i] = {identity(st.reduce, dtype)};")
            accs[j] = sumloop.Acc("acc" if n == 1 else f"acc{len(accs)}", st.reduce,
                                  acc_dtype, dtype, identity(st.reduce, acc_dtype), fill,
                                  combine(st.reduce, acc_dtype, unsigned), unsigned)
        return accs

    def _plain_nest(self, k, dims, loads, outs, accs, threads) -> tuple[list, list, list]:
        """One nest over the collapsed dims; reductions accumulate in a register when their
        dims are innermost, else in place in their output."""
        if not self.gathers and (tile := tiles.tile(dims, loads, accs)):
            return tiles.nests(self, k, dims, loads, outs, accs, threads, tile)
        if not self.fails and extrema.applies(dims, accs, k.stores, self.vector_math):
            names = [f"l{i}" for i in range(len(loads))]
            return extrema.nests(self, k, dims, loads, outs, accs,
                                 [operand(st.value, names) for st in k.stores])
        loops = [Loop(f"i{d}", "0", str(dims[d][0])) for d in range(len(dims))]
        if self.span:
            loops[0].start, loops[0].end = self.span
        loop_vars = [(f"i{d}", d) for d in range(len(dims))]
        init, final = [], []
        body = self.element(k, loads, loop_vars)
        load_names = [f"l{i}" for i in range(len(loads))]
        n_kept = sum(1 for _, _, g, _ in dims if not g)
        inner = any(s.reduce for s in k.stores) and all(
            not g or all(g2 for _, _, g2, _ in dims[j:]) for j, (_, _, g, _) in enumerate(dims))
        lanes = inner and self._lanes(dims, accs)
        for j, (st, out) in enumerate(zip(k.stores, outs)):
            value = operand(st.value, load_names)
            if not st.reduce:
                body.append(self.store_line(st, out, loop_vars, load_names))
            elif inner:
                # Reduced dims are innermost: accumulate in a register, store once per output.
                acc = accs[j]
                result, step = acc.name, acc.step
                decls = [f"{acc.ctype} {acc.name} = {acc.identity};"]
                if lanes and acc.op in LANE_STEP:
                    step = LANE_STEP[acc.op]
                    if acc.floating:
                        nan = f"{acc.name}_nan"
                        decls.append(f"{acc.ctype} {nan} = 0;")
                        body.append(f"{nan} = {nan} + ((({value}) != ({value})) ? ({value}) "
                                    f": 0);")
                        result = f"({nan} != {nan}) ? {nan} : {acc.name}"
                store = (f"{out.buffer.name}[{index(out, loop_vars[:n_kept])}] = "
                         f"({out.buffer.dtype.ctype})({result});")
                (loops[n_kept - 1].prologue if n_kept else init).extend(decls)
                (loops[n_kept - 1].epilogue if n_kept else final).append(store)
                body.append(f"{acc.name} = {step.format(a=acc.name, v=value)};")
            else:
                # Reduced dims are outer: accumulate in place, walking the input in order.
                init.append(accs[j].fill)
                body.append(self.store_line(st, out, loop_vars, load_names))
        self._pragmas(loops, dims, accs, inner, n_kept, threads, lanes)
        return init, self._peeled(k, dims, loads, outs, loops, body), final

    def _peeled(self, k, dims, loads, outs, loops, body) -> list:
        """The nests of a loop: one, or (a 1-D loop whose windowed loads stop short of its end,
        see ``TAIL_MAX``) the loop up to the first such stop, its loads read without the
        test, then the tail with it. Each element is computed by the same statements."""
        ext = dims[0][0] if len(dims) == 1 else None
        if type(ext) is not int or self.span or k.reduces:
            return [Nest(loops, body)]
        stops = [v.window[0][1] for v in loads
                 if type(v) is View and v.window is not None and v.window[0][1] < ext]
        stop = min(stops, default=ext)
        if stop == ext or ext - stop > TAIL_MAX or stop < SIMD_MIN:
            return [Nest(loops, body)]
        main = [replace(v, window=((v.window[0][0], ext),)) if type(v) is View and
                v.window is not None and v.window[0][1] < ext else v for v in loads]
        var = loops[0].var
        loop_vars = [(var, 0)]
        names = [f"l{i}" for i in range(len(loads))]
        main_body = self.element(k, main, loop_vars) + [
            self.store_line(st, out, loop_vars, names) for st, out in zip(k.stores, outs)]
        return [Nest([replace(loops[0], end=str(stop))], main_body),
                Nest([Loop(var, str(stop), str(ext))], body)]

    def store_line(self, st, out, loop_vars: list, load_names: list) -> str:
        """A store's line in each iteration (a reduction's: into its output in place)."""
        value = operand(st.value, load_names)
        out_ix = f"{out.buffer.name}[{index(out, loop_vars)}]"
        if st.reduce:
            return f"{out_ix} = {combine(st.reduce, out.buffer.dtype).format(a=out_ix, v=value)};"
        return f"{out_ix} {'+=' if st.accumulate else '='} {value};"

    def _lanes(self, dims, accs) -> bool:
        """Whether the innermost (reduced) loop accumulates in SIMD lanes: its reductions are
        sums, maxima and minima (a product keeps its order) and the loop is marked simd."""
        return (self.vector_math and bool(dims) and dims[-1][2]
                and large(dims[-1][0], SIMD_MIN)
                and all(a.op in ("sum", "max", "min") for a in accs.values()))

    @property
    def clause(self) -> str:
        """``THREADS``, with the run-time work check of call-time sizes (below
        ``PARALLEL_MIN_WORK`` the loop stays on the calling thread)."""
        if self.work_check is None:
            return THREADS
        return THREADS.replace("nthreads > 1)", f"nthreads > 1 && {self.work_check})")

    def _pragmas(self, loops, dims, accs, inner, n_kept, threads, lanes) -> None:
        """`omp simd` on the innermost loop, `omp parallel for` on the outermost, where legal."""
        all_sums = all(a.op == "sum" for a in accs.values())
        acc_names = ",".join(a.name for a in accs.values())
        # `omp simd`: no loop-carried dependence except the accumulators of sums (reordered
        # into SIMD lanes: a different, not a less accurate, summation order), maxima and
        # minima (any order gives the same extremum; their NaNs are summed apart).
        simd = None
        if self.vector_math and dims and large(dims[-1][0], SIMD_MIN):
            if not dims[-1][2]:
                simd = ""
            elif lanes:
                simd = "".join(lane_clause(a) for a in accs.values())
        flag = f" reduction(|:{BAD})" if self.fails else ""
        if simd is not None:
            simd += flag
            loops[-1].pragma = f"#pragma omp simd{simd}"
        if not (self.parallel and threads):
            return
        # Threads split the outermost loop statically (same thread count, same result): legal
        # when each iteration owns its outputs, or when the loop reduces into sum accumulators
        # (each thread sums its block, the blocks are added in order).
        par = None
        if not dims[0][2]:
            par = flag
        elif inner and n_kept == 0 and all_sums:
            par = f" reduction(+:{acc_names}){flag}"
        if par is None:
            return
        if len(loops) == 1 and simd is not None:
            # one loop, both at once: one reduction clause covers threads and lanes
            loops[0].pragma = f"#pragma omp parallel for simd{simd or par}{self.clause}"
        else:
            loops[0].pragma = f"#pragma omp parallel for{par}{self.clause}"

    def _sum_nests(self, k, mode, dims, loads, outs, accs, threads) -> tuple[list, list, list]:
        """A kernel with float sums: the blocked, pairwise nests of ``sumloop``."""
        load_names = [f"l{i}" for i in range(len(loads))]
        slots = list(accs)           # sumloop's accumulator i is store slots[i]

        def element(var_of: dict, targets: dict, lanes: bool = False) -> list[str]:
            loop_vars = [(var_of[d], d) for d in range(len(dims))]
            body = self.element(k, loads, loop_vars)
            for j, (st, out) in enumerate(zip(k.stores, outs)):
                value = operand(st.value, load_names)
                out_ix = f"{out.buffer.name}[{index(out, loop_vars)}]"
                if not st.reduce:
                    body.append(f"{out_ix} {'+=' if st.accumulate else '='} {value};")
                    continue
                a, target = accs[j], targets[slots.index(j)]
                step = combine(a.op, a.out_dtype) if target is None else a.step
                if lanes and a.op in LANE_STEP:     # (sumloop: maxima and minima in lanes)
                    step = LANE_STEP[a.op]
                    if a.floating:
                        body.append(f"{target}_nan = {target}_nan + ((({value}) != ({value}))"
                                    f" ? ({value}) : 0);")
                target = out_ix if target is None else target    # (None: in the output)
                body.append(f"{target} = {step.format(a=target, v=value)};")
            return body

        def out_ref(i: int, var_of: dict) -> str:
            out = outs[slots[i]]
            return f"{out.buffer.name}[{index(out, [(v, d) for d, v in sorted(var_of.items())])}]"
        # (a gather's error flag is not among sumloop's reductions: its nests stay plain)
        threads = threads and not self.fails
        parallel = f"#pragma omp parallel for{self.clause}" if self.parallel and threads \
            else ""
        init, nests = sumloop.build(mode, dims, list(accs.values()), element, out_ref,
                                    threads=threads, parallel=parallel,
                                    simd=self.vector_math and not self.fails and
                                    large(dims[-1][0], SUM_SIMD_MIN),
                                    work_check=self.work_check)
        return init, nests, []

    def _render(self, number: int, k: LoopKernel, init: list, nests: list, final: list) -> str:
        """The C of a loop kernel: its title and source lines, then the nests."""
        reduces = [s for s in k.stores if s.reduce]
        comments = []
        written = ", ".join(st.out.buffer.name for st in k.stores)
        if reduces:
            ops = "/".join(dict.fromkeys(st.reduce for st in reduces))
            title = f"{ops} over axes {list(k.reduce_axes)} -> {written}"
            for st in reduces:
                comments.append(loc_comment(st.loc, st.op))
        else:
            into = "+=" if any(st.accumulate for st in k.stores) else "->"
            title = f"{k.op} {into} {written} {list(k.shape)}"
        if len(k.body) > 1 or len(k.stores) > 1:
            title += f" (fused: {len(k.body)} ops, {len(k.stores)} stores)"
        return render_kernel(self.env, number, title, comments, nests, init, final)
