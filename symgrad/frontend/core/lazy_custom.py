"""Custom ``autograd.Function``s in a captured eager step: their node recorded as one op.

Layer: front end, above the recorder (``lazy``, ``lazy_ops``) and ``custom_function`` (whose
``Function.apply`` calls ``applied`` while capture is on). Input: a Function subclass and
the arguments of one ``apply``. Output: its result, as without capture; on an armed path,
pending, the step's compiled code computing the user's ``backward`` as traced ops.

The forward runs at each step, as in torch (its ops are the step's, pending on an armed
path), so what it does in Python happens each time. Its node is recorded as an ``"F"``
entry keyed by the Function class and its backward, the arguments (tensors as operands,
other values by value), the forward's output and what the forward left on ``ctx``: the
tensors it saved, the attributes it set (plain values and tensors), ``materialize_grads``.
The entry made again (a fallback, a kept result's graph, the compile's trace) gives a ctx of
the same state, attached as ``Function.apply`` attaches it.

The user's ``backward`` runs when the step is traced, not at each replayed step: a step is
captured only where that cannot be seen -- its code (and its nested functions') reads no
global but symgrad's modules and functions and a few builtins (no ``print``), and writes no
global, attribute or closure cell. Anything else is left as it was: its region ends there,
and the step runs eagerly. So are symgrad's own Functions (checkpoint, control flow), a
``ctx`` holding a function (code the key cannot see), a marked input (``mark_dirty``,
``mark_non_differentiable``), ``save_for_forward``, and a forward that returns anything but
one new tensor.
"""

from __future__ import annotations

import builtins
import dis
import types

from . import custom_function, grad_mode, lazy_ops, sources
from .custom_function import run_forward, node_class, wrap_outputs
from .lazy import (_MAIN, STATE, _get_ident, _next, _noted, _open, _operand, _requiring, close,
                   keyed, local_index)
from .lazy_ops import Uncapturable, spec_value, value_spec
from .tensor import Tensor

_GRAD = grad_mode._local
_RECORDING = sources._local   # .recording: a trace is running

# What a fresh ctx holds in its __dict__ (the node's own state; the rest is the user's).
_OWN = frozenset(node_class(type("_Any", (), {}))(()).__dict__)
# Builtins a backward may read: pure functions and types, and the errors it may raise.
_SAFE_BUILTINS = frozenset((
    "len", "range", "tuple", "list", "dict", "zip", "enumerate", "reversed", "isinstance",
    "int", "float", "bool", "complex", "slice", "min", "max", "abs", "sum", "any", "all",
    "round", "divmod", "pow", "map", "sorted", "type", "getattr", "hasattr", "None",
    "NotImplemented", "ValueError", "TypeError", "RuntimeError", "NotImplementedError"))
_WRITES = frozenset(("STORE_GLOBAL", "DELETE_GLOBAL", "STORE_ATTR", "DELETE_ATTR",
                     "STORE_DEREF", "DELETE_DEREF", "IMPORT_NAME", "YIELD_VALUE"))
_PURE: dict = {}    # a backward function -> why it cannot be captured (None: it can)


def applied(cls: type, args: tuple, kwargs: dict):
    """``cls.apply(*args, **kwargs)`` while capture is on."""
    reg = STATE.region
    if _get_ident() != _MAIN or _RECORDING.recording is not None or kwargs or \
            cls.__module__.startswith("symgrad."):   # (a trace's: not recorded)
        return _eager(cls, args, kwargs)
    if reg is None:
        if not (_GRAD.enabled and _requiring(args)):
            return _eager(cls, args, kwargs)
        reg = _open()     # (the forward's ops are the step's)
    name = cls.__qualname__
    if reg.counting:   # (counted as recorded: the forward's ops, then the node)
        result = _eager(cls, args, kwargs)
        if STATE.region is reg:
            reg.fp = hash((reg.fp, name))
            reg.ops += 1
        return result
    why = _impure(cls)
    if why is not None:
        close(f"{name}: {why}")
        return _eager(cls, args, kwargs)
    ctx, out = run_forward(cls, args, kwargs, edges=False)   # (its inputs may be pending)
    record = _GRAD.enabled and any(ctx.needs_input_grad)
    if STATE.region is not reg or not record or reg.counting:
        return _wrap(ctx, out, args, record)
    if not reg.lazy:
        reg.fp = hash((reg.fp, name))
        reg.ops += 1
    found = keyed(reg, name, lambda: _entry(reg, name, cls, args, ctx, out))
    if found is None:
        return _wrap(ctx, out, args, record)
    entry, key, child = found
    t = _next(reg, child, name)
    if t is not None:
        return t
    return _noted(reg, key, child, _wrap(ctx, out, args, record), lambda: entry)


