"""The compile pipeline: the one place where the stages are called, in order, and timed.

Layer: pipeline, above every stage and below the runtime and the API. Input: a Python function,
its argument specs, the passes to run. Output: a ``Compiled`` record: the traced graph, the
optimized graph and the IR after each pass that changed it, the loop IR, the C source object,
the loaded module, and the time each stage took.

    trace -> passes (each verified under SYMGRAD_CHECK=1) -> lower -> codegen -> build

``compile_or_load`` is the whole path from a signature to a module: an earlier process's
warm-start record when one applies (loaded, never traced), else the stages above (and the
result recorded). The backend (``build.backends.default()``: render, build, its ``target()``
and ``capabilities``) is asked here and nowhere above; ``load`` builds a record's source again
(the runtime's unpickling), ``target()`` is part of every warm-start key.

With ``SYMGRAD_DEBUG=1`` each compile logs its stage times; with ``SYMGRAD_DEBUG=2`` also the IR
after each pass that changed it, the C and the compiler commands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING
from collections.abc import Callable

import numpy as np

from . import config, dims
from .build import warm
from .build.backends import default as backend
from .codegen.backend import Module, Source
from .gcpause import paused, pausing
from .ir import Graph, format_graph, verify
from .tracing import Traced, trace

if TYPE_CHECKING:   # (the passes and lowering load at the first compile: a warm start, which
    from .lower.loopir import Program   # loads a record, needs neither)

STAGES = ("trace", "passes", "lower", "codegen", "build")


@dataclass
class Compiled:
    """A function compiled for one signature, with every stage's result.

    The IR after each pass (``stages``) and the loop IR (``program``) are not kept: each is a
    copy of the program as large as the graph (10^5..10^6 Python objects for a large one) that
    only ``symgrad.inspect`` and tests read; they are made again, identically (every stage is
    deterministic), when first asked for."""

    name: str
    traced: Traced
    graph: Graph                  # after the passes
    passes: list                  # the passes that made ``graph`` from ``traced.graph``
    source: Source
    module: Module | None
    consts: list                  # the loop IR's (Buffer, ndarray) constants, in argument order
    outputs: list                 # the loop IR's output Buffers, in order
    times: dict = field(default_factory=dict)   # stage -> seconds

    @cached_property
    def stages(self) -> list:
        """(title with node counts, graph) for each pass that changed the graph."""
        return optimize(self.traced.graph, self.passes)[1]

    @cached_property
    def program(self) -> Program:
        """The loop IR the C was generated from."""
        from .lower import lower
        return lower(self.graph, backend().capabilities)


def compile_or_load(key: str | None, load: Callable, compile: Callable,
                    record: Callable):
    """What a signature runs: loaded from the warm-start record stored under ``key`` by an
    earlier process (``load(record)`` checks that it still applies and makes the result, or
    returns None), else ``compile()``, whose result ``record(result)`` describes for the next
    process (None: it cannot be stored). ``key`` None: no warm start (``SYMGRAD_WARM_START=0``,
    or something the key would need cannot be fingerprinted)."""
    if key is not None:
        stored = warm.read(key)
        if stored is not None:
            try:
                result = load(stored)
            except Exception as e:   # noqa: BLE001 - a record this symgrad cannot use
                config.debug(1, "warm record %s unusable (%s): tracing", key[:16], e)
                result = None
            if result is not None:
                return result
    result = compile()
    if key is not None and result is not None:
        stored = record(result)
        if stored is not None:
            warm.write(key, stored)
    return result


def recall(key: str | None):
    """The warm-start record stored under ``key`` (not a module: e.g. which dims an earlier
    process made shape-generic), or None."""
    return None if key is None else warm.read(key)


def remember(key: str | None, record) -> None:
    if key is not None:
        warm.write(key, record)


def _default(passes: list | None) -> list:
    """``passes``, or the default pipeline (``passes.PIPELINE``)."""
    if passes is not None:
        return passes
    from .passes import PIPELINE
    return PIPELINE


def compile_function(fn: Callable, in_specs: list, rebuild: Callable, name: str, *,
                     passes: list | None = None, forward: bool = False,
                     build: bool = True, values: list | None = None,
                     reachable: dict | None = None, capture: bool = True) -> Compiled:
    """Trace ``fn`` for ``in_specs`` (see ``trace.trace``; with ``values``, Python control
    flow is decided on them and guarded; ``reachable``: the arrays and tensors its captured
    state reaches; ``capture=False``: they are constants), optimize, lower, generate C and
    build it (unless ``build`` is False)."""
    start = time.perf_counter()
    passes = _default(passes)
    with paused():   # one pause over all the Python stages (see _generate)
        traced = trace(fn, in_specs, rebuild, name, forward, values, reachable, capture)
        times = {"trace": time.perf_counter() - start}
        made = _generate(traced, name, passes, build, times)
    return _build(traced, name, passes, made, build, times)


def compile_generic(fn: Callable, variants: list, rebuild: Callable, name: str, *,
                    passes: list | None = None,
                    reachable: dict | None = None) -> tuple[Compiled, tuple]:
    """Compile ``fn`` once for every size of its call-time sizes (``dims.Dim`` in the specs):
    trace and generate C for each of ``variants`` (the same specs with other hints), require
    identical results (the C text, constants, output shapes, guards: whatever a stage did with
    a hint's value instead of the size shows up as a difference), then build the first.
    Returns the compiled record and the size guards it holds under (``dims.Guard``); raises
    ``dims.NotGeneric`` saying what depends on the sizes."""
    passes = _default(passes)
    made = []
    for specs in variants:
        start = time.perf_counter()
        with paused(), dims.recording() as guards:
            try:
                traced = trace(fn, specs, rebuild, name, forward=True, reachable=reachable)
            except dims.NotGeneric as e:
                e.guards = tuple(guards)    # (the comparisons made before it gave up)
                raise
            except Exception as e:   # noqa: BLE001  (e.g. a shape error: a size taken as its hint)
                err = dims.NotGeneric(f"tracing failed ({type(e).__name__}: {e})")
                err.guards = tuple(guards)
                raise err from e
            if traced.guards:
                raise dims.NotGeneric("Python control flow on traced values")
            times = {"trace": time.perf_counter() - start}
            generated = _generate(traced, name, passes, True, times)
        made.append((traced, generated, tuple(guards), times))
    first = made[0]
    for other in made[1:]:
        _same_for_every_size(first, other)
    traced, generated, guards, times = first
    return _build(traced, name, passes, generated, True, times), guards


def _same_for_every_size(a: tuple, b: tuple) -> None:
    """Raise NotGeneric unless two shape-generic compiles (other hints) made the same code."""
    (ta, (ga, sa, ca, _), guards_a, _), (tb, (gb, sb, cb, _), guards_b, _) = a, b
    if sa.text != sb.text:
        line = next((x for x, y in zip(sa.text.splitlines(), sb.text.splitlines()) if x != y),
                    "")
        raise dims.NotGeneric(f"the C depends on the sizes' values (first difference: "
                              f"{line.strip()[:120]!r})")
    if str(sa.workspace_bytes) != str(sb.workspace_bytes) or guards_a != guards_b:
        raise dims.NotGeneric("the workspace or the size guards depend on the sizes' values")
    if [str(n.shape) for n in ga.values] != [str(n.shape) for n in gb.values]:
        raise dims.NotGeneric("the output shapes depend on the sizes' values")
    if _captured(ta) != _captured(tb):
        raise dims.NotGeneric("what the function captures depends on the sizes' values")
    for (x, u), (y, v) in zip(ca, cb):
        if str(x.size) != str(y.size) or not np.array_equal(np.asarray(u), np.asarray(v)):
            raise dims.NotGeneric("a constant depends on the sizes' values")


def _captured(traced: Traced) -> tuple:
    """The identities of the objects a trace captured, and what it read concretely."""
    table = traced.captures
    return (tuple(id(e.obj) for e in table.entries), tuple(table.reads), table.checks()[1:],
            tuple(table.volatile)) if table is not None else ()


def compile_traced(traced: Traced, name: str, *, passes: list | None = None,
                   build: bool = True, times: dict | None = None) -> Compiled:
    """The stages after tracing: optimize ``traced``'s graph with ``passes`` (default
    ``PIPELINE``), lower, generate C and build it (unless ``build`` is False)."""
    times = dict(times or {})
    passes = _default(passes)
    made = _generate(traced, name, passes, build, times)
    return _build(traced, name, passes, made, build, times)


@pausing
def _generate(traced: Traced, name: str, passes: list, build: bool, times: dict) -> tuple:
    """passes -> lower -> codegen, each timed into ``times``; (graph, source, consts, outputs).

    The cyclic garbage collector is paused across the Python stages (gcpause): they build
    10^5..10^6 long-lived objects and almost no cycles; resumed between stages, it would scan
    each stage's survivors once more."""
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        times[stage], clock = now - clock, now

    graph, _ = optimize(traced.graph, passes)
    lap("passes")
    from .lower import lower
    program = lower(graph, backend().capabilities)
    lap("lower")
    # (a build creates the cache's root anyway: the compiled templates may be kept there)
    source = backend().render(program, name, f"{name}: compiled by symgrad",
                              create_cache=build)
    config.debug(2, "source of %s:\n%s", name, source.text)
    lap("codegen")
    return graph, source, list(program.consts), list(program.outputs)


