"""Behaviours torch programs print or rely on, each compared with torch 2.13: the order of
``next_functions`` for reflected operators and Scalar overloads, ``_saved_*`` attributes,
integer matrix products, formatting a 0-d tensor, ``arange``'s float values bit for bit,
torch's exception classes (broadcasting, index_put dtypes), a second backward through a graph
that saved nothing, ``clamp`` with min > max, in-place comparisons' gradients, ``median`` of
NaN, negative ``tensor_split`` indices, ``quantile``'s gradient to ``q``, ``unique`` and
``vector_norm(x, 0)`` requiring grad, bool/int dtypes, ``gradgradcheck``'s random draws.

Each case is a snippet run with ``torch`` bound to symgrad that leaves its result in ``out``;
what it observes (values, dtypes, shapes, grad_fn names, or the exception class) is compared
with torch's: live when torch is installed, else with ``behaviours_torch.json``
(``python tests/frontend/test_torch_behaviours.py --store`` rewrites it from torch).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

SETUP = "a = torch.tensor([1.0, 2.0], requires_grad=True); b = a.sin(); "
EDGES = "[(type(f).__name__ if f is not None else None, i) for f, i in out.grad_fn.next_functions]"

CASES = {
    # next_functions: the number a reflected operator or a Scalar overload takes
    "2 * b": SETUP + f"out = 2 * b; out = (type(out.grad_fn).__name__, {EDGES})",
    "2 + b": SETUP + f"out = 2 + b; out = (type(out.grad_fn).__name__, {EDGES})",
    "2 - b": SETUP + f"out = 2 - b; out = (type(out.grad_fn).__name__, {EDGES})",
    "2 / b": SETUP + f"out = 2 / b; out = (type(out.grad_fn).__name__, {EDGES})",
    "b ** 2": SETUP + f"out = b ** 2; out = (type(out.grad_fn).__name__, {EDGES})",
    "2 ** b": SETUP + f"out = 2 ** b; out = (type(out.grad_fn).__name__, {EDGES})",
    "b % 2": SETUP + f"out = b % 2; out = (type(out.grad_fn).__name__, {EDGES})",
    "fmod": SETUP + f"out = torch.fmod(b, 2); out = (type(out.grad_fn).__name__, {EDGES})",
    "where scalar": SETUP + f"out = torch.where(b > 0, b, 0.); "
                            f"out = (type(out.grad_fn).__name__, {EDGES})",
    "lerp scalar": SETUP + f"out = torch.lerp(b, b * 3, 0.5); "
                           f"out = (type(out.grad_fn).__name__, {EDGES})",
    "sub alpha": SETUP + f"out = torch.sub(b, b, alpha=2); "
                         f"out = (type(out.grad_fn).__name__, {EDGES}, out)",
    "add alpha": SETUP + f"out = torch.add(b, a, alpha=3); "
                         f"out = (type(out.grad_fn).__name__, {EDGES}, out)",
    "xlogy scalar": SETUP + f"out = torch.xlogy(b, 2); out = (type(out.grad_fn).__name__, {EDGES})",
    "masked_fill": SETUP + f"out = b.masked_fill(b > 0.9, 0.); "
                           f"out = (type(out.grad_fn).__name__, {EDGES})",
    "clamp tensors": SETUP + f"out = b.clamp(torch.zeros(2)); "
                             f"out = (type(out.grad_fn).__name__, {EDGES})",
    "clamp tensors grad": "x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True); "
                          "lo = torch.tensor([1.0, 1.0, 2.0], requires_grad=True); "
                          "hi = torch.tensor([2.0, 2.0, 1.0], requires_grad=True); "
                          "y = torch.clamp(x, lo, hi); y.sum().backward(); "
                          "out = (y, x.grad, lo.grad, hi.grad)",
    # saved tensors under torch's names
    "saved": "x = torch.tensor([1.0, 2.0], requires_grad=True); y = x.pow(2); e = x.exp(); "
             "m = x * y; out = (y.grad_fn._saved_self is x, e.grad_fn._saved_result, "
             "e.grad_fn._saved_result is e, m.grad_fn._saved_other, "
             "torch.equal(m.grad_fn._saved_self, x))",
    "saved freed": "x = torch.tensor([1.0, 2.0], requires_grad=True); y = x.exp(); "
                   "y.sum().backward(); out = y.grad_fn._saved_result",
    # integer products
    "int matmul": "out = (torch.matmul(torch.arange(6).reshape(2, 3), torch.arange(3)), "
                  "torch.arange(6).reshape(2, 3) @ torch.arange(6).reshape(3, 2), "
                  "torch.ones(2, 3, dtype=torch.int32) @ torch.ones(3, dtype=torch.int32))",
    "mixed matmul": "out = torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)",
    "bool matmul": "out = torch.ones(2, 3, dtype=torch.bool) @ torch.ones(3, 2, dtype=torch.bool)",
    # printing
    "format 0-d": "out = (f'{torch.tensor(2.3951)}', f'{torch.tensor(3)}', "
                  "f'{torch.tensor(True)}', f'{torch.tensor([2.5])}', "
                  "f'{torch.nn.Parameter(torch.tensor(2.5))}')",
    # arange's float values, bit for bit
    "arange float32": "out = torch.arange(-3.3, 7.1, 0.013).tolist()",
    "arange float64": "out = torch.arange(-3.3, 7.1, 0.013, dtype=torch.float64).tolist()",
    "arange step": "out = torch.arange(0.1, 1.0, 0.07).tolist()",
    # exception classes programs catch
    "broadcast error": "out = torch.ones(2, 3) + torch.ones(4)",
    "index_put dtype": "y = torch.zeros(3, dtype=torch.float64); "
                       "y[torch.tensor([0])] = torch.tensor([1.0]); out = y",
    "index_add dtype": "out = torch.zeros(3, dtype=torch.float64).index_add_(0, "
                       "torch.tensor([0]), torch.tensor([1.0]))",
    "scatter dtype": "out = torch.zeros(3, dtype=torch.float64).scatter_(0, torch.tensor([0]), "
                     "torch.tensor([1.0]))",
    "mask put 0-d": "y = torch.zeros(3, dtype=torch.float64); "
                    "y[torch.tensor([True, False, True])] = torch.tensor(1.0); out = y",
    "index assignment": "x = torch.arange(12.).reshape(3, 4); x[[0, 2], 1:3] = -1.; "
                        "x[1, [0, 3]] = torch.tensor([7., 8.]); out = x",
    "repeated index": "x = torch.zeros(4); x[torch.tensor([1, 1, 2])] = torch.tensor([3., 4., 5.])"
                      "; out = x",
    "index_put accumulate": "x = torch.zeros(3, requires_grad=True); "
                            "v = torch.tensor([1., 2., 3.], requires_grad=True); "
                            "y = x.index_put((torch.tensor([0, 0, 2]),), v, accumulate=True); "
                            "(y * torch.tensor([1., 2., 3.])).sum().backward(); "
                            "out = (y, type(y.grad_fn).__name__, x.grad, v.grad)",
    "index_copy": "x = torch.zeros(3, 2); out = x.index_copy(0, torch.tensor([2, 0]), "
                  "torch.ones(2, 2) * torch.tensor([[1.], [2.]]))",
    # a second backward through a graph that saved no tensors
    "backward twice": "x = torch.tensor([1.0, 2.0], requires_grad=True); "
                      "s = (x + 1).sum(); s.backward(); s.backward(); out = x.grad",
    "backward twice view": "x = torch.tensor([1.0, 2.0], requires_grad=True); "
                           "s = torch.cat([x, x]).view(2, 2).sum(0).sum(); s.backward(); "
                           "s.backward(); out = x.grad",
    "backward twice saved": "x = torch.tensor([1.0, 2.0], requires_grad=True); "
                            "s = x.exp().sum(); s.backward(); s.backward(); out = x.grad",
    # op by op
    "clamp min > max": "x = torch.tensor([0., 1.5, 3.], requires_grad=True); "
                       "y = torch.clamp(x, 2, 1); y.sum().backward(); out = (y, x.grad)",
    "eq_ gradient": "a = torch.tensor([1., 2.], requires_grad=True); y = a * 1; y.eq_(2.); "
                    "y.sum().backward(); out = (y, type(y.grad_fn).__name__, a.grad)",
    "lt_ gradient": "a = torch.tensor([1., 2.], requires_grad=True); y = a * 1; y.lt_(1.5); "
                    "y.sum().backward(); out = (y, a.grad)",
    "median nan": "x = torch.tensor([[1., float('nan'), 2., float('nan')], [3., 1., 2., 0.]], "
                  "requires_grad=True); r = x.median(1); r.values.sum().backward(); "
                  "m = torch.tensor([1., float('nan'), 2.]).median(); "
                  "out = (r.values, r.indices, x.grad, m, type(r.values.grad_fn).__name__)",
    "tensor_split negative": "out = torch.tensor_split(torch.arange(7), [-2, 5])",
    "quantile q grad": "x = torch.tensor([1., 2., 3., 4.], requires_grad=True); "
                       "q = torch.tensor([0.3, 0.75], requires_grad=True); "
                       "r = torch.quantile(x, q); r.sum().backward(); "
                       "out = (r, q.grad, x.grad, type(r.grad_fn).__name__)",
    "nanquantile": "x = torch.tensor([[1., float('nan'), 3.], [4., 5., 6.]], dtype=torch.float64)"
                   "; out = (torch.nanquantile(x, 0.4, dim=1), torch.quantile(x, 0.4, dim=1, "
                   "keepdim=True), torch.quantile(x, 0.5, interpolation='nearest'))",
    "unique grad": "x = torch.tensor([1., 2., 2., 0.], requires_grad=True); u = torch.unique(x); "
                   "out = (u, u.requires_grad, type(u.grad_fn).__name__)",
    "unique backward": "x = torch.tensor([1., 2.], requires_grad=True); "
                       "out = torch.unique(x).sum().backward()",
    "vector_norm 0": "x = torch.tensor([1., 0., 2.], requires_grad=True); "
                     "n = torch.linalg.vector_norm(x, 0); n.backward(); "
                     "out = (n, n.requires_grad, x.grad)",
    "norm p": "x = torch.tensor([[1., -2.], [2., 0.]]); "
              "out = [torch.norm(x, p) for p in (0, 1, 3, 0.5, float('inf'))] + [x.norm(3, dim=0)]",
    "pow bool": "out = torch.pow(torch.tensor([True, False]), 1)",
    "square bool": "out = torch.square(torch.tensor([True, False]))",
    "prod bool": "out = torch.prod(torch.tensor([True, False]))",
    "pow int32": "out = torch.ones(2, dtype=torch.int32) ** 2",
    "relu6 int": "out = torch.nn.functional.relu6(torch.tensor([1, 7, -2]))",
    "hardtanh int": "out = torch.nn.functional.hardtanh(torch.tensor([1, 2, -3]))",
    "searchsorted scalar": "out = torch.searchsorted(torch.tensor([1., 2., 3.]), 3)",
    # gradgradcheck draws its cotangents from the global generator, as torch
    "gradgradcheck stream": "torch.manual_seed(0); x = torch.tensor([0.3, -1.2], "
                            "dtype=torch.float64, requires_grad=True); "
                            "ok = torch.autograd.gradgradcheck(lambda t: (t * t).sin(), (x,)); "
                            "out = (ok, torch.rand(3))",
    # autograd.functional's results under create_graph
    "jacobian create_graph": "x = torch.tensor([1., 2.], dtype=torch.float64); "
                             "j = torch.autograd.functional.jacobian(lambda t: t.exp() * t, x, "
                             "create_graph=True); out = (j, type(j.grad_fn).__name__)",
}

# In-place updates of the views an op returns together (split, chunk, unbind) and of views of
# them: torch's message (which output, which op) where the update would be recorded.
MULTI = ("x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True); y = x * 1; "
         "w = torch.tensor([1.0, 2.0], requires_grad=True)\ntry:\n    {}\n    out = 'no error'"
         "\nexcept RuntimeError as e:\n    out = str(e)")
for _name, _update in {
        "split of a leaf": "x.split(2)[0].mul_(2)", "split": "y.split(2)[1].add_(1)",
        "split sizes": "y.split([1, 3])[0].mul_(2)", "chunk": "y.chunk(2)[1].zero_()",
        "unbind then index": "y.view(2, 2).unbind()[1][0].mul_(2)",
        "split then slice": "y.split(2)[0][:1].mul_(2)", "split copy_": "y.split(2)[0].copy_(w)",
        "split setitem": "p = y.split(2); p[0][0] = 5.0", "split then view":
        "y.split(2)[0].view(2).mul_(2)", "split no grad base": "torch.ones(4).split(2)[0].mul_(w)",
        "tensor_split (allowed)": "y.tensor_split(2)[0].mul_(2)",
        "unsafe_split (allowed)": "y.unsafe_split(2)[0].mul_(2)",
        "detached (allowed)": "y.unbind()[0].detach().mul_(2)",
        "no_grad (allowed)": "with torch.no_grad(): y.split(2)[0].mul_(2)",
        "no history (allowed)": "torch.ones(4).split(2)[0].mul_(2)"}.items():
    CASES[f"multi views: {_name}"] = MULTI.format(_update)
CASES["output_nr"] = ("x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); "
                      "p = (x * 1).split(2); out = (p[0].output_nr, p[1].output_nr, "
                      "x.output_nr, (p[1] * 2).output_nr, "
                      "(p[1] * 2).grad_fn.next_functions[0][1])")

MESSAGE = "try:\n    {}\n    out = 'no error'\nexcept Exception as e:\n    out = str(e)"
CASES.update({
    "topk of a 0-d tensor": "out = tuple(torch.topk(torch.tensor(2.5), 0))",
    "fftshift of a 0-d tensor": "out = torch.fft.fftshift(torch.tensor(2.5), dim=0)",
    "uint8 class targets": "torch.manual_seed(0); x = torch.randn(3, 4); "
                           "t = torch.tensor([1, 2, 3], dtype=torch.uint8); out = "
                           "(torch.nn.functional.cross_entropy(x, t, label_smoothing=0.1), "
                           "torch.nn.functional.nll_loss(x, t))",
    "int32 class targets": MESSAGE.format("torch.nn.functional.nll_loss(torch.zeros(3, 4), "
                                          "torch.tensor([1, 2, 3], dtype=torch.int32))"),
    "out= of a result that requires grad": MESSAGE.format(
        "torch.exp(torch.ones(3, requires_grad=True), out=torch.empty(3))"),
    "tril_indices out=": "out = torch.tril_indices(3, 3, out=torch.empty(2, 6, dtype=torch.long))",
    "as_strided of a view made a leaf": "a = torch.arange(8.)[2:].view(2, 3).requires_grad_(); "
                                        "b = a.t().as_strided((2, 2), (2, 1), 1); "
                                        "(b * b).sum().backward(); out = (b, a.grad)",
    "attention with head dim 0": "torch.manual_seed(0); q = torch.randn(1, 2, 3, 0); "
                                 "v = torch.randn(1, 2, 3, 5); out = torch.nn.functional."
                                 "scaled_dot_product_attention(q, q, v)",
})


def _seen(value):
    """A JSON-able picture of a result: tensors as (dtype, shape, values, requires_grad)."""
    if isinstance(value, (tuple, list)):
        return [_seen(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        v = value.detach().numpy()
        data = np.where(np.isnan(v), None, v).tolist() if v.dtype.kind == "f" else v.tolist()
        return ["tensor", str(value.dtype), list(value.shape), data, bool(value.requires_grad)]
    if isinstance(value, float) and value != value:
        return "nan"
    return value


def observe(torch, snippet: str):
    ns = {"torch": torch}
    try:
        exec(snippet, ns)   # noqa: S102  (the table's own snippets)
    except Exception as e:   # noqa: BLE001  (the class is what is compared)
        kind = "RuntimeError" if isinstance(e, RuntimeError) else type(e).__name__
        return ["raises", kind]
    return _seen(ns["out"])


def _close(got, want, path="out") -> None:
    if isinstance(want, list) and isinstance(got, list):
        assert len(got) == len(want), f"{path}: {got} vs torch's {want}"
        if want and want[0] == "tensor":
            assert got[:3] == want[:3] and got[4] == want[4], f"{path}: {got} vs torch's {want}"
            g = np.asarray(got[3], dtype=object)
            w = np.asarray(want[3], dtype=object)
            assert np.array_equal(g == None, w == None), f"{path}: {got} vs {want}"  # noqa: E711
            fin = (w != None)   # noqa: E711
            assert np.allclose(g[fin].astype(float), w[fin].astype(float), rtol=1e-6,
                               atol=1e-7), f"{path}: {got} vs torch's {want}"
            return
        for k, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{k}]")
        return
    if isinstance(want, float) and isinstance(got, float):
        assert np.isclose(got, want, rtol=1e-6), f"{path}: {got} vs torch's {want}"
        return
    assert got == want, f"{path}: {got} vs torch's {want}"


STORED = Path(__file__).with_name("behaviours_torch.json")
EXPECTED = json.loads(STORED.read_text()) if STORED.exists() else {}


@pytest.mark.parametrize("name", list(CASES))
def test_behaviour_matches_torch(name):
    try:
        import torch
    except ImportError:
        torch = None
    want = observe(torch, CASES[name]) if torch is not None else EXPECTED[name]
    _close(observe(sg, CASES[name]), want)


def test_stored_expectations_cover_every_case():
    assert set(EXPECTED) == set(CASES)


def test_arange_values_are_torchs_bit_for_bit():
    """Against the stored torch values exactly (the table compares at a tolerance)."""
    for name in ("arange float32", "arange float64", "arange step"):
        assert observe(sg, CASES[name]) == EXPECTED[name]


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    import torch
    STORED.write_text(json.dumps({n: observe(torch, s) for n, s in CASES.items()}) + "\n")
