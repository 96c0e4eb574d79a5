"""Every op's samples: the family tables, and the Tensor methods, in-place forms and
operators derived from them.

Input: the families' ``table()`` (``samples_*`` modules). Output: ``samples()``, op ->
its list of ``spec.Sample`` (deterministic, patterns unique), and ``SOURCES`` (which torch
function a derived method takes its samples from). A method ``Tensor.m`` takes the samples of
``torch.m`` whose first argument is a tensor; ``Tensor.m_`` those without ``out=`` plus one
on a leaf that requires grad (torch's error); ``__add__ __radd__ __iadd__``... those of
``torch.add`` and so on. torch's top-level in-place ``torch.m_`` takes ``Tensor.m_``'s samples
called as functions; a top-level alias of a functional with the same signature
(``torch.conv2d``: ``TOP_LEVEL_ALIASES``) takes ``F.m``'s.
"""

from __future__ import annotations

import functools

from . import (samples_creation, samples_index, samples_linalg, samples_linalg_more,
               samples_methods, samples_names, samples_nn, samples_nn_extra, samples_nn_losses,
               samples_pointwise, samples_reduce, samples_shape, samples_spectral, samples_views)
from .spec import Sample, T

FAMILIES = (samples_pointwise, samples_reduce, samples_shape, samples_index, samples_linalg,
            samples_creation, samples_nn, samples_nn_losses, samples_methods, samples_nn_extra,
            samples_spectral, samples_views,
            samples_linalg_more, samples_names)

OPERATORS = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div",
             "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "matmul": "matmul",
             "and": "__and__", "or": "__or__", "xor": "__xor__", "eq": "eq", "ne": "ne",
             "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "neg": "neg", "abs": "abs",
             "pos": "positive", "invert": "__invert__", "lshift": "__lshift__",
             "rshift": "__rshift__"}


def source_of(method: str, ops: dict) -> str | None:
    """The op whose samples ``Tensor.<method>`` takes, if any."""
    if method.startswith("__") and method.endswith("__"):
        core = method[2:-2]
        for prefix in ("i", "r", ""):
            if core.startswith(prefix) and core[len(prefix):] in OPERATORS:
                base = OPERATORS[core[len(prefix):]]
                op = f"Tensor.{base}" if base.startswith("__") else f"torch.{base}"
                return op if op in ops else None
        return None
    base = method[:-1] if method.endswith("_") else method
    for candidate in (f"torch.{base}", f"Tensor.{base}", f"special.{base}", f"F.{base}"):
        if candidate in ops:
            return candidate
    return None


def as_method(sample: Sample, name: str, inplace: bool) -> Sample | None:
    if not sample.args or not isinstance(sample.args[0], T) or "input" in sample.kwargs:
        return None
    if "out" in sample.kwargs:
        return None   # torch's methods take no out=
    return Sample("Tensor", name, sample.args, dict(sample.kwargs), sample.tag)


# torch's top-level spellings of functionals with the functional's own signature
TOP_LEVEL_ALIASES = ("conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d "
                     "pdist cosine_similarity pairwise_distance prelu selu_ celu_ threshold_ "
                     "rrelu_ relu_ hardshrink bilinear pixel_shuffle pixel_unshuffle "
                     "channel_shuffle avg_pool1d adaptive_avg_pool1d rms_norm").split()


def top_level(op: str, ops: dict) -> list | None:
    """The samples of ``torch.<name>`` derived from a functional or a method, if any."""
    name = op.split(".", 1)[1]
    if name in TOP_LEVEL_ALIASES and f"F.{name}" in ops:
        return [Sample("torch", name, s.args, dict(s.kwargs), s.tag) for s in ops[f"F.{name}"]()]
    if not name.endswith("_") or name.startswith("_"):
        return None
    if f"Tensor.{name}" in ops:    # the method's own samples (fill_, zero_...)
        return [Sample("torch", name, s.args, dict(s.kwargs), s.tag)
                for s in ops[f"Tensor.{name}"]()]
    src = source_of(name, ops)
    if src is None:
        return None
    return [Sample("torch", name, s.args, dict(s.kwargs), s.tag) for s in derive(name, ops[src]())]


def derive(method: str, base: list) -> list:
    inplace = method.endswith("_") and not method.startswith("__") or method.startswith("__i")
    out = [m for m in (as_method(s, method, inplace) for s in base) if m is not None]
    if inplace:
        leaf = next((s for s in out if s.args[0].requires_grad), None)
        if leaf is not None:
            out.append(Sample("Tensor", method, leaf.args, dict(leaf.kwargs), "leaf"))
    return out


@functools.cache
def explicit() -> dict:
    ops = {}
    for family in FAMILIES:
        for op, make in family.table().items():
            ops[op] = make
    return ops


def samples(names: tuple) -> dict:
    """op -> samples, for each name of ``names`` that has samples (explicit or derived)."""
    ops = explicit()
    out = {}
    for op in names:
        if op in ops:
            found = ops[op]()
        elif op.startswith("Tensor."):
            method = op.split(".", 1)[1]
            src = source_of(method, ops)
            if src is None:
                continue
            found = derive(method, ops[src]())
        elif op.startswith("torch.") and top_level(op, ops) is not None:
            found = top_level(op, ops)
        else:
            continue
        out[op] = unique(found)
    return out


def unique(found: list) -> list:
    seen, out = set(), []
    for s in found:
        if s.pattern not in seen:
            seen.add(s.pattern)
            out.append(s)
    return out
