"""Code generation: loop IR -> one C99 translation unit and what its build needs.

Layer: codegen. Input: a ``Program`` (lower). Output: a ``CSource``: the C text, the entry
point's name and cffi declaration, the workspace size, the translation units, the build needs
(OpenMP, vector math functions, BLAS) and the statuses the entry point can return. Python makes
every decision (loop nests, index arithmetic, statement text); the templates in ``templates/``
hold only layout. The text is a pure function of the program: same graph, same bytes. Every
statement carries a comment naming the user's ``file.py:line`` and the op. It must not compile
or load anything.

Each kernel is emitted by its family's module (``codegen.c.emitted``: ``codegen.c.<family>.emit``);
this module numbers the kernels, gathers what they need, splits the body into parts and units,
and renders the module's template.
"""

from __future__ import annotations

from ...dims import large
from ...dtypes import float32, float64
from ...gcpause import pausing
from ...lower.control import all_kernels, tape_slots
from ...lower.loopir import ElementStmt, Program, ScalarStmt, Stmt, View
from ...lower.matmul import MatmulKernel
from ...version import __version__
from . import helpers, interrupt, outline, statements, tables
from . import split as units
from .csource import BuildNeeds, CSource, Target
from .emitted import emitter_of
from .exprs import VECTOR_MATH
from .loops import OPAQUE, LoopEmitter
from .render import refresh_layouts
from .decomp import calls_lapack
from .matmul import calls_blas
from .split import Item
from .templates import environment
from .text import c_identifier, comment_text

_OWN_BUILD = Target()     # symgrad's own build, this machine's defaults

# A body's function whose statements (with those of the bodies it inlines) weigh at most this,
# and which runs no hot loop of its own, is inlined into its caller (always_inline): gcc 12
# inlined few of them itself, and a call per step with every operand and result through a
# pointer cost GradBench's saddle descents (four nested ``if``s a step, each a ``cond``, 14-16
# pointers a call) 1.4-1.75 ms a call; inlined 0.9-1.1 (with carries in registers, see
# ``control``, 0.59-0.70). Its inner descent's step weighs ~700 with its branches; the bound
# keeps gcc's time in check (its time grows faster than linearly in a function's size: see
# ``split.PART_WEIGHT``); saddle's first call took the same time inlined (0.6-0.9 s).
INLINE_WEIGHT = 1000
INLINE = "static inline __attribute__((always_inline)) "



