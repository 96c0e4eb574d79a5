"""The nodes of a backward pass that builds a graph (``create_graph=True``), named as torch's.

Layer: front end, above ``apply`` and ``backward_graph``, below ``engine`` (which calls it).
Input: a backward function, the cotangent of its output, and the engine's ``run_backward``.
Output: the cotangents of its inputs, as ``BackwardFunction.apply`` gives them, each the
result of one node named like torch's: torch computes the gradient of ``tanh`` with one op,
``tanh_backward``, whose own node is ``TanhBackwardBackward0`` (``x.grad.grad_fn`` after
``backward(create_graph=True)`` shows it); symgrad's rule composes primitives. The node's
rule re-runs the rule with recording on and differentiates through it (as a composite does),
so its values are the composition's. Ops whose torch gradient formula is itself arithmetic
(``pow``, ``mul``, ``sin``, ``exp``...) need nothing: the rule's last op is already torch's.
"""

from __future__ import annotations

from . import grad_mode
from .apply import attach_function, full
from .builder import BUILDER
from .tensor import Tensor

# torch's node of a backward op, by the name of the node whose backward it computes.
NAMES = {
    "TanhBackward0": "TanhBackwardBackward0",
    "SigmoidBackward0": "SigmoidBackwardBackward0",
    "ReluBackward0": "ThresholdBackwardBackward0",
    "ThresholdBackward0": "ThresholdBackwardBackward0",
    "HardtanhBackward0": "HardtanhBackwardBackward0",
    "MseLossBackward0": "MseLossBackwardBackward0",
    "SoftplusBackward0": "SoftplusBackwardBackward0",
    "EluBackward0": "EluBackwardBackward0",
    "LeakyReluBackward0": "LeakyReluBackwardBackward0",
    "GeluBackward0": "GeluBackwardBackward0",
    "LogSoftmaxBackward0": "LogSoftmaxBackwardDataBackward0",
    "SoftmaxBackward0": "SoftmaxBackwardDataBackward0",
    "SmoothL1LossBackward0": "SmoothL1LossBackwardBackward0",
    "HuberLossBackward0": "HuberLossBackwardBackward0",
}


def named_cotangents(fn, g: Tensor, name: str, run_backward) -> tuple:
    """``fn``'s cotangents for ``g``, each one node called ``name`` whose inputs are ``g``,
    ``fn``'s output (if its rule reads it) and what it saved."""
    fn.check_saved()
    out = None if fn._out is None else fn.output()
    ins = [g] + ([out] if out is not None else []) + list(fn._saved)

    def run(values: list) -> tuple:
        rest = values[1:]
        o = rest.pop(0) if out is not None else None
        return fn._rule(BUILDER, values[0], o, tuple(rest), **fn._attrs)

    with grad_mode.no_grad():
        cts = run(ins)
    return tuple(None if ct is None else _node(ct, i, name, run, ins, run_backward)
                 for i, ct in enumerate(cts))


def _node(ct: Tensor, i: int, name: str, run, ins: list, run_backward) -> Tensor:
    def rule(gg, o, values):
        with grad_mode.enable_grad():
            again = run(list(values))[i]
        create = grad_mode.is_grad_enabled()
        cts = run_backward([(again, gg)], retain_graph=True, create_graph=create,
                           inputs=list(values), input_hooks=False)
        # torch's node has an edge for each input: zeros where the value does not depend on
        # it (relu's gradient, a step, on the input)
        return tuple(full(v, 0.0) if c is None and v.requires_grad else c
                     for c, v in zip(cts, values))
    return attach_function(ct, name, rule, ins, saves=True, uses_out=False)
