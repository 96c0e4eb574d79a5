"""The backward nodes torch shows for composites (``frontend/functions/torch_nodes.py``) beyond
what the op sweep records (the class name of each result's grad_fn): one node shared by the
outputs of split, unbind, slogdet and eigh, and its edges; a diagonal that stays a view of its
input (writing into it writes into the input, gradient included); sort's rule, differentiated
twice; the median of all elements sharing its gradient among ties; the names of basic
indexing. Each case runs on symgrad and, when it is installed, on torch; the expected lines
were printed by torch 2.13 (``EXPECTED``), so the test means the same without torch."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad

EXPECTED = {
    "split": "SplitBackward0 True ['AccumulateGrad']",
    "split grad": "[[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [1.2857142857142856, "
                  "1.5714285714285716, 1.8571428571428572, 2.142857142857143]]",
    "unbind": "UnbindBackward0 True ['AccumulateGrad']",
    "unbind grad": "[[0.0, 3.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0]]",
    "slogdet": "LinalgSlogdetBackward0 True",
    "eigh": "LinalgEighBackward0 True",
    "eigh grad": "[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]",
    "diagonal write": "CopySlices [[-5.0, -0.357142857143, -0.214285714286, -0.071428571429], "
                      "[0.071428571429, 2.142857142857, 0.357142857143, 0.5], [0.642857142857, "
                      "0.785714285714, 9.285714285714, 1.071428571429]]",
    "diagonal write grad": "[[10.0, 1.0, 1.0, 1.0], [1.0, 10.0, 1.0, 1.0], [1.0, 1.0, 10.0, 1.0]]",
    "sort grad": "[1.8000000715255737, -9.600000381469727, 5.0, 2.799999952316284] "
                 "ScatterBackward0",
    "sort second": "[6.0, 8.0, 2.0, 4.0]",
    "median": "[0.0, 0.3333333432674408, 0.3333333432674408, 0.3333333432674408, 0.0]",
    "index": "['SelectBackward0', 'SliceBackward0', 'AliasBackward0', 'AliasBackward0', "
             "'SelectBackward0', 'AliasBackward0', 'SliceBackward0', 'SliceBackward0']",
}


def _name(t) -> str | None:
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def _edges(t) -> list:
    return [type(f).__name__ for f, _ in t.grad_fn.next_functions]


def _base(lib):
    return lib.tensor(np.arange(12.0).reshape(3, 4) / 7 - 0.5, requires_grad=True)


def _pieces(lib) -> dict:
    out = {}
    x = _base(lib)
    a, b = lib.split(x, 2)
    out["split"] = f"{_name(a)} {a.grad_fn is b.grad_fn} {_edges(a)}"
    (a.sum() * 2 + (b * b).sum()).backward()     # one cotangent per piece, into one node
    out["split grad"] = str(x.grad.tolist())
    x.grad = None
    us = lib.unbind(x, 1)
    out["unbind"] = f"{_name(us[0])} {us[0].grad_fn is us[3].grad_fn} {_edges(us[0])}"
    (us[1] * 3).sum().backward()                 # the other pieces get zeros
    out["unbind grad"] = str(x.grad.tolist())
    return out


def _decompositions(lib) -> dict:
    x = _base(lib).detach()[:, :3]
    s = (x @ x.T + lib.eye(3, dtype=x.dtype)).requires_grad_(True)
    sign, logabs = lib.linalg.slogdet(s)
    vals, vecs = lib.linalg.eigh(s)
    out = {"slogdet": f"{_name(sign)} {sign.grad_fn is logabs.grad_fn}",
           "eigh": f"{_name(vals)} {vals.grad_fn is vecs.grad_fn}"}
    vals.sum().backward()                        # d trace / dA: the identity
    # V V^T: its off-diagonal entries are rounding noise (1e-17) that rounds to a zero whose
    # sign follows LAPACK's eigenvectors, CPU-dependent in torch's MKL (-0.0 on an AMD EPYC,
    # 0.0 on the CPU EXPECTED was printed on): adding 0.0 makes -0.0 0.0, nothing else.
    out["eigh grad"] = str((np.round(s.grad.numpy(), 12) + 0.0).tolist())
    return out


def _diagonal_view(lib) -> dict:
    x = _base(lib)
    y = x * 1
    y.diagonal().mul_(10)                        # a view: y changes, and so does its history
    out = {"diagonal write": f"{_name(y)} {np.round(y.detach().numpy(), 12).tolist()}"}
    y.sum().backward()
    out["diagonal write grad"] = str(x.grad.tolist())
    return out


def _selections(lib) -> dict:
    v = lib.tensor([0.3, -1.2, 2.5, 0.7], requires_grad=True)
    top = lib.sort(v, descending=True).values
    w = lib.tensor([1.0, 2.0, 3.0, 4.0])
    (g,) = lib.autograd.grad((top * top * w).sum(), v, create_graph=True)
    (h,) = lib.autograd.grad(g.sum(), v)
    m = lib.tensor([1.0, 2.0, 2.0, 2.0, 5.0], requires_grad=True)
    lib.median(m).backward()
    z = lib.zeros(2, 3, 4, requires_grad=True)
    index = [(0,), (0, slice(1, None)), (slice(None),), Ellipsis, (None, 0), (slice(0, 2),),
             slice(None), (slice(-2, None),)]
    return {"sort grad": f"{g.tolist()} {_name(g)}", "sort second": str(h.tolist()),
            "median": str(m.grad.tolist()), "index": str([_name(z[i]) for i in index])}


CASES = [_pieces, _decompositions, _diagonal_view, _selections]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__.strip("_"))
def test_against_torch_printed(case):
    for key, line in case(symgrad).items():
        assert line == EXPECTED[key], key


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__.strip("_"))
def test_against_torch_live(case):
    torch = pytest.importorskip("torch")
    assert case(symgrad) == case(torch)


def test_gradients_against_central_differences():
    """The shared nodes' rules (split's concatenation, sort's scatter, eigh's re-run body)
    against central differences of a float64 loss (an independent oracle)."""
    rng = np.random.default_rng(0)
    base = rng.standard_normal((3, 3))

    def loss(a):
        t = symgrad.tensor(a, requires_grad=True)
        p, q = symgrad.split(t, [1, 2])
        top = symgrad.sort(q.reshape(-1)).values
        vals, _ = symgrad.linalg.eigh(t @ t.T)
        return (p.sin().sum() + (top * symgrad.arange(6.0)).sum() + vals[-1]), t

    value, t = loss(base)
    value.backward()
    numeric = np.zeros_like(base)
    for i in np.ndindex(base.shape):
        step = np.zeros_like(base)
        step[i] = 1e-6
        numeric[i] = (loss(base + step)[0].item() - loss(base - step)[0].item()) / 2e-6
    np.testing.assert_allclose(t.grad.numpy(), numeric, rtol=1e-5, atol=1e-6)
