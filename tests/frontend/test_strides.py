"""torch's strides as symgrad models them (``frontend/core/layout.py``): ``stride()``,
``storage_offset()``, ``is_contiguous()``, which reshapes are views (``view`` raises where
torch's does; ``reshape`` then copies), ``contiguous()``, ``clone()``, ``as_strided``,
``expand``'s stride-0 dims, the layout of elementwise results, and the same metadata inside a
compiled function's trace.

Each case is an expression evaluated with ``torch`` bound to symgrad; what it observes (the
strides, contiguity, offset and values of the tensors it returns, or the exception class) is
compared with what torch 2.13 gave for the same expression: live when torch is installed,
else with the stored ``strides_torch.json`` (``python tests/frontend/test_strides.py --store``
writes it by running the table under torch).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

CASES = [
    # fresh tensors, 0-d and empty ones
    "torch.arange(24.).reshape(2, 3, 4)",
    "torch.tensor(1.)",
    "torch.zeros(0, 3)",
    "torch.zeros(2, 0)",
    "torch.ones(2, 1, 3)",
    # transposes and permutations
    "torch.arange(6.).reshape(2, 3).T",
    "torch.arange(6.).reshape(2, 3).t()",
    "torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)",
    "torch.arange(24.).reshape(2, 3, 4).transpose(1, 2)",
    "torch.arange(24.).reshape(2, 3, 4).mT",
    "torch.arange(24.).reshape(2, 3, 4).movedim(0, -1)",
    "torch.arange(24.).reshape(2, 3, 4).swapaxes(0, 2)",
    # expand: stride 0
    "torch.ones(3, 1).expand(3, 4)",
    "torch.ones(4).expand(2, 3, 4)",
    "torch.ones(3, 1).expand(3, 4).view(3, 2, 2)",
    "torch.ones(3, 1).expand(3, 4).view(12)",
    # slices, steps, select, narrow
    "torch.arange(6.).reshape(2, 3)[:, 1:]",
    "torch.arange(6.).reshape(2, 3)[1:]",
    "torch.arange(6.).reshape(2, 3)[:, ::2]",
    "torch.arange(24.).reshape(2, 3, 4)[:, ::2, 1::2]",
    "torch.arange(24.).reshape(2, 3, 4)[1]",
    "torch.arange(24.).reshape(2, 3, 4)[:, 1]",
    "torch.arange(24.).reshape(2, 3, 4)[:, :, 2]",
    "torch.arange(24.).reshape(2, 3, 4).narrow(2, 1, 2)",
    "torch.arange(24.).reshape(2, 3, 4).narrow(0, 1, 1)",
    "torch.arange(6.).reshape(2, 3).unbind(1)",
    "torch.arange(24.).reshape(2, 3, 4).chunk(2, 2)",
    # unsqueeze / squeeze
    "torch.arange(6.).reshape(2, 3).unsqueeze(1)",
    "torch.arange(6.).reshape(2, 3).T.unsqueeze(0)",
    "torch.arange(6.).reshape(2, 3).unsqueeze(-1)",
    "torch.ones(2, 1, 3).squeeze(1)",
    "torch.ones(2, 1, 3).permute(2, 1, 0).squeeze()",
    # view: where torch's strides allow it, else its error
    "torch.arange(24.).reshape(2, 3, 4).view(6, 4)",
    "torch.arange(24.).reshape(2, 3, 4).view(-1)",
    "torch.arange(6.).reshape(2, 3).T.view(6)",
    "torch.arange(24.).reshape(2, 3, 4).permute(1, 0, 2).view(3, 2, 2, 2)",
    "torch.arange(24.).reshape(2, 3, 4).permute(1, 0, 2).view(6, 4)",
    "torch.arange(6.).reshape(2, 3)[:, 1:].view(4)",
    "torch.arange(24.).reshape(2, 3, 4)[1:].view(12, 1)",
    "torch.arange(24.).reshape(2, 3, 4)[:, 1:].view(2, 8)",
    "torch.arange(6.).reshape(2, 3).T.view_as(torch.ones(6))",
    "torch.tensor(1.).view(1)",
    # reshape: a view where possible, else a copy (and then x is not changed through it)
    "torch.arange(6.).reshape(2, 3).T.reshape(6)",
    "torch.arange(24.).reshape(2, 3, 4).permute(0, 2, 1).reshape(2, 12)",
    "torch.arange(6.).reshape(2, 3).T.flatten()",
    "torch.arange(24.).reshape(2, 3, 4).flatten(1)",
    "torch.arange(24.).reshape(2, 3, 4).permute(0, 2, 1).flatten(0, 1)",
    "(lambda a: (a.T.reshape(6).mul_(0), a)[1])(torch.arange(6.).reshape(2, 3))",
    "(lambda a: (a.view(6).mul_(0), a)[1])(torch.arange(6.).reshape(2, 3))",
    # contiguous, clone and the memory formats
    "torch.arange(6.).reshape(2, 3).T.contiguous()",
    "torch.ones(3, 1).expand(3, 4).contiguous()",
    "torch.arange(6.).reshape(2, 3).T.clone()",
    "torch.ones(3, 1).expand(3, 4).clone()",
    "torch.arange(6.).reshape(2, 3)[:, ::2].clone()",
    "torch.arange(6.).reshape(2, 3).T.clone(memory_format=torch.contiguous_format)",
    "torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)",
    "torch.arange(6.).reshape(2, 3).T.detach()",
    # elementwise results keep their operands' layout (TensorIterator's rule)
    "torch.arange(6.).reshape(2, 3).T + 1",
    "torch.arange(6.).reshape(2, 3).T.exp()",
    "torch.arange(6.).reshape(2, 3).T + torch.arange(6.).reshape(2, 3).T.contiguous()",
    "torch.arange(6.).reshape(2, 3).T.contiguous() + torch.arange(6.).reshape(2, 3).T",
    "torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1) * 2",
    "torch.arange(6.).reshape(2, 3).T + torch.ones(2)",
    "torch.ones(3, 1) + torch.arange(6.).reshape(2, 3).T",
    "torch.ones(3, 1).expand(3, 4) + 1",
    "torch.arange(6.).reshape(2, 3)[:, 1:] + 1",
    "torch.arange(24.).reshape(2, 3, 4)[:, ::2] * 2",
    "torch.where(torch.arange(6.).reshape(2, 3).T > 2, torch.arange(6.).reshape(2, 3).T, 0.)",
    "torch.arange(6.).reshape(2, 3).T.double()",
    "torch.zeros_like(torch.arange(6.).reshape(2, 3).T)",
    "torch.rand_like(torch.arange(6.).reshape(2, 3).T)",
    # other ops give row-major results
    "torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).sum(0)",
    "torch.arange(6.).reshape(2, 3).T.cumsum(0)",
    "torch.arange(6.).reshape(2, 3).T @ torch.ones(2, 2)",
    "torch.cat([torch.arange(6.).reshape(2, 3).T] * 2)",
    "torch.ones(3, 3).diagonal()",
    # as_strided
    "torch.arange(9.).as_strided((2, 2), (3, 1), 1)",
    "torch.arange(9.).as_strided((2, 2), (1, 3))",
    "torch.arange(6.).reshape(2, 3).T.as_strided((3,), (2,))",
    "torch.arange(4.).as_strided((3, 3), (1, 1), 2)",
]


def observe(torch, expr: str):
    """What ``expr`` shows of its tensors' layout and values, or the exception it raises."""
    torch.manual_seed(0)
    try:
        got = eval(expr, {"torch": torch})
    except Exception as e:   # noqa: BLE001  (the class is what is compared)
        return ("raises", "RuntimeError" if isinstance(e, RuntimeError) else type(e).__name__)
    items = got if isinstance(got, tuple) else (got,)
    return [(tuple(t.shape), t.stride(), t.is_contiguous(), t.storage_offset(),
             np.round(t.detach().numpy().astype(np.float64), 6).tolist()) for t in items]


