"""``vmap``, ``jvp``, ``vjp``, ``jacrev``, ``jacfwd``, ``jacobian``, ``hessian``, ``hvp``.

Layer: api. Input: a Python function (or a compiled one, or another transform), JAX's
arguments. Output: compiled functions (one C function per signature, not a loop of calls), or,
for ``jvp``/``vjp``/``hvp``, which take the point to differentiate at, their results computed by
such a function (compiled once per function and kept).

Each is a ``CompiledFunction`` whose body calls the tensor-level transform of
``symgrad.transforms`` on the arguments. Called on NumPy arrays it runs the C; called on traced
tensors (inside another compiled function or transform) or on tensors that require grad, it
runs the body on them: that is how transforms compose (``vmap(grad(f))``,
``jacfwd(jacrev(f))``, ``grad(vmap(f))``).
"""

from __future__ import annotations

import functools
import threading
import weakref
from typing import Any
from collections.abc import Callable, Sequence

from ..frontend.core.tensor import Tensor
from ..pytree import flatten
from ..transforms import jacobians, residuals
from ..transforms.forward import jvp_call, vjp_call
from ..transforms.vmap import vmap_call
from .compiled import CompiledFunction


def _named(fn: Callable) -> Callable:
    return fn.fn if isinstance(fn, CompiledFunction) else fn


def _compiled(fn: Callable, label: str, body: Callable, recipe: tuple,
              same_arguments: bool = True, **overrides) -> CompiledFunction:
    """A compiled function running ``body(*args, **kwargs)``, named ``label_fn``;
    ``same_arguments``: whether it takes ``fn``'s arguments; ``overrides``: options of its
    own."""
    named = _named(fn)
    name = f"{label}_{getattr(named, '__name__', 'fn')}"

    @functools.wraps(named)   # (its signature names the arguments in messages)
    def run(*args, **kwargs):
        return body(*args, **kwargs)
    run.__name__ = name
    # A compiled function's options hold for its transforms too; those naming arguments
    # cannot where the transform takes other arguments (jvp's primals and tangents).
    options = fn.options() if isinstance(fn, CompiledFunction) else {}
    if not same_arguments:
        named_options = [k for k in ("static_argnums", "static_argnames", "dynamic_dims")
                         if options.get(k)]
        if named_options:
            raise ValueError(f"{name}: the compiled function's {', '.join(named_options)} "
                             f"name its arguments, but {label} takes (primals, tangents); "
                             f"apply {label} to the function, and compile the result with "
                             f"those options")
        options = {k: v for k, v in options.items()
                   if k not in ("static_argnums", "static_argnames", "dynamic_dims")}
    cf = CompiledFunction(run, name=name, **{**options, **overrides})
    cf.recipe = (recipe[0], fn if isinstance(fn, CompiledFunction) and
                  fn.recipe[0] is not None else named) + tuple(recipe[1:])
    return cf


def _fn_name(fn: Callable) -> str:
    return getattr(_named(fn), "__name__", "fn")


def vmap(fn: Callable, in_axes: Any = 0, out_axes: Any = 0,
         axis_size: int | None = None) -> CompiledFunction:
    """``fn`` of one example, applied to a batch (JAX's ``jax.vmap``): each argument is mapped
    over its axis ``in_axes`` (an int, None for an argument shared by all examples, or a
    tuple/list/dict prefix of the arguments' structure), the results stacked along
    ``out_axes``. Every op runs on the whole batch at once (its batching rule), in one
    compiled function; an op without a rule raises ``NotImplementedError`` naming it."""
    name = _fn_name(fn)

    def body(*args, **kwargs):
        return vmap_call(fn, in_axes, out_axes, axis_size, args, kwargs, name)
    return _compiled(fn, "vmap", body, (vmap, in_axes, out_axes, axis_size))


def _jacobian_transform(fn: Callable, argnums, has_aux: bool, label: str, how: Callable,
                        maker: Callable) -> CompiledFunction:
    """The compiled function running ``how`` (a ``transforms.jacobians`` function);
    ``maker(fn, argnums, has_aux)`` makes it again after pickling."""
    name = f"{label} of {_fn_name(fn)}"

    def body(*args):
        return how(fn, args, argnums, has_aux, name)
    return _compiled(fn, label, body, (maker, argnums, has_aux))


