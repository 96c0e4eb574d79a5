"""Code generation: loop IR -> one C99 translation unit, through the Jinja2 templates.

Input: a ``Program`` (lower.py). Output: ``CSource`` (the C text, the entry point's name and
its cffi declaration). Python makes every decision (loop nests, index arithmetic, statement
text via the SymPy C printer); the templates in ``templates/`` hold only layout. The text is a
pure function of the program: same graph, same bytes. Every statement carries a comment naming
the user's ``file.py:line`` and the op. It must not compile or load anything.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import math
import pickle
import re
from dataclasses import dataclass
from pathlib import Path

import jinja2
import sympy

from . import sumloop
from .compiler import SCALAR_UNIT_FLAGS
from .cprinter import c_expr, c_literal
from .gcpause import pausing
from .ir import Node
from .lower import IndexKernel, Literal, LoopKernel, MatmulKernel, Program, Scalar, ScalarStmt, View
from .ops import get

# Below this many multiply-adds a plain loop beats the BLAS call's fixed cost.
BLAS_MIN_FLOPS = 8192

# A loop runs on threads (OpenMP, `nthreads` from the caller) when elements x (1 + statements)
# reaches this: below it, waking the threads costs more than they save (measured ~2 us per
# parallel region with 2 threads; 1e5 element-ops take ~20-50 us on one core).
PARALLEL_MIN_WORK = 1 << 17


@dataclass(frozen=True)
class CSource:
    text: str
    entry: str
    cdef: str
    workspace_bytes: int = 0     # temporaries, plus the spill slots of a split function
    # The translation units the build compiles the text as: extra compiler flags for each
    # (appended after the default ones). One unit: the whole text, as is. Several: unit k is
    # the text compiled with -DSG_TU=k (see ``_assign_units``); ``compiler.text_units`` derives
    # the same tuple from the text's markers.
    units: tuple = ((),)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The template environment: the installed package's templates, or the source tree's."""
    try:
        root = importlib.resources.files("symgrad.templates")
        path = Path(str(root))
        if not (path / "module.c.j2").is_file():
            raise FileNotFoundError
    except (ModuleNotFoundError, FileNotFoundError, TypeError):
        path = Path(__file__).resolve().parent.parent / "templates"
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(path)),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True, autoescape=False,
                              bytecode_cache=_template_bytecode_cache())


def _template_bytecode_cache():
    """Compiled templates kept next to the compiled modules: compiling the four templates from
    source is ~40 ms of every fresh process's first call, more than the rest of a cache hit.
    Jinja2 keys each entry on the template's source checksum; the directory is private (0700)
    like the module cache, and none is used when caching is off or the directory is unusable."""
    from .cache import private_dir
    directory = private_dir("templates")
    if directory is None:
        return None
    return _SafeBytecodeCache(str(directory))


