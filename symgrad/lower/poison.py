"""Lowering of ``poison`` (``ops.control``): a value the trace could not make compilable (its
message says why). Lowering it raises ``NotImplementedError`` with that message.

Layer: lower. Input: a ``poison`` node. Output: none (it raises).
"""

from __future__ import annotations


def lower(lowering, node) -> None:
    raise NotImplementedError(node.attr("message"))
