"""Python control flow on traced values: decisions recorded as guards.

Layer: front end, above ``apply``. Input: a trace that knows its arguments' values (the
``GuardState`` of the active recording), and the places where Python needs a traced value:
``bool(t)`` (``if``, ``while``, ``and``/``or``/``not``), ``t.item()``, ``float(t)``,
``int(t)``. Output: the value Python asked for, computed from the actual arguments (a lazy
NumPy evaluation of the node's ancestors, ``ir.interpret``'s references), and a *guard*: a
boolean node of the graph with the outcome this trace took. The compiled C checks every guard
in order before it writes an output, and a call whose values decide otherwise reports which
guard failed (the API then runs, or traces, the path those values take).

- ``bool(t)`` guards ``t != 0`` (or ``t`` itself when it is a bool) on this outcome.
- ``t.item()`` returns a ``TracedFloat``/``TracedInt``: a Python number (its value in this
  trace) that remembers its node. Comparing it guards the comparison; arithmetic on it, with
  numbers or tensors, stays in the graph (it is a value of the compiled function, not a
  constant).
- ``float(t)``/``int(t)`` and what Python converts implicitly (``range(n)``, ``math.sqrt``)
  must return exact Python numbers: they guard the value itself, so the compiled path is
  specialized on it: an integer exactly (``t == value``), a float to within its rounding
  (``|t - value| <= value * ROUNDING[dtype]``; NaN and infinities exactly). Not exactly:
  the trace computes the value in NumPy and the C in its own order (a sum in SIMD lanes), and
  the two may differ in the last bits; an exact guard then failed on the very arguments it was
  traced for, and every call traced the same path again until the path limit sent the
  function to eager mode.

A guard reads values only: its predicate is built under ``no_grad`` (no gradient flows
through a decision, as with torch's ``.data``).
"""

from __future__ import annotations

import operator

import numpy as np

from ...dtypes import float32, float64
from ...ir.control import group_key, is_control
from ...ir.interpret import numpy_application, numpy_node
from ...ir.walk import Application
from ..core import grad_mode, sources
from ..core.apply import apply, as_tensor
from ..core.tensor import Tensor, tracer_error


# The relative difference a float's guard allows (4,096 and 256 units in the last place): far
# above the rounding two orders of a sum differ by, far below any difference a program means.
ROUNDING = {float64: 2.0 ** -40, float32: 2.0 ** -16}


class GuardState:
    """The argument values of one trace, and the decisions taken on them so far."""

    __slots__ = ("env", "applications", "decisions")

    def __init__(self, inputs: list, values: list) -> None:
        self.env = {n: np.asarray(v, dtype=n.dtype.np) for n, v in zip(inputs, values)}
        self.applications: dict = {}
        self.decisions: list = []      # (predicate node, outcome, Loc)

    # ------------------------------------------------------------ values
    def value(self, node) -> np.ndarray:
        """The value ``node`` has in this trace (its ancestors evaluated once, lazily)."""
        env = self.env
        if node in env:
            return env[node]
        stack = [node]
        with np.errstate(all="ignore"):
            while stack:
                n = stack[-1]
                missing = [i for i in n.inputs if i not in env]
                if missing:
                    stack.extend(missing)
                    continue
                stack.pop()
                if n not in env:
                    env[n] = self._evaluate(n)
        return env[node]

    def _evaluate(self, n) -> np.ndarray:
        if n.op == "const":
            return np.asarray(n.attr("value"), dtype=n.dtype.np)
        if n.op == "input":
            raise tracer_error("value (it is an input of a loop body or of a vmapped "
                               "function, which has no single value; use symgrad.cond or "
                               "symgrad.where inside it)")
        ins = [self.env[i] for i in n.inputs]
        if not is_control(n):
            return numpy_node(n, ins)
        key = group_key(n)
        if key not in self.applications:
            self.applications[key] = numpy_application(Application.of(n), ins)
        return self.applications[key][n.attr("index")]

    # ------------------------------------------------------------ decisions
    def decide(self, t: Tensor) -> bool:
        """``bool(t)``: its outcome in this trace, recorded as a guard."""
        if t.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        with grad_mode.no_grad():
            pred = t if t.dtype.name == "bool" else apply("ne", t, 0)
            if pred.ndim:
                pred = apply("reshape", pred, shape_to=())
        outcome = bool(self.value(pred.node))
        self.decisions.append((pred.node, outcome, sources.user_loc()))
        return outcome

    def exact(self, t: Tensor):
        """``float(t)``/``int(t)``: the Python number, guarded to be exactly this value."""
        if t.numel() != 1:
            raise RuntimeError(f"a Tensor with {t.numel()} elements cannot be converted to "
                               f"Scalar")
        value = self.value(t.node).item()
        with grad_mode.no_grad():
            flat = apply("reshape", t, shape_to=()) if t.ndim else t
            rounding = ROUNDING.get(flat.dtype)
            if value != value:
                same = apply("ne", flat, flat)
            elif rounding is None or value in (float("inf"), float("-inf")):
                same = apply("eq", flat, value)
            else:
                near = apply("abs", apply("sub", flat, value))
                same = apply("le", near, abs(value) * rounding)
        self.decisions.append((same.node, True, sources.user_loc()))
        if not bool(self.value(same.node)):
            raise AssertionError("a guard of the exact value did not hold in its own trace")
        return value

    def item(self, t: Tensor):
        """``t.item()``: a Python number that stays a value of the graph."""
        if t.numel() != 1:
            raise RuntimeError(f"a Tensor with {t.numel()} elements cannot be converted to "
                               f"Scalar")
        if t.dtype.name == "bool":
            return self.decide(t)
        flat = apply("reshape", t, shape_to=()) if t.ndim else t
        return traced_number(flat, self.value(flat.node).item())


