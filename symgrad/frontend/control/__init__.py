"""Loops and branches on traced tensors: ``loops`` (``scan``, ``fori_loop``, ``while_loop``,
``cond``), ``bodies`` (a body traced into a closed graph), ``apply`` (a control-flow primitive
applied to tensors; ``replay`` of a graph), ``vjp`` (their reverse mode), ``checkpoint``
(recomputation for memory), ``guards`` (Python control flow on traced values), ``branching``
(a Python ``if`` inside a body, lowered to ``cond``).
"""