@pausing   # a large program's C is ~10^5 strings (see gcpause)
def generate(program: Program, name: str, title: str = "", target: Target = _OWN_BUILD,
             template_cache=None) -> CSource:
    """Program -> C source for entry point ``sg_<name>``, for ``target`` (see ``Target``).
    With ``target.vector_math``, loops are marked ``omp simd`` and the libm functions they call
    are declared ``omp declare simd`` so that gcc calls glibc's vector variants (libmvec) with
    no fast-math. ``template_cache``: a ``jinja2.BytecodeCache`` for compiled templates."""
    kernels = all_kernels(program)
    _check_storage_types(program, kernels)
    env = environment(template_cache, target.standalone)
    refresh_layouts(env)
    entry = f"sg_{c_identifier(name)}"
    # Only symgrad's own build polls for Ctrl-C (codegen.c.interrupt): a standalone text keeps
    # the signature it documents and has no checks.
    interrupts = not target.standalone and interrupt.takes_params(program)
    params, decls, args = _signature(program, interrupts)
    lapack = any(calls_lapack(k, target.blas) for k in kernels)
    loops = LoopEmitter(env, target.vector_math, _own_threads(kernels, target, lapack), entry,
                        tuple(program.sizes))
    loops.tables = tables.small_tables(program)
    ctx = _Context(env, loops, entry, target)
    items = _items(ctx, program, 0)
    blas, errors = ctx.blas, ctx.errors
    if target.standalone and ctx.malloc:
        raise NotImplementedError(
            f"{name}: standalone C allocates nothing, but this function's while_loop keeps a "
            f"tape for its reverse pass whose length depends on the iteration count (malloc); "
            f"differentiate a fori_loop or scan with a fixed count instead, or call the "
            f"function from Python")
    parts, spill_bytes = units.split_into_parts(items, program.workspace_bytes)
    for part in parts:
        _prologue(part, program, args, len(parts) > 1, target.standalone)
    if len(parts) > 1:
        params = _without_restrict(params, parts)
    slots = tape_slots(program)
    run = f"{entry}_run" if slots else entry    # the entry point wraps it: it frees tapes
    # A standalone text is one unit (its user builds it): its parts stay static.
    unit_kinds = ("main",) if target.standalone else units.assign_units(parts, run)
    vector = _vector_functions(loops.calls) if target.vector_math and loops.simd else []
    workspace = program.workspace_bytes + spill_bytes
    # (sizes reach the template as C text: a call-time size prints only from symgrad's code)
    text = env.get_template("module.c.j2").render(
        title=comment_text(title or entry), version=__version__, workspace_bytes=str(workspace),
        blas=target.blas if blas else "", lapack=lapack,
        simd_decls=[decl for _, decl in vector], entry=run,
        params=params, wrapper=entry, tape_slots=[str(s) for s in slots],
        standalone=target.standalone,
        entry_storage="static " if slots or target.standalone else "",
        helpers=helpers.definitions(env, loops.calls),
        args=", ".join(args), parts=parts, n_units=len(unit_kinds), functions=ctx.functions,
        uses_malloc=ctx.malloc, interrupt_status=interrupt.INTERRUPT_STATUS if interrupts else 0,
        extern=[p.name for p in parts if p.unit],
        outlined=[text % ("" if len(unit_kinds) > 1 else "static __attribute__((noinline)) ")
                  for text, _ in ctx.outlined],
        outlined_prototypes=[prototype for _, prototype in ctx.outlined])
    needs = BuildNeeds(openmp=any("nthreads" in p.params for p in parts),
                       vector_math=tuple(fn for fn, _ in vector), blas=blas)
    return CSource(text, entry, f"int {entry}({', '.join(decls)});", workspace, unit_kinds,
                   needs, tuple(errors), interrupts, params=_typed(decls, args))


def _without_restrict(params: list, parts: list) -> list:
    """A split program drops `restrict`: with it, gcc 12 -O3 vectorized a part of a grouped
    Hessian-vector-product test wrongly (two elements of one output differed from -O0;
    correct without `restrict`, without vectorization, or unsplit). Possibly the SLP
    miscompile now turned off (build.c.compiler); see
    tests/api/test_end_to_end.py::test_split_program_matches_unsplit."""
    for part in parts:
        part.temps = [t.replace("*restrict ", "*") for t in part.temps]
        part.functions = [f.replace("*restrict ", "*") for f in part.functions]
    return [p.replace("*restrict ", "*") for p in params]


def _check_storage_types(program: Program, kernels: list) -> None:
    """float16 has no C arithmetic type here (its ctype is the storage uint16_t): compiled
    code refuses it rather than reading its bits as integers. ``kernels``: all of
    ``program``'s (``all_kernels``)."""
    buffers = [*program.inputs, *(b for b, _ in program.consts), *program.outputs]
    seen = {b.dtype for b in buffers}
    add = seen.add
    for k in kernels:
        # (most kernels of a large program: read directly; measured 88 -> 64 ms on det7's
        # 47,273 kernels, all_kernels included, which generate now calls once)
        if type(k) is ScalarStmt:
            add(k.expr.dtype)
            add(k.expr.operand)
            for a in k.args:
                if isinstance(a, View):
                    add(a.buffer.dtype)
            continue
        if hasattr(k, "views"):
            seen.update(v.buffer.dtype for v in k.views())
        # a fused cast to float16 (``x.half()`` inside a loop) has no buffer, only an expression
        exprs = [s.expr for s in getattr(k, "body", ()) if isinstance(s, Stmt)]
        if isinstance(k, ScalarStmt):
            exprs.append(k.expr)
        for e in exprs:
            add(e.dtype)
            add(e.operand)
    if any(d.name == "float16" for d in seen):
        raise TypeError("float16 tensors work eagerly but not yet in compiled code: pass "
                        "them as float32 (t.float()) and cast the results back")