class _SafeBytecodeCache(jinja2.FileSystemBytecodeCache):
    """A bytecode cache that never breaks a build: a truncated or corrupt entry is ignored
    (the template compiles from source and the entry is rewritten), and a write that fails
    (full or read-only disk) is skipped."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


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


_TRIGRAPH = re.compile(r"\?\?(?=[=/'()!<>-])")


def c_identifier(name: str) -> str:
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return ident if ident and not ident[0].isdigit() else f"f_{ident}"


# ------------------------------------------------------------------ shared helpers

def _index(view: View, dims: list) -> str:
    """C index expression of ``view`` for loop variables ``dims`` [(var, dim)]."""
    terms = [str(view.offset)] if view.offset else []
    for var, d in dims:
        s = view.strides[d]
        if s == 0 or view.shape[d] == 1:
            continue
        terms.append(var if s == 1 else f"{var}*{s}")
    return " + ".join(terms) or "0"


def _partial(view: View, d: int) -> bool:
    return view.window is not None and view.window[d] != (0, view.shape[d])


def _collapse(shape: tuple, views: list, groups: list) -> list:
    """Loop dims after dropping size-1 dims and merging dims that are contiguous in every
    view (and in the same reduce group; a dim some view reads through a window stays alone).
    Returns a list of (extent, [strides per view], group, original dim or None if merged)."""
    dims = [(shape[d], [v.strides[d] for v in views], groups[d], d)
            for d in range(len(shape)) if shape[d] != 1]
    windowed = {d for d in range(len(shape)) if any(_partial(v, d) for v in views)}
    merged: list = []
    for ext, strides, grp, d in dims:
        if merged:
            pext, pstrides, pgrp, pd = merged[-1]
            if pgrp == grp and all(ps == s * ext for ps, s in zip(pstrides, strides)) and \
                    d not in windowed and pd not in windowed:
                merged[-1] = (pext * ext, strides, grp, None)
                continue
        merged.append((ext, strides, grp, d))
    return merged


def _flatten_views(views: list, dims: list) -> list:
    """The views over the collapsed loop dims (windows kept on the dims that have one)."""
    flat = []
    for i, v in enumerate(views):
        window = None
        if v.window is not None:
            window = tuple(v.window[d] if d is not None else (0, e) for e, _, _, d in dims)
        flat.append(View(v.buffer, v.offset, tuple(e for e, _, _, _ in dims),
                         tuple(s[i] for _, s, _, _ in dims), window))
    return flat


def _guard(view: View, loop_vars: list) -> str:
    """The C condition under which a windowed view reads its buffer ("" if always)."""
    if view.window is None:
        return ""
    conds = []
    for (var, d), (lo, hi) in zip(loop_vars, view.window):
        if lo > 0:
            conds.append(f"{var} >= {lo}")
        if hi < view.shape[d]:
            conds.append(f"{var} < {hi}")
    return " && ".join(conds)


class _Emitter:
    def __init__(self, program: Program, vector_math: bool = False):
        self.program = program
        self.env = environment()
        self._last_loc = None
        self.vector_math = vector_math
        # OpenBLAS runs its own thread pool: OpenMP threads spinning after a parallel loop
        # starve it (measured: the mlp gradient went from 1.0 ms to 8.0 ms on 2 cores). A
        # program that calls BLAS leaves the threads to BLAS.
        self.parallel = not any(isinstance(k, MatmulKernel) and _blas_worthy(k.a, k.b)
                                for k in program.kernels)

    def loc_comment(self, node: Node) -> str:
        loc = self.program.locs.get(node)
        if loc is None:
            return node.op
        text = f"{loc}: {loc.text}" if loc.text else str(loc)
        return comment_text(f"{text}  [{node.op}]")

    def arg(self, a, loads_c: list) -> str:
        if isinstance(a, Literal):
            return c_literal(a.value, a.dtype.ctype)
        if isinstance(a, Scalar):
            return a.name
        if isinstance(a, View):               # a 0-d view, read at function scope
            return f"{a.buffer.name}[{a.offset}]"
        if isinstance(a, tuple):
            return loads_c[a[1]]
        return a

    def stmt(self, node: Node, args: list) -> str:
        # Functions and literals are printed in the operands' type (comparisons of floats
        # produce bools, but compare as floats).
        in_ctype = node.inputs[-1].dtype.ctype if node.inputs else node.dtype.ctype
        if node.op == "cast":
            if node.dtype.name == "bool":
                return f"({args[0]} != 0)"
            return f"({node.dtype.ctype})({args[0]})"
        text = _template(node.op, in_ctype)
        if node.op == "pow" and isinstance(node.inputs[1], Node):
            text = _pow_template(_literal_exponent(node.inputs[1]), in_ctype) or text
        simple = _SIMPLE.fullmatch
        for i, a in enumerate(args):
            text = text.replace(_placeholder(i), a if simple(a) else f"({a})")
        return text

    # -------------------------------------------------------------- scalar statements
    def scalar(self, k: ScalarStmt) -> str:
        """One line at function scope; the user's source line is shown when it changes."""
        node = k.node
        text = self.stmt(node, [a.name if type(a) is Scalar else self.arg(a, [])
                                for a in k.args])
        loc = self.program.locs.get(node)
        line = f"    const {node.dtype.ctype} {k.name} = {text};  /* "
        if loc is None:
            return f"{line}[{node.op}] */"
        line = f"{line}{_where(loc.file, loc.line)} [{node.op}] */"
        if (loc.file, loc.line, loc.note) != self._last_loc:
            self._last_loc = (loc.file, loc.line, loc.note)
            return f"    /* {comment_text(f'{loc}: {loc.text}')} */\n{line}"
        return line

    # -------------------------------------------------------------- loop kernels
    def loop(self, number: int, k: LoopKernel) -> str:
        views = k.loads + [s.out for s in k.stores]
        reduces = [s for s in k.stores if s.reduce]
        reduced = set(k.reduce_axes) if reduces else set()
        groups = [d in reduced for d in range(len(k.shape))]
        dims = _collapse(k.shape, views, groups)
        if any(ext == 0 for ext, _, _, _ in dims) and not reduces:
            return ""
        flat = _flatten_views(views, dims)
        loads, outs = flat[:len(k.loads)], flat[len(k.loads):]
        inner_reduce = bool(reduces) and all(
            not g or all(g2 for _, _, g2, _ in dims[j:]) for j, (_, _, g, _) in enumerate(dims))
        loop_vars = [(f"i{d}", d) for d in range(len(dims))]
        accs = self._accumulators(k.stores, outs)
        work = math.prod(k.shape) * (1 + len(k.body))
        threads = bool(dims) and work >= PARALLEL_MIN_WORK
        mode = sumloop.plan(dims, list(accs.values()))
        if mode is not None:    # float sums: blocked and pairwise (see sumloop.py)
            return self._sum_loop(number, k, mode, dims, loads, outs, accs, threads)
        loop_specs = [dict(var=f"i{d}", start="0", end=dims[d][0], depth=d, prologue=[],
                           epilogue=[], pragma="") for d in range(len(dims))]
        init, final = [], []
        body = self._element(k, loads, loop_vars)
        load_names = [f"l{i}" for i in range(len(loads))]
        n_kept = sum(1 for _, _, g, _ in dims if not g)
        for j, (st, out) in enumerate(zip(k.stores, outs)):
            value = self.arg(st.value, load_names)
            out_ix = f"{out.buffer.name}[{_index(out, loop_vars)}]"
            out_ctype = out.buffer.dtype.ctype
            if not st.reduce:
                body.append(f"{out_ix} = {value};")
                continue
            if inner_reduce:
                # Reduced dims are innermost: accumulate in a register, store once per output.
                acc, acc_type = accs[j].name, accs[j].ctype
                store = (f"{out.buffer.name}[{_index(out, loop_vars[:n_kept])}] = "
                         f"({out_ctype}){acc};")
                decl = f"{acc_type} {acc} = {accs[j].identity};"
                if n_kept:
                    loop_specs[n_kept - 1]["prologue"].append(decl)
                    loop_specs[n_kept - 1]["epilogue"].append(store)
                else:
                    init.append(decl)
                    final.append(store)
                body.append(f"{acc} = {_combine(st.reduce, acc_type).format(a=acc, v=value)};")
            else:
                # Reduced dims are outer: accumulate in place, walking the input in order.
                init.append(accs[j].fill)
                combine = _combine(st.reduce, out_ctype)
                body.append(f"{out_ix} = {combine.format(a=out_ix, v=value)};")
        all_sums = all(a.op == "sum" for a in accs.values())
        acc_names = ",".join(a.name for a in accs.values())
        # `omp simd` on the innermost loop (clause text, or None): it has no loop-carried
        # dependence except sums' accumulators (reordered into SIMD lanes: a different, not a
        # less accurate, summation order).
        simd = None
        if self.vector_math and dims:
            if not dims[-1][2]:
                simd = ""
            elif inner_reduce and all_sums:
                simd = f" reduction(+:{acc_names})"
        if simd is not None:
            loop_specs[-1]["pragma"] = f"#pragma omp simd{simd}"
        if self.parallel and threads:
            # Threads split the outermost loop statically (same thread count, same result):
            # legal when each iteration owns its outputs, or when the loop reduces into sum
            # accumulators (each thread sums its block, the blocks are added in order).
            par = None
            if not dims[0][2]:
                par = ""
            elif inner_reduce and n_kept == 0 and all_sums:
                par = f" reduction(+:{acc_names})"
            if par is not None:
                if len(loop_specs) == 1 and simd is not None:
                    # one loop, both at once: one reduction clause covers threads and lanes
                    loop_specs[0]["pragma"] = \
                        f"#pragma omp parallel for simd{simd or par}{_THREADS}"
                else:
                    loop_specs[0]["pragma"] = f"#pragma omp parallel for{par}{_THREADS}"
        nest = {"before": [], "after": [], "loops": loop_specs, "body": body,
                "depth": len(loop_specs)}
        return self._render_loop(number, k, init, [nest], final)

    def _element(self, k: LoopKernel, loads: list, loop_vars: list) -> list[str]:
        """The lines of one loop iteration before its stores: the loads and the statements.
        ``loop_vars``: (C index expression, loop dim) per loop dim."""
        body = []
        for i, v in enumerate(loads):
            ctype = v.buffer.dtype.ctype
            read = f"{v.buffer.name}[{_index(v, loop_vars)}]"
            guard = _guard(v, loop_vars)
            if guard:     # zero outside the window (the gradient of a slice)
                read = f"({guard}) ? {read} : {c_literal(0, ctype)}"
            body.append(f"const {ctype} l{i} = {read};")
        load_names = [f"l{i}" for i in range(len(loads))]
        for s in k.body:
            args = [self.arg(a, load_names) for a in s.args]
            body.append(f"const {s.node.dtype.ctype} {s.local} = {self.stmt(s.node, args)};"
                        f"  /* {self.loc_comment(s.node)} */")
        return body

    def _accumulators(self, stores: list, outs: list) -> dict:
        """A ``sumloop.Acc`` per reducing store (keyed by the store's position): its C name
        and type, the op's identity, the line that fills its output with the identity."""
        n = sum(1 for st in stores if st.reduce)
        accs = {}
        for j, (st, out) in enumerate(zip(stores, outs)):
            if not st.reduce:
                continue
            out_ctype = out.buffer.dtype.ctype
            acc_type = "double" if (st.reduce == "sum" and out_ctype == "float") else out_ctype
            if out_ctype == "int64_t" and st.reduce in ("sum", "prod"):
                acc_type = "uint64_t"   # wraps modulo 2**64 (see _combine)
            fill = (f"for (int64_t i = 0; i < {st.node.size}; i++) "
                    f"{out.buffer.name}[{out.offset} + i] = {_identity(st.reduce, out_ctype)};")
            accs[j] = sumloop.Acc("acc" if n == 1 else f"acc{len(accs)}", st.reduce, acc_type,
                                  out_ctype, _identity(st.reduce, acc_type), fill)
        return accs

    def _sum_loop(self, number: int, k: LoopKernel, mode: str, dims: list, loads: list,
                  outs: list, accs: dict, threads: bool) -> str:
        """A kernel with float sums: the blocked, pairwise nests of ``sumloop``."""
        load_names = [f"l{i}" for i in range(len(loads))]
        slots = list(accs)           # sumloop's accumulator i is store slots[i]

        def element(var_of: dict, targets: dict) -> list[str]:
            loop_vars = [(var_of[d], d) for d in range(len(dims))]
            body = self._element(k, loads, loop_vars)
            for j, (st, out) in enumerate(zip(k.stores, outs)):
                value = self.arg(st.value, load_names)
                out_ix = f"{out.buffer.name}[{_index(out, loop_vars)}]"
                if not st.reduce:
                    body.append(f"{out_ix} = {value};")
                    continue
                a, target = accs[j], targets[slots.index(j)]
                if target is None:     # in place, in the output
                    target, ctype = out_ix, a.out_ctype
                else:
                    ctype = a.ctype
                body.append(f"{target} = {_combine(a.op, ctype).format(a=target, v=value)};")
            return body

        def out_ref(i: int, var_of: dict) -> str:
            out = outs[slots[i]]
            return f"{out.buffer.name}[{_index(out, [(v, d) for d, v in sorted(var_of.items())])}]"
        parallel = f"#pragma omp parallel for{_THREADS}" if self.parallel and threads else ""
        init, nests = sumloop.build(mode, dims, list(accs.values()), element, out_ref,
                                    threads=threads, parallel=parallel, simd=self.vector_math)
        return self._render_loop(number, k, init, nests, [])

    def _render_loop(self, number: int, k: LoopKernel, init: list, nests: list,
                     final: list) -> str:
        """The C of a loop kernel: its title and source lines, then the nests."""
        reduces = [s for s in k.stores if s.reduce]
        comments = []
        written = ", ".join(st.out.buffer.name for st in k.stores)
        if reduces:
            ops = "/".join(dict.fromkeys(st.reduce for st in reduces))
            title = f"{ops} over axes {list(k.reduce_axes)} -> {written}"
            for st in reduces:
                comments.append(self.loc_comment(st.node))
        else:
            title = f"{k.node.op} -> {written} {list(k.shape)}"
        if len(k.body) > 1 or len(k.stores) > 1:
            title += f" (fused: {len(k.body)} ops, {len(k.stores)} stores)"
        return self.env.get_template("loop.c.j2").render(
            number=number, title=title, comments=comments, init=init, nests=nests,
            final=final)

    # -------------------------------------------------------------- matmul
    def matmul(self, number: int, k: MatmulKernel) -> str:
        a, b, out = k.a, k.b, k.out
        m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
        if m * n == 0:
            return ""
        batch_shape = out.shape[:-2]
        batch = [dict(var=f"b{d}", extent=e, depth=d) for d, e in enumerate(batch_shape)]
        bvars = [(f"b{d}", d) for d in range(len(batch_shape))]

        def boff(v: View) -> str:
            bv = View(v.buffer, v.offset, v.shape[:-2], v.strides[:-2])
            return _index(bv, bvars)
        ctype = out.buffer.dtype.ctype
        ta, lda = _gemm_layout(a)
        tb, ldb = _gemm_layout(b)
        use_blas = _blas_worthy(a, b)
        text = self.env.get_template("matmul.c.j2").render(
            number=number, title=f"matmul {list(a.shape)} @ {list(b.shape)} -> "
                                 f"{out.buffer.name}" + (" (BLAS)" if use_blas else ""),
            comments=[self.loc_comment(k.node)], batch=batch, depth=len(batch), blas=use_blas,
            prefix="s" if ctype == "float" else "d",
            ta="SG_TRANS" if ta else "SG_NO_TRANS", tb="SG_TRANS" if tb else "SG_NO_TRANS",
            m=m, n=n, k=kk, one=c_literal(1.0, ctype), zero=c_literal(0.0, ctype),
            a=a.buffer.name, b=b.buffer.name, c=out.buffer.name,
            a_off=boff(a), b_off=boff(b), c_off=boff(out), lda=lda, ldb=ldb, ldc=max(n, 1),
            acc_type=ctype,
            a_ix=_affine(boff(a), (("i", a.strides[-2]), ("p", a.strides[-1]))),
            b_ix=_affine(boff(b), (("p", b.strides[-2]), ("j", b.strides[-1]))),
            c_ix=_affine(boff(out), (("i", out.strides[-2]), ("j", out.strides[-1]))))
        return text

    # -------------------------------------------------------------- index kernels
    def index(self, number: int, k: IndexKernel) -> str:
        axis, node = k.axis, k.node
        init, body = [], []
        code = number + 1
        if k.kind == "gather":
            x, idx = k.inputs
            shape = idx.shape
            dims = [(f"i{d}", d) for d in range(len(shape))]
            body.append(f"const int64_t j = {idx.buffer.name}[{_index(idx, dims)}];")
            body.append(f"if (j < 0 || j >= {x.shape[axis]}) return {code};")
            xv = _with_axis(x, axis, "j", dims)
            body.append(f"{k.out.buffer.name}[{_index(k.out, dims)}] = {xv};")
        elif k.kind == "scatter_add":
            src, idx = k.inputs
            shape = src.shape
            dims = [(f"i{d}", d) for d in range(len(shape))]
            init.append(f"for (int64_t i = 0; i < {node.size}; i++) "
                        f"{k.out.buffer.name}[i] = 0;")
            body.append(f"const int64_t j = {idx.buffer.name}[{_index(idx, dims)}];")
            body.append(f"if (j < 0 || j >= {node.shape[axis]}) return {code};")
            target = _with_axis(k.out, axis, "j", dims)
            body.append(f"{target} += {src.buffer.name}[{_index(src, dims)}];")
        else:  # argmax / argmin over one axis, first extremum wins, NaN counts as extreme
            (x,) = k.inputs
            shape = node.shape
            dims = [(f"i{d}", d) for d in range(len(shape))]
            cmp = ">" if k.kind == "argmax" else "<"
            ctype = x.buffer.dtype.ctype
            first = _with_axis(x, axis, "0", dims)
            body.append(f"{ctype} best = {first};")
            body.append("int64_t at = 0;")
            body.append(f"for (int64_t j = 1; j < {x.shape[axis]}; j++) {{")
            body.append(f"    const {ctype} v = {_with_axis(x, axis, 'j', dims)};")
            # floats: a NaN wins and stays; integers have no NaN (gcc -Wall flags `v != v`)
            better = f"best == best && (v {cmp} best || v != v)" \
                if ctype in ("float", "double") else f"v {cmp} best"
            body.append(f"    if ({better}) {{ best = v; at = j; }}")
            body.append("}")
            body.append(f"{k.out.buffer.name}[{_index(k.out, dims)}] = at;")
        loops = [dict(var=v, extent=shape[d], depth=d) for v, d in dims]
        if any(e == 0 for e in shape):
            loops, body = [], []
        return self.env.get_template("index.c.j2").render(
            number=number, title=f"{k.kind} along axis {axis} -> {k.out.buffer.name}",
            comments=[self.loc_comment(node)], init=init, loops=loops, body=body,
            depth=len(loops))


