"""A captured step's recorded ops: what identifies one (specs) and applying it again.

Layer: front end, above ``apply`` (``lazy`` records with it; ``lazy_backward`` and the step
compiler re-apply with it). An entry is plain data, the same for every step of one structure:

* ``("a", name, attrs, operands, torch_name, shown, grad_enabled)``: an ``apply``;
* ``("c", torch_name, shown, saves, uses_out, holomorphic, out, inputs, rule)``: a
  composite's backward node (``attach_function``), its rule a *function spec*: the rule's
  code with its closure's values as specs, so that the rule can be made again over other
  tensors (the next step's, or traced ones) -- its tensors are operands like any op's;
* ``("d", operand)``: ``detach()``;
* ``("F", name, function, backward, args, output, ctx)``: a custom ``autograd.Function``'s
  node on its forward's output (``lazy_custom``);
* ``("m", torch_name, saves, multi_views, outs, inputs, rule)``: the node an op of several
  outputs gives its outputs, results of the step (``torch_nodes.named_outputs``: split,
  unbind, chunk), its rule a function spec; it makes no tensor.

Operands are specs: a result of the step by number (>= 0), an external tensor by
``-1 - slot``, a Python number as ``(type, exact value)`` (a float by its hex spelling: 0.0
and -0.0 differ, as they would in the result), None.
"""

from __future__ import annotations

import types

import numpy as np

from ... import dtypes
from . import grad_mode
from .apply import apply, attach_function
from .tensor import Tensor

_GRAD = grad_mode._local
ATTACH_OUTPUTS: list = [None]   # torch_nodes.attach_outputs (the functions are above this)
RUN_CUSTOM: list = [None]       # lazy_custom.run_custom (custom functions are above this)


_ARRAY_LIMIT = 4096   # the largest array a rule's closure may hold by value (elements)


class Code:
    """A rule's code in a spec (with the globals of the rules made of it), hashed and compared
    by identity: a code object's own hash is computed anew each time, from its bytecode and
    constants (~0.2 us, for each of a composite's two functions at every step). One per code
    object (``_CODES``), kept for the process's life."""

    __slots__ = ("code", "globals")

    def __init__(self, code: types.CodeType, globals_: dict):
        self.code, self.globals = code, globals_


_CODES: dict = {}   # id(code) -> its Code (which holds it: the id is never another's)