def _wrap(ctx, out, args: tuple, record: bool):
    """The outputs attached to ``ctx`` as ``Function.apply`` attaches them (its inputs
    computed now, if they were pending)."""
    ctx.take_edges(args)
    return wrap_outputs(ctx, out, args, record)


def _eager(cls: type, args: tuple, kwargs: dict):
    ctx, outputs = run_forward(cls, args, kwargs)
    return wrap_outputs(ctx, outputs, args, _GRAD.enabled and any(ctx.needs_input_grad))


def _entry(reg, name: str, cls: type, args: tuple, ctx, out) -> tuple:
    """The ``"F"`` entry of one apply (Uncapturable: see the module docstring)."""
    if not isinstance(out, Tensor) or any(out is a for a in args) or \
            local_index(reg, out) is None or not out.dtype.is_differentiable:
        raise Uncapturable("a custom Function whose forward does not return one new tensor")
    if ctx._dirty or ctx._non_differentiable:
        raise Uncapturable("a custom Function that marks its inputs")
    attrs = {k: v for k, v in ctx.__dict__.items() if k not in _OWN}
    if "saved_for_forward" in attrs or any(callable(v) for v in attrs.values()):
        raise Uncapturable("a custom Function's ctx holding code or forward-mode state")

    def operand(t):
        return _operand(reg, t)
    backward = cls.backward   # (by identity too: a class whose backward is replaced later
    return ("F", name, ("id", id(cls), cls), ("id", id(backward), backward),   # is another)
            tuple([value_spec(operand, a, 1) for a in args]), _operand(reg, out),
            (tuple(sorted((k, value_spec(operand, v, 1)) for k, v in attrs.items())),
             tuple([value_spec(operand, t, 1) for t in ctx._to_save or ()]),
             ctx._to_save is None, ctx.materialize_grads))


def run_custom(entry: tuple, env: list, ext: list) -> Tensor:
    """An ``"F"`` entry made again: a ctx of the recorded state on a new tensor of the
    forward's output (``lazy_ops.run_entry``)."""
    _, _, (_, _, cls), _, arg_specs, out_spec, (attrs, saved, none_saved, materialize) = entry
    args = tuple([spec_value(s, env, ext) for s in arg_specs])
    ctx = node_class(cls)(args)
    for k, spec in attrs:
        setattr(ctx, k, spec_value(spec, env, ext))
    ctx._to_save = None if none_saved else tuple([spec_value(s, env, ext) for s in saved])
    ctx.materialize_grads = materialize
    forward_out = spec_value(("t", out_spec), env, ext)
    out = Tensor(forward_out._value, forward_out._node)
    with grad_mode.enable_grad():   # (recorded in grad mode only)
        return wrap_outputs(ctx, out, args, True)


def _impure(cls: type) -> str | None:
    """Why ``cls.backward`` cannot run only when the step is traced (None: it can)."""
    fn = cls.backward
    fn = getattr(fn, "__wrapped__", fn)   # (once_differentiable's wrapper: symgrad's)
    if fn not in _PURE:
        _PURE[fn] = _reads_and_writes(fn.__code__, getattr(fn, "__globals__", {})) \
            if type(fn) is types.FunctionType else "a backward that is not a Python function"
    return _PURE[fn]


def _reads_and_writes(code: types.CodeType, globals_: dict) -> str | None:
    for ins in dis.get_instructions(code):
        if ins.opname in _WRITES:
            return f"its backward writes outside itself ({ins.opname} {ins.argval})"
        if ins.opname == "LOAD_GLOBAL" and not _safe_global(ins.argval, globals_):
            return f"its backward reads the global {ins.argval!r}"
    for const in code.co_consts:
        if type(const) is types.CodeType:
            why = _reads_and_writes(const, globals_)
            if why is not None:
                return why
    return None


def _safe_global(name: str, globals_: dict) -> bool:
    if name not in globals_:
        return name in _SAFE_BUILTINS and hasattr(builtins, name)
    value = globals_[name]
    if isinstance(value, types.ModuleType):
        return value.__name__ == "math" or value.__name__.split(".")[0] == "symgrad"
    module = getattr(value, "__module__", None) or ""
    return module.split(".")[0] == "symgrad" and callable(value)


custom_function.CAPTURE[0] = applied
lazy_ops.RUN_CUSTOM[0] = run_custom