def _prologue(part, program: Program, args: list, split: bool, standalone: bool) -> None:
    """A part's first lines: the volatile copies of the call-time sizes (codegen.c.loops.OPAQUE)
    and the ``(void)`` of the parameters it does not use."""
    part.temps = [f"volatile int64_t {OPAQUE}{s} = {s};  /* (see codegen.c.loops.OPAQUE) */"
                  for s in program.sizes] + part.temps
    part.voids = [" ".join(f"(void){a};" for a in args)] if split else \
        units.unused_params([a for a in args if a not in program.sizes], part, standalone)


def _typed(decls: list, args: list) -> tuple:
    """(C type, name) of each parameter: its declaration without the name."""
    return tuple((decl[:-len(name)].rstrip(), name) for decl, name in zip(decls, args))


def _own_threads(kernels: list, target: Target, lapack: bool) -> bool:
    """Whether the loops may run on threads. OpenBLAS runs its own thread pool: OpenMP threads
    spinning after a parallel loop starve it (measured: the mlp gradient went from 1.0 ms to
    8.0 ms on 2 cores). A program that calls BLAS or LAPACK leaves the threads to them."""
    return target.threads and not lapack and not any(
        isinstance(k, MatmulKernel) and calls_blas(k, target.blas) for k in kernels)


def _signature(program: Program, interrupts: bool = False) -> tuple[list, list, list]:
    """The entry point's parameters (C), their cffi declarations, and their names; with
    ``interrupts``, the interrupt parameters last (``codegen.c.interrupt``)."""
    params, decls, args = [], [], []
    for buf in program.inputs + [b for b, _ in program.consts]:
        params.append(f"const {buf.dtype.ctype} *restrict {buf.name}")
        decls.append(f"const {buf.dtype.ctype} *{buf.name}")
        args.append(buf.name)
    for buf in program.outputs:
        params.append(f"{buf.dtype.ctype} *restrict {buf.name}")
        decls.append(f"{buf.dtype.ctype} *{buf.name}")
        args.append(buf.name)
    params += ["unsigned char *restrict work", "int nthreads"]
    decls += ["unsigned char *work", "int nthreads"]
    args += ["work", "nthreads"]
    for size in program.sizes:     # shape-generic code: the sizes of this call
        params.append(f"int64_t {size}")
        decls.append(f"int64_t {size}")
        args.append(size)
    if interrupts:
        params += interrupt.PARAMS
        decls += interrupt.PARAMS
        args += interrupt.ARGS
    return params, decls, args


