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
"""

from __future__ import annotations

from ..frontend.core import lazy_backward, lazy_ops
from ..tracing import ArgSpec

NAME = "eager_step"


def compile_step(entries: list, metas: list, root: int, outs: tuple) -> tuple:
    """``(run, grad_slots)``: see the module docstring."""
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
    n = len(outs)
    run_flat = spec.run

    def run(arrays: list) -> tuple:
        outs = run_flat(arrays)
        return outs[:n], outs[n:]
    return run, tuple(grad_slots)


lazy_backward.COMPILER[0] = compile_step