def _same(got, want) -> None:
    if want and want[0] == "raises" or got and got[0] == "raises":
        assert tuple(got) == tuple(want), f"symgrad {got}, torch {want}"
        return
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert tuple(g[0]) == tuple(w[0]) and tuple(g[1]) == tuple(w[1]) and \
            g[2] == w[2] and g[3] == w[3], f"symgrad {g[:4]}, torch {w[:4]}"
        assert np.allclose(np.asarray(g[4], float), np.asarray(w[4], float)), (g[4], w[4])


@pytest.mark.parametrize("expr", CASES)
def test_layout_matches_torch(expr):
    try:
        import torch
    except ImportError:
        torch = None
    want = observe(torch, expr) if torch is not None else EXPECTED[expr]
    _same(observe(sg, expr), want)


def test_stored_expectations_cover_every_case():
    assert set(EXPECTED) == set(CASES) and len(CASES) >= 50


def test_stride_of_one_dim_and_its_errors():
    x = sg.arange(24.).reshape(2, 3, 4)
    assert (x.stride(0), x.stride(-1), x.T.stride(0) if False else x.mT.stride(-1)) == (12, 1, 4)
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.stride(3)


def test_traced_tensors_have_the_same_layout():
    """Inside a compiled function the layout is the same metadata: a program branching on
    it takes the same path in its trace as eagerly."""
    def f(a):
        t = a.T
        return (t * 2).reshape(-1) if t.is_contiguous() else t.contiguous().view(-1) + 1
    a = sg.arange(6.).reshape(2, 3)
    eager = f(a)
    compiled = sg.compile(f)(a)
    np.testing.assert_array_equal(np.asarray(compiled), eager.numpy())
    np.testing.assert_array_equal(eager.numpy(), a.numpy().T.reshape(-1) + 1)


def test_reshape_of_a_transpose_copies_and_keeps_the_gradient():
    a = sg.arange(6.).reshape(2, 3).requires_grad_()
    r = a.T.reshape(6)
    assert type(r.grad_fn).__name__ == "UnsafeViewBackward0"
    assert type(r.grad_fn.next_functions[0][0]).__name__ == "CloneBackward0"
    (r * sg.arange(6.)).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.arange(6.).reshape(3, 2).T)


STORED = Path(__file__).with_name("strides_torch.json")
EXPECTED = json.loads(STORED.read_text()) if STORED.exists() else {}

if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    import torch
    STORED.write_text(json.dumps({e: observe(torch, e) for e in CASES}, indent=0) + "\n")
