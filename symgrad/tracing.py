"""Tracing: a Python function and an argument signature -> a ``Graph``.

Layer: trace, above the front end. Input: the function, its (flattened) dynamic arguments'
specs, the static arguments. Output: a ``Traced`` record: the graph (inputs named after the
user's parameters), the input and output structures, and the forward-only graph when the
function is a gradient transform's (it then returns its forward outputs beside its result).
The function runs once with traced tensors; their ops add interned nodes, and a
``sources.Recording`` keeps each node's ``file.py:line``; an exception the function raises
propagates unchanged, with a note naming the call being traced. It must not optimize or
generate code.
"""

from __future__ import annotations

import inspect as _inspect
import sys
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import numpy as np

from . import dtypes
from .frontend.core import grad_mode, sources
from .frontend.core.apply import as_tensor
from .frontend.core.capture import Captures, tracing
from .frontend.control.guards import GuardState
from .frontend.core.tensor import Tensor, placeholder
from .frontend.core.deferred import Deferred
from .gcpause import pausing
from .ir import Graph, Node
from .pytree import TreeDef, flatten


@dataclass(frozen=True)
class ArgSpec:
    """What one leaf argument must look like at call time."""

    shape: tuple
    dtype: dtypes.DType
    name: str
    python: type | None = None   # int/float/complex/bool: a Python scalar passed at run time


@dataclass
class Traced:
    graph: Graph
    in_specs: list                 # the arguments' leaves, then the captured values'
    out_tree: TreeDef
    forward: Graph | None = None   # the function's own outputs (before a gradient transform)
    guards: tuple = ()             # (outcome, Loc) of each decision on a traced value
    # The captured state read at call time (``frontend.capture.Captures``: its ``entries``
    # are the inputs after the arguments', in order) and what reuse must check.
    captures: Captures | None = None

    @property
    def n_args(self) -> int:
        """How many of the inputs are the arguments' leaves (the rest are captures)."""
        return len(self.in_specs) - (len(self.captures.entries) if self.captures else 0)


_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _compiled_dtype(dt: dtypes.DType) -> dtypes.DType:
    """Compiled code has no float16 arithmetic: a float16 argument arrives as float32, a
    lossless cast (the other storage types are computed in int64 by the traced ops)."""
    return dtypes.float32 if dt is dtypes.float16 else dt


def leaf_spec(value: Any, name: str) -> ArgSpec:
    """The spec of a runtime argument leaf; TypeError naming the argument if unsupported."""
    if isinstance(value, Tensor):
        return ArgSpec(tuple(value.shape), _compiled_dtype(value.dtype), name)
    if isinstance(value, (bool, np.bool_)):
        return ArgSpec((), dtypes.bool_, name, bool)
    if isinstance(value, (int, np.integer)) and not isinstance(value, np.ndarray):
        if not _INT64_MIN <= int(value) <= _INT64_MAX:   # NumPy would wrap np.uint64
            raise TypeError(f"argument {name}: expected an integer in the int64 range "
                            f"[-2**63, 2**63 - 1], got {value!r}")
        return ArgSpec((), dtypes.int64, name, int)
    if isinstance(value, float):
        return ArgSpec((), dtypes.float64, name, float)
    if isinstance(value, complex):
        return ArgSpec((), dtypes.complex128, name, complex)
    if isinstance(value, (np.ndarray, np.generic)):
        # A masked array's mask would be ignored (and without numpy.ma imported, none exists).
        ma = None if type(value) is np.ndarray else sys.modules.get("numpy.ma")
        if ma is not None and isinstance(value, ma.MaskedArray):
            raise TypeError(f"argument {name}: expected a NumPy array, got a masked array "
                            f"(shape {value.shape}, dtype {value.dtype}); symgrad would ignore "
                            f"its mask: pass value.filled(fill_value), or np.asarray(value) "
                            f"to use the data as it is")
        dt = dtypes.from_numpy(value.dtype)
        if dt is None:
            raise TypeError(f"argument {name}: unsupported dtype {value.dtype} (symgrad has "
                            f"float16/32/64, int8/16/32/64, uint8 and bool; cast it first)")
        return ArgSpec(tuple(value.shape), _compiled_dtype(dt), name)
    kind = f"{type(value).__module__}.{type(value).__qualname__}".replace("builtins.", "")
    raise TypeError(f"argument {name}: expected a NumPy array, a symgrad tensor or a Python "
                    f"number, got {kind}" + ("" if not hasattr(value, "__array__") else
                                             " (np.asarray(value) converts it)"))


