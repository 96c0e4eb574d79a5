"""torch's keyword spellings for every torch-named function and method, in one place.

Layer: front end (the top of its function modules; ``methods`` and the package apply it).
Input: a function written with this project's parameter names. Output: the same function, or a
thin wrapper that also accepts torch's and NumPy's spellings: ``input=`` and ``other=`` for the
first two operands, ``axis=`` for ``dim=``, ``keepdims=`` for ``keepdim=``, ``size=`` for sizes
given as varargs, and ``out=`` (the result is written into ``out``, in place, and returned;
a factory given no tensor, ``rand(2, out=t)``, makes its values in ``out``'s dtype, as
torch's ``out`` overloads do).
A function whose parameters already carry torch's names is returned unwrapped, so the wrapper
costs nothing where it is not needed; a call without keywords goes straight through.
"""

from __future__ import annotations

import functools
import inspect
import types

from ... import dtypes
from ..core import lazy_updates
from ..core.tensor import Tensor
from ...dims import same_shape

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_SIZES = ("size", "sizes", "shape")
# torch functions without an ``out=`` (views and aliases of their input, and relu): passing
# one is Python's TypeError for an unexpected keyword, as in torch.
NO_OUT = frozenset(("conj", "positive", "real", "imag", "relu", "resolve_conj", "resolve_neg",
                    "conj_physical_", "tril_indices", "triu_indices",
                    "rsub"))
# Where torch's ``out=`` of an input that requires grad is not its RuntimeError (read from
# torch 2.13: its generated autograd kernel of the out= overload is what raises): "copy", the
# out= overload is a composite that computes the result and copies it into ``out``
# (differentiable, CopyBackwards); "none", the overload has no derivative formula (``out``
# requires grad, and its backward raises).
OUT_GRAPH = {"ndtr": "copy", "quantile": "copy", "nanquantile": "copy", "matrix_norm": "copy",
             "cond": "copy", "conj_physical": "none", "floor_divide": "none",
             "heaviside": "none", "diag": "none"}


def torch_keywords(fn, method: bool = False, exact_out: bool = False):
    """``fn`` accepting torch's keyword spellings (``method``: its first parameter is self;
    ``exact_out``: an ``out=`` of another dtype than the input's, the result's in torch, is
    its RuntimeError, as its structured kernels check, instead of a cast)."""
    found = parameters(fn)
    if found is None:
        return fn
    names, positional, varargs, varkw = found
    operands = positional[1:] if method else positional
    renames = {}
    if "dim" in names:
        renames["axis"] = "dim"
    if "keepdim" in names:
        renames["keepdims"] = "keepdim"
    for torch_name, mine in zip(("other",) if method else ("input", "other"), operands):
        if mine != torch_name and torch_name not in names:
            renames[torch_name] = mine
    sizes = varargs in _SIZES and "size" not in names - {varargs}
    out = "out" not in names and fn.__name__ not in NO_OUT and not varkw
    if not (renames or sizes or out):
        return fn
    checked = "dtype" not in names   # with a dtype to compute in, out= only casts (sum...)
    factory = not checked
    graph = fn.__name__ if fn.__name__ in OUT_GRAPH else None

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not kwargs:
            return fn(*args)
        target = kwargs.pop("out", None) if out else None
        for theirs, mine in renames.items():
            if theirs in kwargs:
                kwargs[mine] = kwargs.pop(theirs)
        if sizes and "size" in kwargs:
            args = args + (kwargs.pop("size"),)
        if factory and isinstance(target, Tensor) and kwargs.get("dtype") is None and not any(
                isinstance(a, Tensor) for a in (*args, *kwargs.values())):
            kwargs["dtype"] = target.dtype   # a factory's out= overload makes out's dtype
        result = fn(*args, **kwargs)
        if target is None:
            return result
        if exact_out and isinstance(target, Tensor) and args and isinstance(args[0], Tensor) \
                and target.dtype is not args[0].dtype:
            raise RuntimeError(f"Found dtype {target.dtype.scalar_type} but expected "
                               f"{args[0].dtype.scalar_type}")
        return write_out(target, result, checked, graph, fn.__name__)
    return wrapper


