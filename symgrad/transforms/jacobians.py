"""Jacobians and Hessians on tensors: ``vmap`` of a VJP or a JVP over a basis.

Layer: transforms. Input: a Python function, its arguments, ``argnums`` (which arguments,
each a pytree, to differentiate) and ``has_aux``. Output: the Jacobian as JAX structures it:
for each output leaf, the arguments' structure (a tuple over ``argnums`` when it is a tuple),
each block of shape ``output.shape + input.shape``.

``jacrev`` runs the function once and maps its VJP over the rows of the identity (one batched
backward pass, m rows at once); ``jacfwd`` maps the JVP over the columns (n at once);
``jacobian`` picks forward mode when there are fewer inputs than outputs; ``hessian`` is
forward over reverse. The basis is built from two index vectors compared, so a large identity
is never a constant in the C.
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import dtypes
from ..frontend.core import grad_mode, sources
from ..frontend.core.apply import apply, full
from ..frontend.core.tensor import Tensor
from ..pytree import count, flatten, unflatten
from .forward import jvp_call, leaves_of, vjp_call
from .vmap import vmap_call


def _nums(argnums) -> tuple:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _identity(n: int, dtype) -> Tensor:
    """The n x n identity, as ``arange(n)[:, None] == arange(n)``: when traced, a graph
    value (no n*n constant in the C; fused into the loops that read it)."""
    if n == 1:      # a scalar output's gradient: a broadcast 1, which the passes fold
        return full(graph_constant(np.zeros((1, 1))), 1.0, dtype=dtype)
    idx = graph_constant(np.arange(n, dtype=np.int64))
    rows = apply("reshape", idx, shape_to=(n, 1))
    cols = apply("reshape", idx, shape_to=(1, n))
    return apply("cast", apply("eq", rows, cols), dtype=dtype)


def graph_constant(value: np.ndarray) -> Tensor:
    """``value`` as a tensor: a graph constant when tracing, so that the ops on it are graph
    too (computed by the C, not folded into an array at trace time)."""
    t = Tensor(value, None)
    return Tensor(None, t.node) if sources.current() is not None else t


def chunks(flat: Tensor, shapes: list, axis: int) -> list:
    """``flat`` cut along ``axis`` into consecutive pieces of ``prod(shape)`` each, each piece's
    ``axis`` reshaped to ``shape``."""
    out, start = [], 0
    for shape in shapes:
        n = math.prod(shape)
        starts = tuple(start if d == axis else 0 for d in range(flat.ndim))
        stops = tuple(start + n if d == axis else s for d, s in enumerate(flat.shape))
        piece = flat if n == flat.shape[axis] else \
            apply("slice", flat, starts=starts, stops=stops, steps=(1,) * flat.ndim)
        shape_to = tuple(flat.shape[:axis]) + tuple(shape) + tuple(flat.shape[axis + 1:])
        out.append(piece if shape_to == tuple(piece.shape) else
                   apply("reshape", piece, shape_to=shape_to))
        start += n
    return out


def _common_dtype(ts: list):
    floats = [t.dtype for t in ts if t.dtype.is_floating]
    return dtypes.float64 if dtypes.float64 in floats else (floats[0] if floats
                                                            else dtypes.DEFAULT_FLOAT)


def with_args(fn: Callable, args: tuple, nums: tuple) -> Callable:
    """``fn`` as a function of the arguments ``nums`` only (the others fixed)."""
    def part(*chosen):
        full_args = list(args)
        for i, v in zip(nums, chosen):
            full_args[i] = v
        return fn(*full_args)
    return part


def _check_nums(nums: tuple, args: tuple, name: str) -> None:
    for i in nums:
        if not -len(args) <= i < len(args):
            raise TypeError(f"{name}: argnums={i} but only {len(args)} positional arguments "
                            f"were passed")


def _structured(blocks: list, o_tree, arg_trees: list, single: bool) -> Any:
    """Blocks [output leaf][input leaf] into JAX's structure."""
    per_output = [regroup(row, arg_trees) for row in blocks]
    return unflatten(o_tree, [parts[0] if single else parts for parts in per_output])


