"""A Python ``if`` on a traced value inside a loop body or a branch, lowered to ``cond``.

Layer: front end, above ``bodies`` (``loops`` hands it ``switch_cond``, which it cannot
import). Input: the call that traces a body (a ``scan`` or ``while_loop`` body, a
``while_loop`` cond_fun, a ``cond`` branch) and the Python function it calls. Output: the same
call, in which ``bool(t)`` of a value that differs from step to step (an ``if``, ``and``/
``or``/``not``, a conditional expression, ``t.item()`` of a bool) is lowered to a ``cond``.

How. A body's inputs have no values when it is traced, so a decision cannot be taken; the
trace of the function stops there (``Fork``), and the body becomes ``cond(pred, true_side,
false_side, body inputs)``: each side runs the function again from the start on the branch's
inputs, with that decision's outcome given (and the earlier ones, as they were). A later
decision forks that side in the same way (a nested ``cond``). What the function returns is
the body's result either way, so the two sides give the carries the same structure and types
by construction when the user's ``if`` assigns the same variables, or leaves them as they
were; when they differ (a carry of another dtype on one side), the error names the line. The
C runs one side per step; gradients, ``vmap`` and Hessians go through ``cond``'s rules.

A value the same at every step (computed from what the body reads from outside it, e.g. an
argument of the compiled function) is not forked on: it is asked of the trace around the
body (``asked_outside``), which decides it as its own Python control flow (a guard the C
checks before it runs; a ``cond`` when the body around is a loop body itself). ``vmap``
asks the same of its function's values that are the same for every example.

Sound as long as the function is a function of its inputs: it runs once per path while
traced (Python side effects repeat; values computed before the decision are traced again,
the same nodes, inside each side). A decision repeated on the same predicate in one run takes
the first one's outcome. What cannot be lowered raises an error naming the line: a Python
``while`` (its trip count would differ per step: write ``symgrad.while_loop``), ``float(t)``,
``int(t)``, ``t.item()`` of a number, and more than ``MAX_RUNS`` traces of one body (too
many paths: use ``symgrad.where``).
"""

from __future__ import annotations

import re

from ... import dtypes
from ..core import grad_mode, sources
from ..core.apply import apply
from ...ir import Graph, toposort
from ..core.tensor import Tensor, tracer_error
from .apply import replay

# The traces of one body's function (one per path, and one per decision taken): beyond, the
# error asks for symgrad.where (2**5 paths of five independent ifs take 63).
MAX_RUNS = 63


class Fork(BaseException):
    """A decision with no known outcome: the run of the body's function stops here. (Not an
    Exception: a user's ``except Exception`` in the body must not swallow it.)"""

    def __init__(self, decisions: Decisions, pred: Tensor, loc) -> None:
        super().__init__("a Python if on a traced value (symgrad lowers it to cond)")
        self.decisions, self.pred, self.loc = decisions, pred, loc


class _Body:
    """What the runs of one body share: its name, how to make a cond, the runs so far."""

    __slots__ = ("what", "switch_cond", "runs")

    def __init__(self, what: str, switch_cond) -> None:
        self.what, self.switch_cond, self.runs = what, switch_cond, 0


class Decisions:
    """The decisions of one run of a body's function (its recording ``rec``'s ``guards``
    while it runs, what ``Tensor.__bool__`` asks): outcomes given for the first ones
    (``prefix``)."""

    __slots__ = ("prefix", "given", "taken", "body", "rec")

    def __init__(self, prefix: tuple, body: _Body, rec) -> None:
        self.prefix, self.given, self.taken, self.body, self.rec = prefix, 0, [], body, rec

    def decide(self, t: Tensor) -> bool:
        pred = predicate(t)
        known = asked_outside(self.rec, pred, "decide")
        if known is not UNKNOWN:
            return known                   # the same at every step: decided outside
        for node, outcome in self.taken:
            if node is pred.node:
                return outcome             # the same predicate: the same outcome
        if self.given == len(self.prefix):
            loc = sources.user_loc()
            _refuse_while(loc, self.body.what)
            raise Fork(self, pred, loc)
        outcome = self.prefix[self.given]
        self.given += 1
        self.taken.append((pred.node, outcome))
        return outcome

    def item(self, t: Tensor):
        known = asked_outside(self.rec, t, "item")
        if known is not UNKNOWN:
            return known
        if t.dtype is dtypes.bool_ and t.numel() == 1:
            return self.decide(t)
        raise _value_error("number (item())", self.body.what)

    def exact(self, t: Tensor):
        known = asked_outside(self.rec, t, "exact")
        if known is not UNKNOWN:
            return known
        raise _value_error("float or int (float(t), int(t), an index)", self.body.what)

    def value(self, node):
        """(What a number from ``.item()`` asks when it is computed with here.)"""
        known = asked_outside(self.rec, Tensor(None, node), "value")
        if known is not UNKNOWN:
            return known
        raise _value_error("number (a value of .item() computed with inside the body)",
                           self.body.what)


# ---------------------------------------------------------------- values the same at every step

UNKNOWN = object()      # what ``asked_outside`` returns when the value differs per step