class _Payload:
    """A value a spec carries but is not keyed by (an array, keyed by its bytes beside it)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other) -> bool:
        return type(other) is _Payload

    def __hash__(self) -> int:
        return 0


class Uncapturable(Exception):
    """What a step cannot hold (the message says what): its region ends there, eagerly."""


# Objects a rule's closure may hold by identity: they live as long as the program.
_IMMORTAL = (type, types.ModuleType, types.BuiltinFunctionType, dtypes.DType)


def function_spec(operand, f, depth: int = 2) -> tuple:
    """A composite rule (or a function its closure holds) as (code, defaults, cells), each
    cell's value a spec: tensors as ``operand(t)`` says, plain values by value, module-level
    objects by identity. Uncapturable if anything else."""
    if type(f) is not types.FunctionType or depth < 0:
        raise Uncapturable(f"a backward rule {f!r} that is not a Python function")
    cells = tuple([value_spec(operand, c.cell_contents, depth) for c in f.__closure__ or ()])
    defaults = tuple([value_spec(operand, d, depth) for d in f.__defaults__ or ()])
    if f.__kwdefaults__:
        raise Uncapturable(f"keyword defaults of {f.__qualname__}")
    code = f.__code__
    spec = _CODES.get(id(code))
    if spec is None:
        spec = _CODES[id(code)] = Code(code, f.__globals__)
    return ("f", spec, defaults, cells)


def value_spec(operand, v, depth: int) -> object:
    kind = type(v)
    if kind is float:
        return ("v", v, v.hex())
    if v is None or kind in (int, bool, str):
        return ("v", v, kind)
    if isinstance(v, Tensor):
        return ("t", operand(v))
    if kind is tuple or kind is list:
        return (kind.__name__, tuple([value_spec(operand, x, depth) for x in v]))
    if kind is slice:   # (an index's: not hashable before Python 3.12)
        return ("slice", tuple([value_spec(operand, x, depth)
                                for x in (v.start, v.stop, v.step)]))
    if v is Ellipsis:
        return ("v", v, kind)
    if kind is np.ndarray and v.size <= _ARRAY_LIMIT and v.dtype.kind in "biuf":
        # (an index or mask a rule keeps, computed in Python: keyed by its bytes, a
        # constant of the compiled step; larger arrays end the region)
        return ("a", v.shape, v.dtype.str, v.tobytes(), _Payload(v))
    if kind is types.FunctionType:
        if v.__closure__ is None and "<locals>" not in v.__qualname__:
            return ("id", id(v), v)
        return function_spec(operand, v, depth - 1)
    if isinstance(v, _IMMORTAL) or getattr(kind, "__module__", "").startswith("symgrad.ops"):
        return ("id", id(v), v)
    raise Uncapturable(f"a {kind.__name__} in a backward rule's closure")


def run_entry(entry: tuple, env: list, ext: list) -> Tensor | None:
    """Apply a recorded op again: to eager tensors (a fallback, a graph made again) or to
    traced ones (the compile of a step). ``env``: the region's results so far. None: an
    ``"m"`` entry, which makes no tensor."""
    if entry[0] == "d":
        return _resolve(entry[1], env, ext).detach()
    if entry[0] == "m":
        _, torch_name, saves, multi, outs, inputs, rule = entry
        with grad_mode.enable_grad():   # (recorded in grad mode only, as a composite's node)
            ATTACH_OUTPUTS[0](torch_name, _function(rule, env, ext),
                              [_resolve(s, env, ext) for s in inputs], saves,
                              [_resolve(s, env, ext) for s in outs], multi)
        return None
    if entry[0] == "F":     # a custom autograd.Function's node (``lazy_custom``)
        return RUN_CUSTOM[0](entry, env, ext)
    if entry[0] == "a":
        _, name, attrs, specs, torch_name, shown, grad = entry
        args = [_resolve(s, env, ext) for s in specs]
        if grad is _GRAD.enabled:
            return apply(name, *args, _torch_name=torch_name, _shown=shown, **attrs)
        with grad_mode.set_grad_enabled(grad):
            return apply(name, *args, _torch_name=torch_name, _shown=shown, **attrs)
    _, torch_name, shown, saves, uses_out, holomorphic, out, inputs, rule = entry
    args = (_resolve(out, env, ext), torch_name, _function(rule, env, ext),
            [_resolve(s, env, ext) for s in inputs], saves, uses_out, holomorphic, shown)
    if _GRAD.enabled:      # (a composite's node is recorded in grad mode only; it may be
        return attach_function(*args)   # made again inside a later composite's no_grad body)
    with grad_mode.enable_grad():
        return attach_function(*args)


def _resolve(spec, env: list, ext: list):
    if type(spec) is int:
        return env[spec] if spec >= 0 else ext[-1 - spec]
    if spec is None:
        return None
    kind, value = spec
    return float.fromhex(value) if kind is float else value


def _function(spec: tuple, env: list, ext: list):
    _, made_of, defaults, cells = spec
    code = made_of.code
    return types.FunctionType(code, made_of.globals, code.co_name,
                              tuple([spec_value(d, env, ext) for d in defaults]) or None,
                              tuple([types.CellType(spec_value(c, env, ext)) for c in cells]))


def spec_value(spec: tuple, env: list, ext: list):
    kind = spec[0]
    if kind == "v" or kind == "id":
        return spec[1] if kind == "v" else spec[2]
    if kind == "a":
        return spec[4].value
    if kind == "t":
        return _resolve(spec[1], env, ext)
    if kind == "tuple" or kind == "list" or kind == "slice":
        items = [spec_value(s, env, ext) for s in spec[1]]
        return tuple(items) if kind == "tuple" else items if kind == "list" else slice(*items)
    return _function(spec, env, ext)