def jacrev(fn: Callable, argnums: int | Sequence[int] = 0,
           has_aux: bool = False) -> CompiledFunction:
    """The Jacobian of ``fn`` by reverse mode (JAX's ``jax.jacrev``): one batched backward pass
    over the rows of the identity. For each output leaf, a block per input leaf of shape
    ``output.shape + input.shape``, structured like the arguments ``argnums``."""
    return _jacobian_transform(fn, argnums, has_aux, "jacrev", jacobians.jacrev_call, jacrev)


def jacfwd(fn: Callable, argnums: int | Sequence[int] = 0,
           has_aux: bool = False) -> CompiledFunction:
    """The Jacobian of ``fn`` by forward mode (JAX's ``jax.jacfwd``): one batched JVP over the
    columns of the identity; laid out as ``jacrev``'s."""
    return _jacobian_transform(fn, argnums, has_aux, "jacfwd", jacobians.jacfwd_call, jacfwd)


def jacobian(fn: Callable, argnums: int | Sequence[int] = 0,
             has_aux: bool = False) -> CompiledFunction:
    """The Jacobian of ``fn``: forward mode when its inputs are fewer than its outputs (a tall
    Jacobian), reverse mode otherwise."""
    return _jacobian_transform(fn, argnums, has_aux, "jacobian", jacobians.jacobian_call,
                               jacobian)


def hessian(fn: Callable, argnums: int | Sequence[int] = 0,
            has_aux: bool = False) -> CompiledFunction:
    """The Hessian of ``fn`` (forward over reverse: ``jacfwd(jacrev(fn))``), of shape
    ``input.shape + input.shape`` for a scalar function of one array."""
    return _jacobian_transform(fn, argnums, has_aux, "hessian", jacobians.hessian_call, hessian)


# ---------------------------------------------------------------- at a point

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_KEPT: dict = {}
_CACHE_LOCK = threading.Lock()


def _cached(fn: Callable, key: tuple, make: Callable[[], CompiledFunction]) -> CompiledFunction:
    """The compiled function ``make()`` for ``fn`` and ``key``, made once per function (kept
    while ``fn`` lives)."""
    with _CACHE_LOCK:
        table = _table(fn)
        found = table.get(key)
        if found is None:
            found = table[key] = make()
        return found


def _table(fn: Callable) -> dict:
    """What is kept for ``fn`` (while it lives; one that is not weakly referable, a builtin,
    lives as long as the process anyway)."""
    try:
        return _CACHE.setdefault(fn, {})
    except TypeError:
        return _KEPT.setdefault(fn, {})


def _on_tensors(*trees: Any) -> bool:
    """Whether the arguments are traced or require grad: run the body on them directly."""
    return any(isinstance(v, Tensor) and (v.is_traced or v.requires_grad)
               for t in trees for v in flatten(t)[0])


def jvp(fn: Callable, primals: Sequence, tangents: Sequence, has_aux: bool = False):
    """``(fn(*primals), J tangents)`` (JAX's ``jax.jvp``), structured like ``fn``'s output;
    with ``has_aux``, ``(out, tangent_out, aux)``. Compiled once per function."""
    name = f"jvp of {_fn_name(fn)}"
    if _on_tensors(primals, tangents):
        return jvp_call(fn, tuple(primals), tuple(tangents), has_aux, name)
    return _cached(fn, ("jvp", has_aux), lambda: _jvp_function(fn, has_aux))(
        tuple(primals), tuple(tangents))


def _jvp_function(fn: Callable, has_aux: bool) -> CompiledFunction:
    """``jvp`` as a function of ``(primals, tangents)`` (what a pickled one is made from)."""
    name = f"jvp of {_fn_name(fn)}"
    return _compiled(fn, "jvp", lambda p, t: jvp_call(fn, p, t, has_aux, name),
                     (_jvp_function, has_aux), same_arguments=False)