# libm functions glibc's libmvec has SIMD variants of (sqrt and fabs are instructions).
_VECTOR_MATH = ("exp", "log", "log1p", "expm1", "sin", "cos", "tanh", "pow")


def _simd_declarations(body: str) -> list[str]:
    """``omp declare simd`` prototypes for the vectorizable libm functions ``body`` calls."""
    decls = []
    for fn in _VECTOR_MATH:
        for name, ctype in ((fn, "double"), (fn + "f", "float")):
            if re.search(rf"\b{name}\(", body):
                args = ", ".join([ctype] * (2 if fn == "pow" else 1))
                decls.append(f"{ctype} {name}({args});")
    return decls


_PLACEHOLDER = "__sg_arg{}__"
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\[\]]*\])?")


@functools.cache
def _placeholder(i: int) -> str:
    return _PLACEHOLDER.format(i)


@functools.lru_cache(maxsize=4096)
def _where(file: str, line: int) -> str:
    """``file.py:line`` as a statement's trailing comment shows it."""
    return comment_text(f"{file}:{line}")


@functools.lru_cache(maxsize=None)
def _template(op_name: str, ctype: str) -> str:
    """An op's C expression with placeholders for its operands, printed once per C type
    (SymPy printing is far too slow to repeat for every statement of a large graph)."""
    op = get(op_name)
    names = {sym: _PLACEHOLDER.format(i) for i, sym in enumerate(op.symbols)}
    return c_expr(op.expr, ctype, names)