def _build(traced: Traced, name: str, passes: list, made: tuple, build: bool,
           times: dict) -> Compiled:
    graph, source, consts, outputs = made
    start = time.perf_counter()
    module = backend().build(source, name) if build else None
    times["build"] = time.perf_counter() - start
    config.debug(1, "%s: %d nodes; %s", name, len(traced.graph.nodes()),
                 ", ".join(f"{s} {times[s]:.3f} s" for s in STAGES if s in times))
    return Compiled(name, traced, graph, list(passes), source, module, consts, outputs,
                    times)


def retarget(c: Compiled, target) -> Source:
    """The source of compiled signature ``c`` for another ``target`` of the backend (e.g. the
    C backend's standalone export)."""
    return backend().render(c.program, c.name, f"{c.name}: compiled by symgrad", target)


def target():
    """What this process's builds target (the backend's, computed once): part of every
    warm-start key, since the source differs with it."""
    return backend().target()


def load(source: Source, name: str) -> Module:
    """The module of a source compiled before (a pickled or warm-start record): from the
    build cache, or built again from the source. Never traced."""
    return backend().build(source, name)


@pausing   # the passes rebuild ~10^5 nodes of a large graph (see gcpause)
def optimize(graph: Graph, passes: list) -> tuple[Graph, list]:
    """Run ``passes`` in order; returns the graph and, for each pass that changed it, (title
    with node counts, graph). Under ``SYMGRAD_CHECK=1`` the verifier checks the traced graph
    and the graph after every pass."""
    check = config.check_ir()
    if check:
        verify(graph)
    stages = []
    for p in passes:
        after = p(graph)
        if check:
            verify(after)
        if after.outputs != graph.outputs:
            stages.append((f"after {p.__name__} ({len(graph.nodes())} -> "
                           f"{len(after.nodes())} nodes)", after))
            if config.debug_level() >= 2:
                config.debug(2, "IR after %s:\n%s", p.__name__, format_graph(after))
        graph = after
    return graph, stages