def vjp(fn: Callable, *primals: Any, has_aux: bool = False):
    """``(fn(*primals), vjp_fn)`` (JAX's ``jax.vjp``; ``(out, vjp_fn, aux)`` with has_aux):
    ``vjp_fn(cotangent)`` returns a tuple with one cotangent per primal. On arrays both are
    compiled: the forward call keeps the residuals its backward pass reads, and ``vjp_fn``
    computes the backward pass from them alone (``transforms.residuals``), at the primals of
    this call and by the function as it was traced for it, whatever happens to them
    afterwards."""
    name = f"vjp of {_fn_name(fn)}"
    if _on_tensors(primals):
        return vjp_call(fn, primals, has_aux, name)
    forward = _cached(fn, ("vjp forward", has_aux), lambda: _vjp_forward(fn, has_aux))
    value, kept, digest, *aux = forward(*primals)
    back = _vjp_backward(fn, has_aux, digest.tobytes(), forward, primals)

    def vjp_fn(cotangent):
        return back(kept, cotangent)
    return (value, vjp_fn, aux[0]) if has_aux else (value, vjp_fn)


def _vjp_forward(fn: Callable, has_aux: bool) -> CompiledFunction:
    """``vjp``'s forward program: ``(value, residuals, digest[, aux])`` of ``fn``'s arguments;
    each trace keeps the backward program's graph it made (``residuals.Pullback``) under the
    digest. Compiled per shape (``dynamic=False``): a shape-generic trace's graph would have
    symbolic sizes."""
    name = f"vjp of {_fn_name(fn)}"
    keep = functools.partial(_keep_pullback, fn, has_aux)
    return _compiled(fn, "vjp_forward",
                     lambda *primals: residuals.forward_call(fn, primals, has_aux, name, keep),
                     (_vjp_forward, has_aux), dynamic=False, dynamic_dims=None)


def _keep_pullback(fn: Callable, has_aux: bool, pullback: residuals.Pullback) -> None:
    with _CACHE_LOCK:
        _table(fn)[("vjp pullback", has_aux, pullback.digest)] = pullback


def _vjp_backward(fn: Callable, has_aux: bool, digest: bytes, forward: CompiledFunction,
                  primals: tuple) -> CompiledFunction:
    """``vjp``'s backward program for the forward trace named ``digest``: the primals'
    cotangents of ``(residuals, cotangent)``, by that trace's graph. A forward program loaded
    from an earlier process's warm-start record made no trace here: it is traced now, at the
    primals of its call (no code is compiled for it)."""
    name = f"vjp of {_fn_name(fn)}"
    key = ("vjp backward", has_aux, digest)
    with _CACHE_LOCK:
        found = _table(fn).get(key)
    if found is not None:
        return found
    if _pullback(fn, has_aux, digest) is None:
        forward.trace(*primals)
        if _pullback(fn, has_aux, digest) is None:
            raise RuntimeError(f"{name}: the function traced differently now than for its "
                               f"forward program (loaded from an earlier process's cache): "
                               f"does it read something that changed, which symgrad does "
                               f"not see?")

    def body(kept, cotangent):   # (it holds the digest: the walk of its state reads that)
        return residuals.backward_call(_pullback(fn, has_aux, digest), kept, cotangent, name)
    return _cached(fn, key, lambda: _compiled(fn, "vjp", body, (None,), same_arguments=False))


def _pullback(fn: Callable, has_aux: bool, digest: bytes) -> residuals.Pullback | None:
    with _CACHE_LOCK:
        return _table(fn).get(("vjp pullback", has_aux, digest))


def hvp(fn: Callable, primals: Sequence, tangents: Sequence):
    """``(fn(*primals), H tangents)``, the Hessian of scalar ``fn`` times ``tangents``
    (forward over reverse), structured like the primals (one primal: like it, not a
    1-tuple)."""
    name = f"hvp of {_fn_name(fn)}"
    if _on_tensors(primals, tangents):
        value, ht = jacobians.hvp_call(fn, tuple(primals), tuple(tangents), name)
    else:
        value, ht = _cached(fn, ("hvp",), lambda: _hvp_function(fn))(tuple(primals),
                                                                      tuple(tangents))
    return value, (ht[0] if len(primals) == 1 else ht)


def _hvp_function(fn: Callable) -> CompiledFunction:
    name = f"hvp of {_fn_name(fn)}"
    return _compiled(fn, "hvp", lambda p, t: jacobians.hvp_call(fn, p, t, name),
                     (_hvp_function,), same_arguments=False)