def _literal_exponent(node: Node) -> float | None:
    """The value of a pow's exponent when it is one constant (seen through the expands that
    broadcast it), else None."""
    while node.op == "expand":
        node = node.inputs[0]
    return node.attr("value") if node.op == "const" and node.ndim == 0 else None


@functools.lru_cache(maxsize=None)
def _pow_template(exponent: float | None, ctype: str) -> str | None:
    """pow's C for a constant exponent, without the op's general test of the exponent's value
    (see ops/elementwise.py: 0.5 is sqrt, -0.5 is 1/sqrt, anything else C99's pow). None for
    an exponent that is not a constant (the general expression)."""
    if exponent is None:
        return None
    op = get("pow")
    x, y = op.symbols
    expr = {0.5: sympy.sqrt(x), -0.5: 1 / sympy.sqrt(x)}.get(exponent, x ** y)
    return c_expr(expr, ctype, {x: _placeholder(0), y: _placeholder(1)})


def _affine(base: str, terms) -> str:
    """``base + var*stride + ...`` without the zero base, zero strides and unit factors."""
    parts = [] if base == "0" else [base]
    parts += [v if s == 1 else f"{v}*{s}" for v, s in terms if s != 0]
    return " + ".join(parts) or "0"


def _with_axis(view: View, axis: int, var: str, dims: list) -> str:
    other = [(v, d) for v, d in dims if d != axis]
    base = _index(view, other)
    s = view.strides[axis]
    return f"{view.buffer.name}[{base} + {var}*{s}]"


