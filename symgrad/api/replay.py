"""Compiling a captured eager step (``frontend.core.lazy``, ``lazy_backward``) into one C function.

Layer: api, above the pipeline and the runtime. Input: a region's recorded ops (entries), its
externals' metadata, the root of its backward, the results whose values are wanted (what the
program still holds, or the bases of the views it holds). Output:
``run(arrays) -> (values, gradients)`` and the externals whose gradients it returns.

The step is traced like any compiled function: the externals are its arguments (the leaves
that require grad become leaves of the trace), the entries are applied again to traced
tensors (``lazy_ops.run_entry``: the same ``apply`` and ``attach_function`` calls the eager step
made), then the root's ``backward()``; the results are the kept values, then the leaves'
``.grad``. Nothing is captured from outside (every tensor the step read is an argument), so
the compiled code depends on its arguments alone and may be reused for any step of the same
structure. The C is cached on disk by its text, like every compiled function's.

A later process does not trace the step again: the compiled step's record (its artifact: the
C source, the output layout; and which gradients it returns) is kept on disk under the key of
the step's structure (``step_key``), beside the compiled functions' warm starts, and loaded
from there with its module from the build cache (~5 ms, where a trace, the passes and code
generation took 30-200 ms, and a first one imported the code generator). A step whose
structure holds the program's own objects has no key: it is compiled in each process.
"""

from __future__ import annotations

from .. import config
from ..frontend.core import lazy_backward, lazy_ops
from ..tracing import ArgSpec
from .step_key import step_key

NAME = "eager_step"


def compile_step(entries: list, metas: list, root: int, outs: tuple) -> tuple:
    """``(run, grad_slots)``: see the module docstring."""
    from .. import pipeline
    key = None if config.warm_start_disabled() else \
        step_key(entries, metas, root, outs, pipeline.target())
    record = pipeline.recall(key)
    if record is not None:
        loaded = _loaded(record, len(outs))
        if loaded is not None:
            return loaded
    run, grad_slots, spec = _compiled(entries, metas, root, outs)
    art = spec.artifact
    if not (art.guards or art.captures or art.sizes):
        pipeline.remember(key, (art, grad_slots))
    return run, grad_slots


def _loaded(record, n: int) -> tuple | None:
    """``(run, grad_slots)`` of a step record an earlier process stored; None if it is not
    one (written by another format)."""
    from ..runtime.artifact import Artifact
    from ..runtime.specialization import Specialization
    if type(record) is not tuple or len(record) != 2 or type(record[0]) is not Artifact:
        return None
    art, grad_slots = record
    if art.name != NAME or len(art.out_specs) != n + len(grad_slots):
        return None
    config.debug(1, "%s: from disk (%s), not traced", NAME, art.key[:16])
    return _runner(Specialization.from_artifact(art).run, n), tuple(grad_slots)


def _runner(run_flat, n: int):
    def run(arrays: list) -> tuple:
        outs = run_flat(arrays)
        return outs[:n], outs[n:]
    return run


def _compiled(entries: list, metas: list, root: int, outs: tuple) -> tuple:
    """Trace, compile and load the step: ``(run, grad_slots, specialization)``."""
    from .. import pipeline
    from ..runtime.specialization import Specialization
    grad_slots: list = []

    def step(*xs):
        ext = [x.requires_grad_() if m[2] else x for x, m in zip(xs, metas)]
        env: list = []
        for entry in entries:
            env.append(lazy_ops.run_entry(entry, env, ext))
        env[root].backward()
        values = [env[i] for i in outs]
        grad_slots.clear()
        for slot, x in enumerate(ext):
            if metas[slot][2] and x.grad is not None:
                grad_slots.append(slot)
                values.append(x.grad)
        return tuple(values), None

    specs = [ArgSpec(tuple(m[0]), m[1], f"x{i}") for i, m in enumerate(metas)]
    compiled = pipeline.compile_function(step, specs, lambda leaves: (tuple(leaves), {}), NAME,
                                         forward=True, capture=False)
    spec = Specialization.of(compiled)
    return _runner(spec.run, len(outs)), tuple(grad_slots), spec


lazy_backward.COMPILER[0] = compile_step