def jacrev_call(fn: Callable, args: tuple, argnums, has_aux: bool, name: str):
    nums = _nums(argnums)
    _check_nums(nums, args, name)
    chosen = tuple(args[i] for i in nums)
    trees = [flatten(c)[1] for c in chosen]
    with grad_mode.enable_grad():
        res = vjp_call(with_args(fn, args, nums), chosen, has_aux, name)
    out, vjp_fn = res[0], res[1]
    o_leaves, o_tree = leaves_of(out)
    x_leaves = [t for c in chosen for t in leaves_of(c)[0]]
    m = sum(o.numel() for o in o_leaves)
    basis = _identity(m, _common_dtype(o_leaves))

    def rows(e):
        cts = chunks(e, [tuple(o.shape) for o in o_leaves], 0)
        cts = [apply("cast", c, dtype=o.dtype) if c.dtype is not o.dtype else c
               for c, o in zip(cts, o_leaves)]
        return [t for g in vjp_fn(unflatten(o_tree, cts)) for t in flatten(g)[0]]
    if m == 1:     # one output element: its gradient, no batch of one to map over
        stacked = [apply("reshape", g, shape_to=(1,) + tuple(g.shape)) for g in rows(
            apply("reshape", basis, shape_to=(1,)))]
    else:
        stacked = vmap_call(rows, 0, 0, None, (basis,), {}, name)   # per input: (m, *x)
    per_input = [chunks(s, [tuple(o.shape) for o in o_leaves], 0) for s in stacked]
    blocks = [[per_input[i][j] for i in range(len(x_leaves))] for j in range(len(o_leaves))]
    jac = _structured(blocks, o_tree, trees, isinstance(argnums, int))
    return (jac, res[2]) if has_aux else jac


def jacfwd_call(fn: Callable, args: tuple, argnums, has_aux: bool, name: str):
    nums = _nums(argnums)
    _check_nums(nums, args, name)
    chosen = tuple(args[i] for i in nums)
    trees = [flatten(c)[1] for c in chosen]
    x_leaves = [t for c in chosen for t in leaves_of(c)[0]]
    shapes = [tuple(x.shape) for x in x_leaves]
    n = sum(x.numel() for x in x_leaves)
    basis = _identity(n, _common_dtype(x_leaves))
    part = with_args(fn, args, nums)

    def column(e):
        us = chunks(e, shapes, 0)
        tangents = regroup(us, trees)
        res = jvp_call(part, chosen, tangents, has_aux, name)
        if has_aux:
            return res[1], res[2]
        return res[1]
    out_axes = (0, None) if has_aux else 0
    mapped = vmap_call(column, 0, out_axes, None, (basis,), {}, name)
    tangents, aux = (mapped if has_aux else (mapped, None))
    t_leaves, o_tree = flatten(tangents)
    blocks = []
    for t in t_leaves:                      # (n, *o) -> (*o, n) -> per input leaf (*o, *x)
        moved = apply("permute", t, perm=tuple(range(1, t.ndim)) + (0,))
        blocks.append(chunks(moved, shapes, moved.ndim - 1))
    jac = _structured(blocks, o_tree, trees, isinstance(argnums, int))
    return (jac, aux) if has_aux else jac


def regroup(leaves: list, trees: list) -> tuple:
    """``leaves`` cut into consecutive runs, one per tree, each put into its tree."""
    out, k = [], 0
    for tree in trees:
        n = count(tree)
        out.append(unflatten(tree, leaves[k:k + n]))
        k += n
    return tuple(out)


def jacobian_call(fn: Callable, args: tuple, argnums, has_aux: bool, name: str):
    """Forward mode when the inputs are fewer than the outputs, else reverse mode."""
    nums = _nums(argnums)
    _check_nums(nums, args, name)
    n = sum(t.numel() for i in nums for t in leaves_of(args[i])[0])
    with grad_mode.no_grad():
        out = fn(*args)
    out = out[0] if has_aux else out
    m = sum(t.numel() for t in leaves_of(out)[0])
    how = jacfwd_call if n < m else jacrev_call
    return how(fn, args, argnums, has_aux, name)


def hessian_call(fn: Callable, args: tuple, argnums, has_aux: bool, name: str):
    def gradient(*a):
        return jacrev_call(fn, a, argnums, has_aux, name)
    return jacfwd_call(gradient, args, argnums, has_aux, name)


def hvp_call(fn: Callable, primals: tuple, tangents: tuple, name: str):
    """``(fn(*primals), H tangents)``: forward over reverse (the JVP of the gradient); the
    product is a tuple structured like the primals."""
    def gradient_and_value(*xs):
        value, vjp_fn = vjp_call(fn, xs, False, name)
        if not (isinstance(value, Tensor) and value.numel() == 1):
            raise TypeError(f"{name}: hvp needs a function with a scalar output, got "
                            f"{type(value).__name__} of shape {getattr(value, 'shape', ())}")
        grads = vjp_fn(full(value, 1.0))
        return grads, value
    _, ht, value = jvp_call(gradient_and_value, primals, tangents, True, name)
    return value, ht