_REDUCE = {
    "sum": "{a} + {v}",
    "prod": "{a} * {v}",
    # NaN propagates (torch): once the accumulator is NaN it stays; a NaN value replaces it.
    "max": "((({v}) > ({a}) || ({v}) != ({v})) && ({a}) == ({a})) ? ({v}) : ({a})",
    "min": "((({v}) < ({a}) || ({v}) != ({v})) && ({a}) == ({a})) ? ({v}) : ({a})",
}


# Integer reductions: no NaN to propagate (and `v != v` on an integer is a self-comparison
# that gcc -Wall flags).
_REDUCE_INT = {
    "sum": "{a} + {v}",
    "prod": "{a} * {v}",
    "max": "(({v}) > ({a})) ? ({v}) : ({a})",
    "min": "(({v}) < ({a})) ? ({v}) : ({a})",
}


def _combine(op: str, ctype: str) -> str:
    """The step ``a = <this>`` of reduction ``op`` accumulating in ``ctype`` (placeholders
    ``{a}``, ``{v}``). An int64 sum or product wraps modulo 2**64 like NumPy's instead of
    overflowing (undefined behaviour for signed types in C): in a ``uint64_t`` accumulator,
    or converted to uint64_t and back when it accumulates in the int64 output itself."""
    if ctype in ("float", "double"):
        return _REDUCE[op]
    if op in ("sum", "prod") and ctype in ("uint64_t", "int64_t"):
        step = f"{{a}} {'+' if op == 'sum' else '*'} (uint64_t){{v}}"
        return step if ctype == "uint64_t" else f"(int64_t)((uint64_t){step})"
    return _REDUCE_INT[op]


