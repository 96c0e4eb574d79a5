"""Lowering of ``guard`` (``ops.control``): a check that a traced value took the path the trace
took, one ``GuardKernel`` per node.

Layer: lower. Input: a ``guard`` node and the lowering in progress. Output: a ``GuardKernel``
appended to the lowering's kernels. Codegen (``codegen.c.guard``) writes one ``if`` that returns
the guard's status.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..ir.graph import Loc
from .loopir import View

__all__ = ["GuardKernel", "lower"]


@dataclass
class GuardKernel:
    """Return the guard status of guard ``number`` unless ``value`` (a Literal, a Scalar or a
    0-d View of a bool) is ``expect``."""

    value: object
    expect: bool
    number: int
    loc: Loc | None = None
    family: ClassVar[str] = "guard"

    def views(self) -> list:
        return [self.value] if isinstance(self.value, View) else []

    def with_views(self, f) -> GuardKernel:
        return replace(self, value=f(self.value))


def lower(lowering, node) -> None:
    lowering.kernels.append(GuardKernel(lowering.value(node.inputs[0]), node.attr("expect"),
                                        node.attr("number"), lowering.locs.get(node)))