def parameters(fn) -> tuple[set, list, str | None, bool] | None:
    """(every parameter's name, the positional ones' in order, the ``*args`` name or None,
    whether there is a ``**kwargs``) of ``inspect.signature(fn)``; None if it has none. A
    plain function's are read from its code object, as ``inspect`` does, without building a
    Signature (importing symgrad wraps ~1100 functions: ~100 ms of Signatures)."""
    code = getattr(fn, "__code__", None)
    if type(fn) is not types.FunctionType or not isinstance(code, types.CodeType) or \
            hasattr(fn, "__wrapped__") or getattr(fn, "__signature__", None) is not None:
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            return None
        return ({p.name for p in params}, [p.name for p in params if p.kind in _POSITIONAL],
                next((p.name for p in params if p.kind is inspect.Parameter.VAR_POSITIONAL),
                     None), any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params))
    n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
    declared = list(code.co_varnames[:n_pos + n_kw])
    extra = iter(code.co_varnames[n_pos + n_kw:])
    varargs = next(extra) if code.co_flags & inspect.CO_VARARGS else None
    varkw = next(extra) if code.co_flags & inspect.CO_VARKEYWORDS else None
    names = set(declared) | {n for n in (varargs, varkw) if n is not None}
    return names, declared[:n_pos], varargs, varkw is not None


@lazy_updates.updates
def write_out(target: Tensor, result, checked: bool = True, graph: str | None = None,
              name: str | None = None):
    """torch's ``out=``: ``result`` written into ``target`` (resized if its shape differs,
    cast to its dtype), which is returned. A tuple result needs a tuple of targets.
    ``checked``: refuse a cast to a lower category (float into int64: ``dtypes.can_cast``).
    ``graph``: the op's name in ``OUT_GRAPH`` if a result that requires grad is written
    (None: torch's error, prefixed with the op's ``name``)."""
    if isinstance(result, tuple):
        if not isinstance(target, (tuple, list)) or len(target) != len(result):
            raise TypeError(f"out= must be a tuple of {len(result)} tensors for this function")
        return type(result)(*(write_out(t, r, checked) for t, r in zip(target, result)))
    if not isinstance(target, Tensor):
        raise TypeError(f"out= must be a Tensor, got {type(target).__name__}")
    if result._requires_grad and graph is None:
        raise RuntimeError(("" if name is None else f"{name}(): ") + "functions with out=... "
                           "arguments don't support automatic differentiation, but one of the "
                           "arguments requires grad.")
    if checked and not dtypes.can_cast(result.dtype, target.dtype):
        raise dtypes.cast_error(result.dtype, target.dtype)
    value = result.to(target.dtype)
    underived = result._requires_grad and OUT_GRAPH[graph] == "none"
    if not result._requires_grad:
        value = value.detach()
    elif underived:
        from .underivable import not_implemented, without_derivative   # (only here: a cycle)
        value = without_derivative("NotImplemented", lambda v: v * 1, [value],
                                   not_implemented(graph))
    if same_shape(value.shape, target.shape) and not underived:
        target.copy_(value)   # in place: views of ``target`` see the result
    else:
        target._value, target._node, target.shape = value._value, value._node, value.shape
        if value._requires_grad:                     # the result's history, as torch's
            target._requires_grad, target.grad_fn = True, value.grad_fn
        target._vc[0] += 1
    return target


def wrap_namespace(namespace: dict) -> None:
    """Replace each public front-end function in ``namespace`` (a module's globals) by its
    ``torch_keywords`` form."""
    for name, fn in list(namespace.items()):
        if not name.startswith("_") and inspect.isfunction(fn) \
                and fn.__module__.startswith("symgrad.frontend."):
            namespace[name] = torch_keywords(fn)