class _Shown(str):
    """A leaf's spec inside a call description: it prints as its text, unquoted."""

    def __repr__(self) -> str:
        return str(self)


def _describe_call(fn: Callable, name: str, in_specs: list, rebuild: Callable) -> str:
    """``f(x=float64[2, 3], p={'w': float32[3]}, s=float, n=3)``: the call being traced, each
    argument in its structure with leaves shown by spec (Python numbers by their type)."""
    args, kwargs = rebuild([_Shown(s.python.__name__ if s.python is not None else
                                   f"{s.dtype.name}{list(s.shape)}") for s in in_specs])

    def short(v: Any) -> str:
        text = repr(v)
        return text if len(text) <= 80 else text[:77] + "..."
    parts = [f"{n}={short(a)}" for n, a in zip(param_names(fn, len(args)), args)]
    parts += [f"{k}={short(v)}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def param_names(fn: Callable, n: int) -> list[str]:
    try:
        params = list(_inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = []
    for i in range(n):
        if i < len(params) and params[i].kind in (params[i].POSITIONAL_ONLY,
                                                  params[i].POSITIONAL_OR_KEYWORD):
            names.append(params[i].name)
        else:
            names.append(f"arg{i}")
    return names


# How many traces this process has run (what a test reads to know that a process ran compiled
# code it loaded, a warm start or a pickled function, without tracing it).
stats = {"traces": 0}


@pausing   # a large trace allocates ~10^5 long-lived objects (see gcpause)
def trace(fn: Callable, in_specs: list, rebuild: Callable, name: str,
          forward: bool = False, values: list | None = None,
          reachable: dict | None = None, capture: bool = True) -> Traced:
    """Run ``fn`` on traced tensors.

    ``in_specs`` are the flat dynamic leaves' specs; ``rebuild(leaves)`` returns (args, kwargs)
    with those leaves substituted (static arguments stay as they were). With ``forward``,
    ``fn`` returns ``(result, forward_outputs)``: the tensors that are the function's own
    value before a transform differentiated it (shown by ``symgrad.inspect``). With
    ``values`` (the leaves' actual values), Python control flow on traced values is decided
    on them and recorded as guards (``frontend.control.guards``), the first outputs of the graph.
    The tensors and arrays from outside the arguments that the function computes with
    become inputs after the arguments' (``frontend.core.capture``; ``reachable``: the arrays and
    tensors its captured state reaches, by id, from ``api.fingerprint``). ``capture=False``:
    they are constants of their current values instead (a snapshot, for a standalone export).
    """
    stats["traces"] += 1
    inputs = [Node("input", (("index", i), ("name", s.name)), (), s.dtype, s.shape)
              for i, s in enumerate(in_specs)]
    tracers = [placeholder(n, python_number=s.python is not None)
               for n, s in zip(inputs, in_specs)]
    rec = sources.Recording()
    if values is not None:
        rec.guards = GuardState(inputs, values)
    captures = Captures(len(inputs), reachable, name)
    captures.root = rec
    if capture:
        rec.captures = captures
    with tracing(captures), sources.recording(rec), grad_mode.enable_grad():
        call_args, call_kwargs = rebuild(tracers)
        try:
            result = fn(*call_args, **call_kwargs)
            result, fwd = result if forward else (result, None)
            out_leaves, out_tree = flatten(result)
            # (the output nodes in the recording: a captured tensor returned as it is is
            # an input, read at call time)
            outputs = _output_nodes(out_leaves, name)
            fwd = None if fwd is None else [t.node for t in fwd]
        except Exception as e:
            _note_call(e, fn, name, in_specs, rebuild)
            raise
        finally:   # (side tables that point back at it, or are the trace's alone: cleared)
            rec.captures, captures.root, rec.consts, rec.values = None, None, {}, sources.Values()
            rec.applied = {}   # (a tensor that outlives the trace keeps ``rec``: not its nodes)
    decisions = rec.guards.decisions if rec.guards is not None else []
    guards = []
    for k, (pred, outcome, loc) in enumerate(decisions):
        guards.append(Node("guard", (("expect", outcome), ("number", k)), (pred,),
                           dtypes.bool_, ()))
        if loc is not None:
            rec.locs.setdefault(guards[-1], loc)
    inputs += [c.node for c in captures.entries]
    in_specs = list(in_specs) + [ArgSpec(c.node.shape, c.node.dtype, c.node.attr("name"))
                                 for c in captures.entries]
    graph = Graph(tuple(inputs), tuple(guards) + tuple(outputs), rec.locs, len(guards))
    if fwd is not None:
        fwd = Graph(tuple(inputs), tuple(fwd), rec.locs)
    return Traced(graph, in_specs, out_tree, fwd,
                  tuple((outcome, loc) for _, outcome, loc in decisions), captures)


def _note_call(e: Exception, fn: Callable, name: str, in_specs: list, rebuild: Callable) -> None:
    """Add the signature being traced to the user's exception as a note (PEP 678; Python
    < 3.11 shows the exception alone)."""
    if hasattr(e, "add_note"):
        try:
            call = _describe_call(fn, name, in_specs, rebuild)
        except Exception:   # noqa: BLE001  (a static argument's repr failed, say)
            call = name
        e.add_note(f"symgrad: raised while tracing {call}")
        nones = _none_arguments(fn, rebuild, in_specs)
        if nones and isinstance(e, TypeError):
            _name_nones(e, nones, name)


def _name_nones(e: TypeError, nones: list, name: str) -> None:
    """Say which arguments were None: in the message itself when it is about a None (``x +
    None``: "argument 'x' of f is None; ..."), else in a note (the None may be innocent)."""
    which = ", ".join(repr(n) for n in nones)
    said = (f"argument{'s' if len(nones) > 1 else ''} {which} of {name} "
            f"{'are' if len(nones) > 1 else 'is'} None")
    fix = "pass an array or a number (or make it static with static_argnames)"
    text = str(e.args[0]) if len(e.args) == 1 and isinstance(e.args[0], str) else None
    if text is not None and "None" in text:
        e.args = (f"{said}; {fix}: {text}",)
    else:
        e.add_note(f"symgrad: {said}: {fix}")


def _none_arguments(fn: Callable, rebuild: Callable, in_specs: list) -> list[str]:
    """The names of the call's arguments that are None (a common slip: an unset variable)."""
    try:
        args, kwargs = rebuild([0] * len(in_specs))   # leaves stand in as 0: None stays
    except Exception:   # noqa: BLE001
        return []
    names = param_names(fn, len(args))
    found = [n for n, a in zip(names, args) if a is None]
    return found + [k for k, v in kwargs.items() if v is None]


def _output_nodes(leaves: list, name: str) -> list:
    outs = []
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, Tensor):
            outs.append(leaf.node)
        elif isinstance(leaf, (int, float, bool, np.ndarray, np.generic)):
            outs.append(as_tensor(leaf).node)
        elif isinstance(leaf, Deferred):     # x[mask]: a result needs its size
            raise leaf.size_needed(f"output {i} of {name}")
        else:
            raise TypeError(f"{name} returned a {type(leaf).__name__} at output {i}; a compiled "
                            f"function may return tensors, arrays, numbers and tuples/lists/"
                            f"dicts of them")
    return outs