# Threads split a loop statically (same thread count, same result). `parallel:` limits the
# `if` to the threads: on a combined `parallel for simd` a bare `if` also applies to the simd
# part (OpenMP 4.5+), and gcc then runs the single-thread case unvectorized (measured: a fused
# tanh value_and_grad of 1e7 elements took 84 ms on 1 thread instead of 20 ms).
_THREADS = " schedule(static) num_threads(nthreads) if(parallel: nthreads > 1)"


def _identity(op: str, ctype: str) -> str:
    if ctype in ("float", "double"):
        return {"sum": c_literal(0.0, ctype), "prod": c_literal(1.0, ctype),
                "max": "-INFINITY", "min": "INFINITY"}[op]
    if ctype == "int64_t":
        return {"sum": "0", "prod": "1", "max": "INT64_MIN", "min": "INT64_MAX"}[op]
    return {"sum": "0", "prod": "1", "max": "0", "min": "1"}[op]


def _blas_worthy(a: View, b: View) -> bool:
    """Whether a matmul of these operands calls BLAS: enough work to pay for the call, and
    dims that fit scipy-openblas32's 32-bit ints (else the 64-bit indexed loop)."""
    m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
    lda, ldb = _gemm_layout(a)[1], _gemm_layout(b)[1]
    return m * n * kk >= BLAS_MIN_FLOPS and max(m, n, kk, lda, ldb) < 2**31


def _gemm_layout(v: View) -> tuple[bool, int]:
    """(transposed, leading dimension) of a matrix view for row-major GEMM."""
    rows, cols = v.shape[-2], v.shape[-1]
    sr, sc = v.strides[-2], v.strides[-1]
    if (sc == 1 or cols == 1) and (sr >= max(cols, 1) or rows == 1):
        return False, max(sr if rows > 1 else cols, cols, 1)
    return True, max(sc if cols > 1 else rows, rows, 1)


@dataclass
class _Item:
    """One piece of the entry function's body, with what it defines and reads."""

    text: str
    defines: list          # Scalars defined here
    uses: set              # names of Scalars read here
    temps: set             # temporary Buffers touched
    weight: int            # statements, roughly: what the C compiler's time scales with
    scalar: bool = False   # a function-scope ScalarStmt (no loop, no BLAS)


