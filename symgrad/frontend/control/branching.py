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
from ..core.tensor import Tensor, tracer_error

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
    """The decisions of one run of a body's function (its recording's ``guards`` while it
    runs, what ``Tensor.__bool__`` asks): outcomes given for the first ones (``prefix``)."""

    __slots__ = ("prefix", "given", "taken", "body")

    def __init__(self, prefix: tuple, body: _Body) -> None:
        self.prefix, self.given, self.taken, self.body = prefix, 0, [], body

    def decide(self, t: Tensor) -> bool:
        if t.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        with grad_mode.no_grad():
            pred = t if t.dtype is dtypes.bool_ else apply("ne", t, 0)
            if pred.ndim:
                pred = apply("reshape", pred, shape_to=())
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
        if t.dtype is dtypes.bool_ and t.numel() == 1:
            return self.decide(t)
        raise _value_error("number (item())", self.body.what)

    def exact(self, t: Tensor):
        raise _value_error("float or int (float(t), int(t), an index)", self.body.what)

    def value(self, node):
        """(What a number from ``.item()`` of the enclosing trace asks, computed with here.)"""
        raise _value_error("number (a value of .item() computed with inside the body)",
                           self.body.what)


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
    decisions = Decisions(prefix, body)
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
