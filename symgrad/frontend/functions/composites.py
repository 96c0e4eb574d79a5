"""Composites: torch functions written from primitives that show one backward node.

Layer: front end, above ``apply`` and the capture of composites (``lazy_composite``), below
the functions written with them (``basic`` re-exports ``composite``). Input: a body made of
primitives, its inputs, and optionally its backward rule. Output: the body's result with one
backward function attached (``attach_function``).
"""

from __future__ import annotations

from typing import Callable, Sequence  # noqa: UP035

from ... import dtypes
from ..core import grad_mode
from ..core.apply import WATCH, attach_function
from ..core.engine import run_backward
from ..core.lazy_composite import composed
from ..core.tensor import Tensor
from .opmath import IN_FLOAT32, in_float32


def composite(torch_name: str, body: Callable[..., Tensor], inputs: Sequence[Tensor],
              rule: Callable | None = None, saves: bool = True, uses_out: bool = True,
              holomorphic: bool | None = None, shown: tuple | None = None,
              pure: bool = False) -> Tensor:
    """Run ``body(*inputs)`` without recording, then attach one backward function.

    ``rule(g, out, inputs)`` gives the inputs' cotangents; without one, the backward re-runs
    ``body`` with recording on (free at trace time: nodes are interned) and back-propagates
    through it to the inputs. ``saves``/``uses_out``: whether the rule reads the inputs/the
    output (changing them in place before the backward is then an error). ``holomorphic``
    (default: whether a rule is given): the rule is written with derivatives, for real
    values, and complex ones take it conjugated (see ``BackwardFunction.apply``); a rule in
    torch's complex convention says False. ``pure``: the body only applies ops, reading no
    tensor's values and drawing nothing random, so that a captured step may skip its Python
    (``lazy_composite``).
    """
    if holomorphic is None:   # a rule of derivatives; the body's own is in torch's convention
        holomorphic = rule is not None
    if pure and WATCH[0]:
        return composed(lambda: _composite(torch_name, body, inputs, rule, saves, uses_out,
                                           holomorphic, shown),
                        torch_name, body, inputs, rule, (saves, uses_out, holomorphic, shown))
    return _composite(torch_name, body, inputs, rule, saves, uses_out, holomorphic, shown)


def _composite(torch_name: str, body: Callable[..., Tensor], inputs: Sequence[Tensor],
               rule: Callable | None, saves: bool, uses_out: bool, holomorphic: bool,
               shown: tuple | None) -> Tensor:
    if torch_name in IN_FLOAT32 and any(t.dtype is dtypes.float16 for t in inputs):
        body, rule = in_float32(torch_name, body, rule, _rerun)   # torch's float16 kernel
    with grad_mode.no_grad():
        out = body(*inputs)
    return attach_function(out, torch_name, rule or _rerun(body), list(inputs), saves,
                           uses_out, holomorphic, shown)


def linear_composite(torch_name: str, body: Callable[..., Tensor], inputs: Sequence[Tensor]
                     ) -> Tensor:
    """``composite`` of a body linear in its inputs (indexing, repeat, a gather at known
    indices...), with the body's own rule: its backward reads their sizes only, no value, so
    they may change in place after it (torch saves the indices or the sizes alone)."""
    return composite(torch_name, body, inputs, saves=False, uses_out=False)


def _rerun(body: Callable[..., Tensor]) -> Callable:
    """The backward rule of a composite given none: run ``body`` again with recording on
    (free at trace time: nodes are interned) and back-propagate through it to the inputs."""
    def rule(g, out, ins):
        with grad_mode.enable_grad():
            again = body(*ins)
        create = grad_mode.is_grad_enabled()   # then the gradient reads this graph
        return run_backward([(again, g)], retain_graph=create, create_graph=create,
                            inputs=list(ins), input_hooks=False)
    return rule