class _Context:
    """What generating one module accumulates: the loop emitter, the bodies' functions (C
    text, innermost first), the kernel numbers used so far (numbers are unique in the module,
    so each failing kernel's status is), whether BLAS is called, the statuses kernels return."""

    def __init__(self, env, loops: LoopEmitter, entry: str, target: Target):
        self.env, self.loops, self.entry, self.target = env, loops, entry, target
        self.interrupts = not target.standalone   # functions may take the interrupt params
        self.functions: list = []
        self.inline_weight = 0  # of the inlined bodies that the body being made calls
        self.inline: set = set()   # the names of the inlined bodies' functions
        self.malloc = False     # a kernel allocates (stdlib.h)
        self.named = 0
        self.numbers = 0
        self.blas = False
        self.errors: list = []
        self.last_loc: list = [None]   # the source line the last statement showed
        self.printer = statements.Printer(loops.calls)
        self.outlines: dict = {}       # id(Outline) -> its function's name
        self.outlined: list = []       # (definition with %s for its storage, prototype)

    def outlined_name(self, body, number: int) -> str:
        """The C function of an outlined block (``codegen.c.outline``), made at its first
        call, kernel ``number``."""
        name = self.outlines.get(id(body))
        if name is None:
            name = self.outlines[id(body)] = f"{self.entry}_block{len(self.outlines)}"
            self.outlined.append(outline.function(self, name, body, number))
        return name

    def function(self, program: Program) -> str:
        """Generate a body's C function (``static int <entry>_f<k>(...)``); its name. A small
        one is inlined into its caller (``INLINE_WEIGHT``)."""
        name = f"{self.entry}_f{self.named}"
        self.named += 1
        base = self.numbers
        self.numbers += len(program.kernels)
        outer, self.inline_weight = self.inline_weight, 0
        items = _items(self, program, base)      # (defines the bodies it calls first)
        nested, self.inline_weight = self.inline_weight, outer
        part = units.whole(items)
        weight = part.weight + nested
        inline = weight <= INLINE_WEIGHT and not any(i.hot and not i.calls for i in items)
        if inline:
            self.inline_weight += weight
            self.inline.add(name)
        params, _, args = _signature(program, self.interrupts and
                                     interrupt.takes_params(program))
        part.voids = units.unused_params(args, part, self.target.standalone)
        self.functions += ["\n" + f + "\n" for f in part.functions]
        self.functions.append(self.env.get_template("function.c.j2").render(
            name=name, params=params, part=part, inline=inline,
            storage=INLINE if inline else "static "))
        return name


def _items(ctx: _Context, program: Program, base: int) -> list:
    """The body's items in order (kernel ``i`` numbered ``base + i``). Each function shows
    the source lines of its statements afresh (``ctx.last_loc`` is the body's own)."""
    if not base:
        ctx.numbers = max(ctx.numbers, len(program.kernels))
    outer, ctx.last_loc = ctx.last_loc, [None]
    try:
        return _emit_all(ctx, program, base)
    finally:
        ctx.last_loc = outer


def _emit_all(ctx: _Context, program: Program, base: int) -> list:
    items = []
    emitters: dict = {}           # kernel type -> its family's emit (one lookup per type)
    for i, k in enumerate(program.kernels):
        kind = type(k)
        if kind is ScalarStmt or kind is ElementStmt:    # most of a large program: direct
            items.append(statements.item(ctx, k))
            continue
        emit = emitters.get(kind)
        if emit is None:
            emit = emitters[kind] = emitter_of(k)
        item = _item(ctx, k, emit(ctx, base + i, k))
        if item is not None:
            items.append(item)
    return items


def _item(ctx: _Context, k, out) -> Item | None:
    """The item of kernel ``k`` emitted as ``out`` (None: it has no text); what the module
    must know of it joins ``ctx``."""
    buffers = [v.buffer for v in k.views()]
    temps = {b for b in buffers if b.role == "temp" and b not in out.unused} \
        if not out.direct else set()
    names = {b.name for b in buffers if b.role != "temp" and
             (id(b) not in ctx.loops.tables or tables.named(b, out.text))}
    names.update(out.names)
    if out.threaded:
        names.add("nthreads")
    ctx.errors += out.errors
    ctx.blas |= out.blas
    ctx.malloc |= out.malloc
    if out.statement:
        return Item(out.text, list(out.defines), set(out.uses), temps, names, 1)
    ctx.last_loc[0] = None
    if not out.text:
        return None
    hot = large(out.elements, units.HOT_ELEMENTS + 1)
    return Item(out.text.rstrip("\n"), list(out.defines), set(out.uses), temps, names,
                8 + len(out.text) // 400, hot=hot, calls=out.calls,
                large=hot and len(out.text) >= units.LARGE_TEXT, functions=out.functions)


def _vector_functions(calls: set) -> list[tuple[str, str]]:
    """(name, prototype) of the vectorizable libm functions loops call: the prototypes are
    declared ``omp declare simd``."""
    found = []
    for fn in VECTOR_MATH:
        for name, dtype in ((fn, float64), (fn + "f", float32)):
            if name in calls:
                args = ", ".join([dtype.ctype] * (2 if fn == "pow" else 1))
                found.append((name, f"{dtype.ctype} {name}({args});"))
    return found