def predicate(t: Tensor) -> Tensor:
    """``bool(t)`` as a bool scalar of the graph (torch's error if ``t`` has several
    elements)."""
    if t.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    with grad_mode.no_grad():
        pred = t if t.dtype is dtypes.bool_ else apply("ne", t, 0)
        return apply("reshape", pred, shape_to=()) if pred.ndim else pred


def outside(node, rec, given: dict | None = None) -> Tensor | None:
    """``node``, a value of the body that ``rec`` records, as a tensor of the trace around
    the body, when it depends on nothing but what the body read from there (its captures,
    and the inputs ``given`` maps to their tensors there): the same at every step of a loop
    (for every example of a vmap). None otherwise."""
    scope = rec.body if rec is not None else None
    if scope is None or scope.parent is None:
        return None
    by_input = {inner.node: outer for outer, inner in scope.captured.values()}
    by_input.update(given or {})
    inputs = [n for n in toposort([node]) if n.op == "input"]
    if any(n not in by_input for n in inputs):
        return None
    with sources.recording(scope.parent), grad_mode.no_grad():
        return replay(Graph(tuple(inputs), (node,), {}), [by_input[n] for n in inputs])[0]


def asked_outside(rec, t: Tensor, how: str, given: dict | None = None):
    """``how`` ("decide", "item", "exact", "value") of the value ``t`` of the body that
    ``rec`` records, asked of the trace around it (whose guards check it before the compiled
    code runs), or its value there if that is known; ``UNKNOWN`` when it differs per step or
    nothing around can decide it (``given``: see ``outside``)."""
    out = outside(t.node, rec, given)
    if out is None:
        return UNKNOWN
    if out.concrete is not None:                  # an eager value
        value = out.concrete
        return {"decide": lambda: bool(value), "value": lambda: value}.get(
            how, lambda: value.item())()
    guards = rec.body.parent.guards
    if guards is None:
        return UNKNOWN
    return guards.value(out.node) if how == "value" else getattr(guards, how)(out)


def _value_error(what: str, body: str):
    return tracer_error(what, f"inside the {body}, a value differs from step to step and is "
                        f"not known when the body is traced. A Python if on a traced value "
                        f"compiles there (symgrad lowers it to symgrad.cond); for a number, "
                        f"keep computing with the tensor, or pick with symgrad.where(cond, "
                        f"a, b).")


def _refuse_while(loc, body: str) -> None:
    if loc is None or not re.match(r"while\b", loc.text):
        return
    raise tracer_error(
        "bool (a while condition)",
        f"inside the {body}, the condition differs from step to step, so how many times a "
        f"Python while loop runs is not known when the body is traced. Write it as "
        f"symgrad.while_loop(cond_fun, body_fun, init) (a loop inside a body compiles), or "
        f"run a fixed number of steps that keep the value once done, with symgrad.where.")


def lowering_ifs(call, what: str, switch_cond):
    """``call(fn, inputs)`` (the tracing of a body named ``what``) with Python decisions on
    traced values lowered to ``switch_cond`` (``loops.switch_cond``)."""
    body = _Body(what, switch_cond)

    def run(fn, inputs: list):
        return _explore(call, fn, list(inputs), (), body)
    return run


def _fresh(inputs: list) -> list:
    """New tensors of the body inputs' nodes (a run may have updated an input in place)."""
    scope = sources.current().body
    out = []
    for t in inputs:
        new = scope.adopt(t.node)
        new._weak = t._weak
        out.append(new)
    return out


def _explore(call, fn, inputs: list, prefix: tuple, body: _Body):
    """The result of ``call(fn, inputs)`` with the first decisions' outcomes ``prefix``; a
    decision beyond them becomes a ``cond`` of the two outcomes."""
    body.runs += 1
    if body.runs > MAX_RUNS:
        raise tracer_error("bool (an if/while condition or and/or/not)", f"the Python "
                           f"control flow on traced values inside the {body.what} takes too "
                           f"many paths (more than {MAX_RUNS} traces of it, each if "
                           f"doubling them). Compute both sides and pick with "
                           f"symgrad.where(cond, a, b), or branch with symgrad.cond.")
    rec = sources.current()
    decisions = Decisions(prefix, body, rec)
    saved, rec.guards = rec.guards, decisions
    try:
        return call(fn, _fresh(inputs))
    except Fork as e:
        if e.decisions is not decisions:
            raise
        fork = e
    finally:
        rec.guards = saved
    return _forked(call, fn, inputs, prefix, body, fork)


def _forked(call, fn, inputs: list, prefix: tuple, body: _Body, fork: Fork):
    def side(outcome: bool):
        def branch(*operands):
            return _explore(call, fn, list(operands), prefix + (outcome,), body)
        return branch
    try:
        return body.switch_cond(fork.pred, side(True), side(False), tuple(_fresh(inputs)))
    except TypeError as e:
        if not str(e).startswith("cond: "):
            raise
        loc = fork.loc
        at = f" at {loc.file}:{loc.line} ({loc.text})" if loc is not None else ""
        raise TypeError(f"the Python if{at} inside the {body.what} is lowered to symgrad.cond"
                        f" (its condition differs from step to step), and its two sides give "
                        f"the body different results: {str(e)[6:]}. Give every carry the same "
                        f"shape and dtype on both sides (assign it on both, or leave it as it "
                        f"was), or pick with symgrad.where(cond, a, b).") from None
