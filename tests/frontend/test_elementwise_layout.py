"""Layouts torch gives, checked by hand and against torch (random operand layouts) when it
is installed: an elementwise result whose operands include one broadcast from a single value
(every stride 0: a mean's or a sum's gradient, an expanded scalar), which never orders the
dims, so the result is laid out as the other operands say (``layout.elementwise_strides``'
shortcut for results without a size-1 dim); and a leaf's first ``.grad``, laid out like the
leaf where the leaf is dense (``engine.grad_layout``)."""

from __future__ import annotations

import random

import pytest

import symgrad as sg


def test_a_broadcast_value_leaves_the_others_layout():
    scalar = sg.ones(()).expand(4, 3)
    assert (sg.ones(4, 3) + scalar).stride() == (3, 1)           # row-major stays so
    assert (scalar * sg.ones(4, 3)).stride() == (3, 1)
    t = sg.ones(3, 4).t()                                         # (4, 3), strides (1, 4)
    assert (t + scalar).stride() == (1, 4)                        # follows the transpose
    assert (scalar + t).stride() == (1, 4)
    assert (scalar + scalar).stride() == (3, 1)                   # nothing orders: row-major


def _grad_strides(lib) -> list:
    """A leaf's first .grad's strides, for leaves of several layouts."""
    leaves = [lib.ones(3, 5),                                  # row-major
              lib.ones(5, 3).t(),                              # transposed: dense
              lib.ones(6, 4)[:, ::2],                          # sliced: not dense
              lib.ones(1, 4).expand(3, 4),                     # expanded: overlapping
              lib.ones(2, 3, 4).permute(2, 0, 1)]              # permuted: dense
    out = []
    for leaf in leaves:
        x = leaf.detach().requires_grad_()
        (x * 2.0).mean().backward()      # (the cotangent: a broadcast value, row-major)
        out.append(tuple(x.grad.stride()))
    return out


def test_a_leaf_s_first_gradient_is_laid_out_like_the_leaf_where_it_is_dense():
    """torch's layout contract for .grad (AccumulateGrad): the leaf's strides where its
    elements are dense and do not overlap, else row-major."""
    assert _grad_strides(sg) == [(5, 1), (1, 3), (2, 1), (4, 1), (1, 12, 4)]


def test_gradient_layouts_match_torch():
    torch = pytest.importorskip("torch")
    assert _grad_strides(sg) == _grad_strides(torch)


def _build(lib, spec):
    kind, shape, extra = spec
    if kind == "plain":
        return lib.ones(*shape)
    if kind == "perm":
        inv = [extra.index(i) for i in range(len(shape))]
        return lib.ones(*[shape[p] for p in extra]).permute(*inv)
    if kind == "expand":
        return lib.ones(*extra).expand(*shape)
    if kind == "scalar":
        return lib.ones(()).expand(*shape)
    return lib.ones(*[s * 2 for s in shape])[tuple(slice(None, None, 2) for _ in shape)]


def _spec(rng, shape):
    kind = rng.choice(["plain", "perm", "expand", "scalar", "slice"])
    if kind == "perm":
        p = list(range(len(shape)))
        rng.shuffle(p)
        return kind, shape, p
    if kind == "expand":
        return kind, shape, [1 if rng.random() < 0.5 else s for s in shape]
    return kind, shape, None


def test_elementwise_layouts_match_torch():
    torch = pytest.importorskip("torch")
    rng = random.Random(1)
    checked = 0
    for _ in range(1500):
        n = rng.choice([2, 3, 4])
        shape = tuple(rng.choice([2, 3]) for _ in range(n))
        specs = [_spec(rng, tuple(s if rng.random() < 0.7 else 1 for s in
                                  shape[n - rng.choice(range(1, n + 1)):]))
                 for _ in range(rng.choice([1, 2, 3]))]
        ts, ss = [_build(torch, s) for s in specs], [_build(sg, s) for s in specs]
        rt, rs = ts[0], ss[0]
        for a, b in zip(ts[1:], ss[1:]):
            rt, rs = rt + a, rs + b
        rt, rs = rt * 2.0, rs * 2.0
        if 1 in rt.shape:
            continue    # (size-1 dims: see the module docstring)
        assert tuple(rs.stride()) == rt.stride(), specs
        checked += 1
    assert checked > 500