@pausing
def generate(program: Program, name: str, title: str = "",
             vector_math: bool = False) -> CSource:
    """Program -> C source for entry point ``sg_<name>``. With ``vector_math``, loops are
    marked ``omp simd`` and the libm functions they call are declared ``omp declare simd`` so
    that gcc calls glibc's vector variants (libmvec) with no fast-math."""
    em = _Emitter(program, vector_math)
    entry = f"sg_{c_identifier(name)}"
    params, decls, args = [], [], []
    for buf in program.inputs + [b for b, _ in program.consts]:
        params.append(f"const {buf.dtype.ctype} *restrict {buf.name}")
        decls.append(f"const {buf.dtype.ctype} *{buf.name}")
        args.append(buf.name)
    for buf in program.outputs:
        params.append(f"{buf.dtype.ctype} *restrict {buf.name}")
        decls.append(f"{buf.dtype.ctype} *{buf.name}")
        args.append(buf.name)
    params.append("unsigned char *restrict work")
    decls.append("unsigned char *work")
    args.append("work")
    params.append("int nthreads")
    decls.append("int nthreads")
    args.append("nthreads")

    items, uses_blas = [], False
    for i, k in enumerate(program.kernels):
        if type(k) is ScalarStmt:
            temps = {a.buffer for a in k.args if type(a) is View and a.buffer.role == "temp"}
            items.append(_Item(em.scalar(k), [Scalar(k.name, k.node.dtype)],
                               {a.name for a in k.args if type(a) is Scalar}, temps, 1, True))
            continue
        temps = {b for b in _buffers_of(k) if b.role == "temp"}
        em._last_loc = None
        if isinstance(k, LoopKernel):
            text = em.loop(i, k)
            scalars = [a for s in k.body for a in s.args if isinstance(a, Scalar)]
            scalars += [s.value for s in k.stores if isinstance(s.value, Scalar)]
            uses = {a.name for a in scalars}
        elif isinstance(k, MatmulKernel):
            text, uses = em.matmul(i, k), set()
            uses_blas |= "scipy_cblas_" in text
        else:
            text, uses = em.index(i, k), set()
        if text:
            items.append(_Item(text.rstrip("\n"), [], uses, temps, 8 + len(text) // 400))

    parts, spill_bytes = _split(items, program.workspace_bytes)
    void = " ".join(f"(void){a};" for a in args)
    for part in parts:
        if part["temps"][:1] == [_VOID_PARAMS]:
            part["temps"][:1] = [void]
        elif part["temps"][:1] == [_VOID_UNUSED]:
            part["temps"][:1] = _unused_params(args, part)
    if len(parts) > 1:
        # A split program drops `restrict`: with it, gcc 12 -O3 vectorized a part of a grouped
        # Hessian-vector-product test wrongly (two elements of one output differed from -O0;
        # correct without `restrict`, without vectorization, or unsplit). Not understood yet;
        # see tests/test_end_to_end.py::test_split_program_matches_unsplit.
        params = [p.replace("*restrict ", "*") for p in params]
        for part in parts:
            part["temps"] = [t.replace("*restrict ", "*") for t in part["temps"]]
    units = _assign_units(parts, entry)
    # Only loops are marked simd: the libm calls of function-scope statements need no
    # vector declaration (and scanning a large program's scalar text costs seconds).
    loops = "\n".join(it.text for it in items if it.weight > 1)
    simd = re.search(r"#pragma omp (parallel for )?simd", loops)
    simd_decls = _simd_declarations(loops) if vector_math and simd else []
    from . import __version__
    text = em.env.get_template("module.c.j2").render(
        title=comment_text(title or entry), version=__version__,
        workspace_bytes=program.workspace_bytes + spill_bytes, uses_blas=uses_blas,
        simd_decls=simd_decls, entry=entry, params=params, args=", ".join(args), parts=parts,
        n_units=len(units), unit_flags=" ".join(SCALAR_UNIT_FLAGS),
        extern=[p["name"] for p in parts if p["unit"]])
    cdef = f"int {entry}({', '.join(decls)});"
    return CSource(text, entry, cdef, program.workspace_bytes + spill_bytes, units)


# A function body above this many statements is split into parts: gcc's time on one huge
# straight-line function grows much faster than linearly (measured: 22k scalar statements of an
# unrolled RK4 adjoint, 10 s at -O1 in one function).
PART_WEIGHT = 400

# The parts that hold only function-scope scalar statements go into extra translation units,
# which the build compiles in parallel and with ``compiler.SCALAR_UNIT_FLAGS`` (-O1: straight-line
# scalar code runs no faster at -O3, which takes ~1.7x as long to compile it): one unit per
# UNIT_PARTS parts' weight, at most MAX_UNITS.
UNIT_PARTS = 8
MAX_UNITS = 4


def _assign_units(parts: list, entry: str) -> tuple:
    """Give each part a translation unit (``part["unit"]``, None when the text is one unit)
    and its C name; returns the units' extra flags (``CSource.units``).

    Unit 0 holds the entry point and every part with a loop or a BLAS call (compiled with the
    default flags, -O3); the scalar-only parts are spread in order over units 1..K. Each part
    is wrapped in ``#if !defined(SG_TU) || SG_TU == k``, so that the text still compiles whole
    without -DSG_TU; parts called from another unit are not ``static`` and are named after the
    entry point (``-fvisibility=hidden`` keeps them out of the module's symbol table)."""
    scalar = [p for p in parts if p["scalar"]] if len(parts) > 1 else []
    weight = sum(p["weight"] for p in scalar)
    k = min(MAX_UNITS, -(-weight // (UNIT_PARTS * PART_WEIGHT))) if scalar else 0
    if not k:
        for p in parts:
            p["unit"], p["storage"] = None, "static "
        return ((),)
    for p in parts:
        p["unit"], p["storage"] = 0, "static "
    for i, p in enumerate(scalar):
        p["unit"], p["storage"] = 1 + i * k // len(scalar), ""
    for g, p in enumerate(parts):
        p["name"] = f"{entry}_part{g}"
        p["title"] += f", translation unit {p['unit']}"
    return ((),) + (SCALAR_UNIT_FLAGS,) * k


_VOID_PARAMS = "/*@void-params@*/"
_VOID_UNUSED = "/*@void-unused@*/"
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)   # comment_text keeps `*/` out of the text
_NAME = re.compile(r"[A-Za-z_]\w*")


def _unused_params(args: list, part: dict) -> list[str]:
    """``(void)`` statements for the parameters an unsplit entry point never names (else gcc
    -Wextra warns): ``nthreads`` without a parallel loop, ``work`` without temporaries, an
    input no output depends on, an output with no elements. Names are looked for in the code
    with its comments removed: a comment quotes the user's source, which may say "work"."""
    code = _COMMENT.sub(" ", "\n".join(part["temps"][1:] + part["loads"] + part["kernels"]))
    named = set(_NAME.findall(code))
    lines = []
    if "nthreads" not in named:
        lines.append("(void)nthreads;  /* no loop here is large enough for threads */")
    if "work" not in named:
        lines.append("(void)work;")
    unused = [a for a in args if a not in named and a not in ("nthreads", "work")]
    if unused:
        lines.append(" ".join(f"(void){a};" for a in unused) +
                     "  /* no output depends on it, or it has no elements */")
    return lines


def _split(items: list, spill_base: int) -> tuple[list, int]:
    """Group items into parts; a Scalar defined in one part and read in a later one is stored
    to (and reloaded from) a spill slot in the workspace, under the same local name."""
    groups, current, weight = [], [], 0
    for item in items:
        if current and weight + item.weight > PART_WEIGHT:
            groups.append(current)
            current, weight = [], 0
        current.append(item)
        weight += item.weight
    if current or not groups:
        groups.append(current)

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
            for used in sorted(item.uses):
                d = defined_in.get(used)
                if d is not None and d[0] != g and used not in crossing:
                    sc = d[1]
                    offset = -(-offset // sc.dtype.itemsize) * sc.dtype.itemsize
                    crossing[used] = (sc, offset)
                    offset += sc.dtype.itemsize
    parts = []
    for g, group in enumerate(groups):
        temps = sorted({t for item in group for t in item.temps}, key=lambda b: b.index)
        temp_lines = [f"{b.dtype.ctype} *{'' if b.shared else 'restrict '}{b.name} = "
                      f"({b.dtype.ctype} *)(work + {b.offset});" for b in temps]
        local = {sc.name for item in group for sc in item.defines}
        needed = sorted({u for item in group for u in item.uses if u in crossing and
                         u not in local}, key=lambda n: crossing[n][1])
        loads = [f"const {crossing[n][0].dtype.ctype} {n} = "
                 f"*({crossing[n][0].dtype.ctype} *)(work + {crossing[n][1]});" for n in needed]
        kernels = []
        for item in group:
            text = item.text
            for sc in item.defines:
                if sc.name in crossing:
                    ct = sc.dtype.ctype
                    text += f"\n    *({ct} *)(work + {crossing[sc.name][1]}) = {sc.name};"
            if item.weight == 1 and kernels and kernels[-1][1]:
                kernels[-1] = (kernels[-1][0] + "\n" + text, True)   # scalar paragraph
            else:
                kernels.append((text, item.weight == 1 and bool(item.defines)))
        if len(groups) > 1:   # a part uses only some of the entry's parameters
            temp_lines = [_VOID_PARAMS] + temp_lines
        else:   # the entry point itself: `(void)` what it never names (see _unused_params)
            temp_lines = [_VOID_UNUSED] + temp_lines
        parts.append({"name": f"part{g}", "title": f"part {g + 1} of {len(groups)}",
                      "temps": temp_lines, "loads": loads, "kernels": [t for t, _ in kernels],
                      "scalar": all(item.scalar for item in group),
                      "weight": sum(item.weight for item in group)})
    return parts, (offset - start) if crossing else 0


def _buffers_of(k) -> list:
    if isinstance(k, ScalarStmt):
        return [a.buffer for a in k.args if isinstance(a, View)]
    if isinstance(k, LoopKernel):
        return [v.buffer for v in k.loads] + [s.out.buffer for s in k.stores]
    if isinstance(k, MatmulKernel):
        return [k.a.buffer, k.b.buffer, k.out.buffer]
    return [v.buffer for v in k.inputs] + [k.out.buffer]