# ---------------------------------------------------------------- traced Python numbers

def traced_number(t: Tensor, value):
    """A ``TracedFloat``/``TracedInt`` of value ``value`` standing for the 0-d tensor ``t``."""
    cls = TracedFloat if t.dtype.is_floating else TracedInt
    number = cls.__new__(cls, value)
    if t.dtype.is_floating and t.dtype is not float64:    # a Python float is a double
        t = apply("cast", t, dtype=float64)
    weak = Tensor(t._value, t._node)
    weak._weak = True            # it promotes like the Python number it is
    weak._requires_grad, weak.grad_fn = t._requires_grad, t.grad_fn
    number._sg_tensor = weak
    return number


def _operand(x):
    return x._sg_tensor if hasattr(x, "_sg_tensor") else x


def _guards() -> GuardState:
    rec = sources.current()
    if rec is None or rec.guards is None:
        raise tracer_error("number (a value of .item() used after its trace)")
    return rec.guards


def _binary(fn):
    def method(self, other):
        if not isinstance(other, (int, float, Tensor)):
            return NotImplemented
        result = fn(self._sg_tensor, _operand(other))
        if isinstance(other, Tensor):
            return result
        return traced_number(result, _guards().value(result.node).item())
    return method


def _reflected(fn):
    def method(self, other):
        if not isinstance(other, (int, float)):
            return NotImplemented
        result = fn(as_tensor(other) if not hasattr(other, "_sg_tensor") else
                    other._sg_tensor, self._sg_tensor)
        return traced_number(result, _guards().value(result.node).item())
    return method


def _compare(fn):
    def method(self, other):
        if not isinstance(other, (int, float, Tensor)):
            return NotImplemented
        with grad_mode.no_grad():
            result = fn(self._sg_tensor, _operand(other))
        if isinstance(other, Tensor) and result.ndim:
            return result
        return _guards().decide(result)
    return method


def _unary(fn):
    def method(self):
        result = fn(self._sg_tensor)
        return traced_number(result, _guards().value(result.node).item())
    return method


class _TracedNumber:
    """The methods of traced Python numbers (mixed into ``float`` and ``int`` subclasses)."""

    __add__, __sub__ = _binary(operator.add), _binary(operator.sub)
    __mul__, __truediv__ = _binary(operator.mul), _binary(operator.truediv)
    __floordiv__, __mod__ = _binary(operator.floordiv), _binary(operator.mod)
    __pow__ = _binary(operator.pow)
    __radd__, __rsub__ = _reflected(operator.add), _reflected(operator.sub)
    __rmul__, __rtruediv__ = _reflected(operator.mul), _reflected(operator.truediv)
    __rpow__ = _reflected(operator.pow)
    __lt__, __le__ = _compare(operator.lt), _compare(operator.le)
    __gt__, __ge__ = _compare(operator.gt), _compare(operator.ge)
    __eq__, __ne__ = _compare(operator.eq), _compare(operator.ne)
    __neg__, __abs__ = _unary(operator.neg), _unary(abs)

    def __bool__(self) -> bool:
        return _guards().decide(self._sg_tensor)

    def __hash__(self) -> int:
        return hash(_guards().exact(self._sg_tensor))

    def __float__(self) -> float:
        return float(_guards().exact(self._sg_tensor))

    def __int__(self) -> int:
        return int(_guards().exact(self._sg_tensor))

    def __index__(self) -> int:
        return int(_guards().exact(self._sg_tensor))


class TracedFloat(_TracedNumber, float):
    """A float from ``Tensor.item()`` in a guarded trace (see the module docstring)."""


class TracedInt(_TracedNumber, int):
    """An int from ``Tensor.item()`` in a guarded trace (see the module docstring)."""
