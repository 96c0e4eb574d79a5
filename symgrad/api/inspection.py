"""``symgrad.inspect``: what a compiled function becomes for some arguments, stage by stage.

Layer: api. Input: a function (compiled or not) and arguments. Output: an ``Inspection`` with
the traced IR, the adjoint IR (for gradient transforms), the IR after each pass that changed
it, the optimized IR, the memory it uses (workspace, bytes stored per loop step), the C, and
the graphs themselves; printed, it shows every stage. ``to_dot``/``render`` draw a stage's
graph with Graphviz.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Any
from collections.abc import Callable

from ..ir import format_graph
from ..ir.dot import to_dot
from ..runtime import Artifact, Specialization
from .compiled import CompiledFunction
from .state import captured_of


class Inspection:
    """What a compiled function becomes for some arguments, stage by stage."""

    def __init__(self, spec: Specialization):
        c = spec.compiled
        if c is None:
            raise RuntimeError(f"{spec.name}: this specialization was loaded from its C "
                               f"alone; its IR is not kept: use symgrad.inspect(f, *args), "
                               f"which traces f again")
        self.spec = spec
        traced = c.traced
        self.traced_graph = traced.forward or traced.graph
        self.graph = traced.graph               # with the adjoint, for gradient transforms
        self.optimized_graph = c.graph
        self.traced_ir = format_graph(self.traced_graph)
        self.adjoint_ir = format_graph(traced.graph) if traced.forward is not None else None
        self.passes = list(spec.stages)
        self.optimized_ir = format_graph(c.graph)
        self.c_source = spec.c_source
        self.node_counts = (len(traced.graph.nodes()), len(c.graph.nodes()))
        self.times = dict(c.times)              # seconds per stage (see pipeline.STAGES)
        # the workspace, and what each loop stores per step for its reverse pass
        from ..lower.control import memory_report   # (lowering loads when used: ~20 ms)
        self.memory = "\n".join(memory_report(c.program))

    # (title, text) sections printed before the stages (a sparse derivative's pattern)
    preamble: tuple = ()

    def __str__(self) -> str:
        parts = [*self.preamble, ("traced IR", self.traced_ir)]
        if self.adjoint_ir is not None:
            parts.append(("adjoint IR (value and gradients)", self.adjoint_ir))
        parts += self.passes
        parts.append((f"optimized IR ({self.node_counts[0]} -> {self.node_counts[1]} nodes)",
                      self.optimized_ir))
        parts.append(("memory", self.memory))
        parts.append(("C", self.c_source))
        return "\n\n".join(f"===== {title} =====\n{text}" for title, text in parts)

    def to_dot(self, stage: str = "optimized") -> str:
        """The graph of ``stage`` as Graphviz DOT text: "traced" (the function's own
        forward graph), "adjoint" (forward and backward, as traced) or "optimized" (after
        the passes, its fused loops drawn as clusters). Nodes show op, shape and dtype, and
        the user's file:line as a tooltip; the nodes of the backward pass are orange."""
        graphs = {"traced": self.traced_graph, "adjoint": self.graph,
                  "optimized": self.optimized_graph}
        if stage not in graphs:
            raise ValueError(f"to_dot: stage must be one of {sorted(graphs)}, got {stage!r}")
        graph = graphs[stage]
        from ..lower.lowering import fusion_groups
        loops = fusion_groups(graph) if stage == "optimized" else []
        return to_dot(graph, loops, f"{self.spec.name} ({stage})")

    def render(self, path: str, stage: str = "optimized") -> str:
        """Draw ``to_dot(stage)`` into ``path`` with Graphviz's ``dot`` (the format from
        its extension: .svg, .png, .pdf); returns ``path``."""
        exe = shutil.which("dot")
        if exe is None:
            raise RuntimeError("render: Graphviz's `dot` program was not found on PATH; "
                               "install Graphviz (apt-get install graphviz, brew install "
                               "graphviz, conda install graphviz), or write to_dot() to a "
                               ".dot file and render it elsewhere")
        fmt = os.path.splitext(path)[1].lstrip(".") or "svg"
        subprocess.run([exe, f"-T{fmt}", "-o", path], input=self.to_dot(stage), text=True,
                       check=True, capture_output=True)
        return path

    def __repr__(self) -> str:
        # short: inspect() has printed every stage already (a REPL would show them twice)
        return (f"<symgrad.Inspection of {self.spec.name}: {self.node_counts[0]} -> "
                f"{self.node_counts[1]} nodes, {len(self.passes)} passes changed the IR, "
                f"{len(self.c_source.splitlines())} lines of C; print() it to see every stage>")


def inspect(fn: Callable, *args: Any, print_: bool = True, **kwargs: Any) -> Inspection:
    """Trace, optimize and generate C for ``fn`` at these arguments, without running it;
    print every stage (traced IR, adjoint IR, IR after each pass that changed it, C). For a
    sparse derivative (``symgrad.sparse``), its sparsity pattern and coloring first."""
    extra: list = []
    sections = getattr(fn, "inspection_sections", None)   # a sparse derivative
    if sections is not None:
        fn, extra = sections(*args, **kwargs)
    cf = fn if isinstance(fn, CompiledFunction) else CompiledFunction(fn)
    spec, _ = cf.specialize(*args, **kwargs)
    if getattr(spec, "compiled", None) is None:
        # loaded from disk (a warm start), unpickled, or a signature with several paths:
        # its IR is not in memory; trace it again (the same stages make the same C)
        compiled = cf.compiled_for(*args, **kwargs)
        spec = Specialization(Artifact.of(compiled), None, compiled,
                              captured_of(compiled.traced, cf.captured_state()))
    report = Inspection(spec)
    report.preamble = extra
    if print_:
        print(report)
    return report
