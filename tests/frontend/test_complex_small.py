"""Complex-number fixes: vecdot conjugates x, cov/corrcoef/trapezoid keep complex input,
distances of complex input are real, cond of a singular matrix is inf, mvlgamma/arange refuse
complex, Python complex arguments to compiled functions, complex linspace/logspace.

Each check runs eagerly and through ``symgrad.compile``, against values torch 2.13 printed
(stored here) and, when torch is installed, against torch live.
"""

import numpy as np
import pytest

import symgrad as sg


def _close(got, want, tol=1e-6):
    got = got.detach().numpy() if hasattr(got, "detach") else np.asarray(got)
    np.testing.assert_allclose(got, np.asarray(want), rtol=tol, atol=tol)


def _both(fn, *args):
    """fn's results eagerly and compiled."""
    return fn(*args), sg.compile(fn)(*args)


X = np.array([1 + 2j, 3 - 1j], np.complex64)
Y = np.array([2 - 1j, 1j], np.complex64)


def test_vecdot_conjugates_x():
    for r in _both(lambda a, b: sg.linalg.vecdot(a, b), X, Y):
        _close(r, -1 - 2j)
    xb, yb = np.stack([X, Y]), np.stack([Y, X])
    for r in _both(lambda a, b: sg.linalg.vecdot(a, b), xb, yb):
        _close(r, [-1 - 2j, -1 + 2j])
    a, b = sg.tensor(X, requires_grad=True), sg.tensor(Y, requires_grad=True)
    sg.linalg.vecdot(a, b).abs().backward()
    # torch 2.13's gradients
    _close(a.grad, [2.2361j, -0.8944 - 0.4472j], 1e-4)
    _close(b.grad, [1.3416 - 1.7889j, -2.2361 - 2.2361j], 1e-4)


def test_vecdot_gradient_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    y = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    grads = []
    for m in (torch, sg):
        a, b = m.tensor(x, requires_grad=True), m.tensor(y, requires_grad=True)
        r = m.linalg.vecdot(a, b, dim=0)
        r.abs().sum().backward()
        grads.append([np.array(t.detach().tolist()) for t in (r, a.grad, b.grad)])
    for want, got in zip(*grads):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


Z = np.array([[1 + 2j, 3 - 1j, 0.5j], [2 - 1j, 1j, 4]], np.complex64)


def test_cov_corrcoef_keep_complex():
    for c in _both(lambda z: sg.cov(z), Z):
        assert str(c.dtype).endswith("complex64")
        _close(c, [[4.5833333, -4.5 + 0.5j], [-4.5 - 0.5j, 5.0]])
    for c in _both(lambda z: sg.corrcoef(z), Z):
        _close(c, [[1.0, -0.94001 + 0.104445j], [-0.94001 - 0.104445j, 1.0]], 1e-5)
    w = _both(lambda z: sg.cov(z, fweights=sg.tensor([1, 2, 1]), aweights=sg.tensor([.5, 1, 2])),
              Z)
    for c in w:
        _close(c, [[4.375, -4.821429 + 0.857143j], [-4.821429 - 0.857143j, 5.785714]], 1e-5)


def test_trapezoid_keeps_complex():
    for r in _both(lambda z: sg.trapezoid(z), Z):
        _close(r, [3.5 + 0.25j, 3 + 0.5j])
    for r in _both(lambda z: sg.trapz(z, dx=1.5), Z):
        _close(r, [5.25 + 0.375j, 4.5 + 0.75j])
    for r in _both(lambda z: sg.trapezoid(z, sg.tensor([0., 1, 3])), Z):
        _close(r, [5, 5 + 1j])
    for r in _both(lambda z: sg.cumulative_trapezoid(z, dx=3), Z):
        _close(r, [[6 + 1.5j, 10.5 + 0.75j], [3, 9 + 1.5j]])


def _grads(m, fn, arr):
    a = m.tensor(arr, requires_grad=True)
    r = fn(m, a)
    r.abs().sum().backward()
    return [np.array(t.detach().tolist()) for t in (r, a.grad)]


@pytest.mark.parametrize("fn", [
    lambda m, a: m.cov(a), lambda m, a: m.corrcoef(a), lambda m, a: m.trapezoid(a),
    lambda m, a: m.cumulative_trapezoid(a, dim=0),
    lambda m, a: m.cov(a, aweights=m.tensor([.5, 1, 2], dtype=m.float64))])
def test_complex_statistics_against_torch(fn):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    z = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    for want, got in zip(_grads(torch, fn, z), _grads(sg, fn, z)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_pairwise_distance_of_complex_is_real():
    b = np.array([[1j, 1, 2 - 1j]], np.complex64)
    for r in _both(lambda u, v: sg.nn.functional.pairwise_distance(u, v), Z, b):
        assert not str(r.dtype).startswith("complex")
        _close(r, [3.6401, 3.8730], 1e-4)     # torch 2.13
    for r in _both(lambda u, v: sg.nn.functional.pairwise_distance(u, v, p=0), Z, b):
        _close(r, [3, 3])


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, 0, float("inf"), -float("inf")])
def test_pairwise_distance_complex_against_torch(p):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    u = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    v = rng.standard_normal((1, 4)) + 1j * rng.standard_normal((1, 4))
    out = []
    for m in (torch, sg):
        a = m.tensor(u, requires_grad=True)
        r = m.nn.functional.pairwise_distance(a, m.tensor(v), p=p)
        if p != 0:
            r.sum().backward()
        out.append([np.array(t.detach().tolist()) for t in (r, a.grad) if t is not None])
    assert len(out[0]) == len(out[1])
    for want, got in zip(*out):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


BATCH = np.array([[[1., 2], [2, 4]], [[1, 2], [3, 4]], [[0, 0], [0, 0]]], np.float32)
COND = {"fro": 15.0, 1: 21.0, -1: 6.0, float("inf"): 21.0, -float("inf"): 6.0}   # torch 2.13


@pytest.mark.parametrize("p", list(COND))
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_cond_of_a_singular_matrix_is_inf(p, dtype):
    a = BATCH.astype(dtype) * (1 + 1j if dtype == np.complex64 else 1)
    want = [np.inf, COND[p] * (1 if dtype == np.float32 else 1), np.inf]
    for r in _both(lambda m: sg.linalg.cond(m, p), a):
        _close(r, want, 1e-5)
    for r in _both(lambda m: sg.linalg.cond(m, p), a[0]):
        _close(r, np.inf)


def test_cond_nuc_from_singular_values():
    for r in _both(lambda m: sg.linalg.cond(m, "nuc"), BATCH[1]):
        _close(r, 17.0, 1e-5)
    assert np.isnan(np.asarray(sg.linalg.cond(sg.tensor(BATCH[2]), "nuc").tolist()))


@pytest.mark.parametrize("p", ["nuc", "fro", 1, -float("inf")])
def test_cond_against_torch(p):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 3, 3)) + 1j * rng.standard_normal((2, 3, 3))
    a[1, 1] = 0            # a zero row: LU meets an exact zero pivot
    a = a if p != 1 else a.real.copy()
    want = torch.linalg.cond(torch.tensor(a), p).tolist()
    got = sg.linalg.cond(sg.tensor(a), p).tolist()
    if p == "nuc":         # the singular element is rounding noise there
        want, got = want[:1], got[:1]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    if p == "nuc":
        grads = []
        for m in (torch, sg):
            t = m.tensor(a[:1], requires_grad=True)
            m.linalg.cond(t, p).sum().backward()
            grads.append(np.array(t.grad.tolist()))
        np.testing.assert_allclose(grads[1], grads[0], rtol=1e-9, atol=1e-12)


ARANGE_COMPLEX = "\"arange_cpu\" not implemented for 'ComplexFloat'"   # torch 2.13's message


def test_mvlgamma_and_arange_refuse_complex():
    z = np.array([2 + 1j, 3], np.complex64)
    for call in (lambda: sg.mvlgamma(sg.tensor(z), 2), lambda: sg.compile(
            lambda t: sg.mvlgamma(t, 2))(z), lambda: sg.tensor(z).mvlgamma(1),
            lambda: sg.special.multigammaln(sg.tensor(z), 2),
            lambda: sg.arange(3, dtype=sg.complex64)):
        with pytest.raises(NotImplementedError) as e:
            call()
        assert str(e.value) == ARANGE_COMPLEX
    with pytest.raises(NotImplementedError, match="ComplexDouble"):
        sg.arange(0, 3, 1, dtype=sg.complex128)
    for bad in (lambda: sg.arange(2 + 1j), lambda: sg.arange(1j, 3),
                lambda: sg.arange(sg.tensor(2 + 1j))):
        with pytest.raises(RuntimeError, match="value cannot be converted to type double"):
            bad()
    r = sg.arange(2 + 0j)          # a zero imaginary part: torch's double, a float range
    assert r.dtype == sg.float32 and r.tolist() == [0.0, 1.0]
    assert sg.arange(0, 3, 1 + 0j).tolist() == [0.0, 1.0, 2.0]


def test_arange_complex_against_torch():
    torch = pytest.importorskip("torch")
    for args, kw in (((3,), {"dtype": "complex64"}), ((2 + 0j,), {}), ((2 + 1j,), {}),
                     ((0, 2, 0.5 + 0j), {"dtype": "float64"})):
        out = []
        for m in (torch, sg):
            k = {n: getattr(m, v) for n, v in kw.items()}
            try:
                r = m.arange(*args, **k)
                out.append((str(r.dtype), r.tolist()))
            except (RuntimeError, NotImplementedError) as e:
                out.append((type(e).__name__, str(e)))
        assert out[0] == out[1]


def test_python_complex_argument_to_a_compiled_function():
    f = sg.compile(lambda a, s: a * s)
    for arr, dt in ((np.ones(2, np.complex64), "complex64"), (np.ones(2, np.float32), "complex64"),
                    (np.arange(2), "complex64"), (np.ones(2), "complex128"),
                    (np.ones(2, np.complex128), "complex128")):
        for s in (1 + 2j, 0.5 - 0.25j):      # a new value: a runtime input, no stale result
            r = f(arr, s)
            assert str(r.dtype) == dt        # torch's wrapped-number promotion
            np.testing.assert_array_equal(r, arr * s)
    g = sg.compile(lambda a, s: sg.exp(a * s))
    _close(g(np.ones(2, np.float32), 1j), [0.5403023 + 0.84147096j] * 2)
    _close(g(np.ones(2, np.float32), 2j), [np.exp(2j)] * 2)


def test_python_complex_argument_against_torch():
    torch = pytest.importorskip("torch")
    f = sg.compile(lambda a, s: (a * s, a + s, s * s))
    for dt in (np.complex64, np.float32, np.int64, np.float64):
        a = (np.arange(3) - 1).astype(dt)
        for s in (1 + 2j, -0.1 + 3j):
            want = [t.numpy() for t in (torch.tensor(a) * s, torch.tensor(a) + s)]
            got = f(a, s)
            for w, g in zip(want, got):
                assert g.dtype == w.dtype
                np.testing.assert_array_equal(g, w)
            assert complex(np.asarray(got[2])) == s * s


def test_complex_linspace_logspace():
    for r in _both(lambda a: a + sg.linspace(0, 1 + 1j, 3), np.zeros(3, np.complex64)):
        assert str(r.dtype).endswith("complex64")
        _close(r, [0, 0.5 + 0.5j, 1 + 1j])
    r = sg.linspace(sg.tensor(1j), 2, 4)              # torch 2.13
    _close(r, [1j, 0.6666667 + 0.6666666j, 1.3333333 + 0.3333334j, 2], 1e-7)
    assert sg.linspace(sg.tensor(1 + 0j), 2, 3).dtype == sg.complex64
    assert sg.linspace(0, 1j, 3, dtype=sg.complex128).dtype == sg.complex128
    with pytest.raises(RuntimeError, match=r"torch.linspace\(\): inferred dtype "
                       r"c10::complex<float> can't be safely cast to passed dtype Float"):
        sg.linspace(0, 1 + 1j, 3, dtype=sg.float32)
    for r in _both(lambda a: a * sg.logspace(0, 1 + 1j, 3), np.ones(3, np.complex64)):
        _close(r, [1, 1.2880 + 2.8881j, -6.6820 + 7.4398j], 1e-4)
    _close(sg.logspace(1j, 1 + 1j, 1, base=2), [0.7692 + 0.6390j], 1e-4)
    _close(sg.logspace(0, 1j, 3, base=-2), [1, 0.1955 + 0.0706j, 0.0332 + 0.0276j], 1e-3)
    assert np.isnan(sg.logspace(0, 1j, 2, base=0).numpy()).all()


def test_complex_linspace_logspace_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    for _ in range(60):
        s, e = complex(*rng.standard_normal(2) * 10), complex(*rng.standard_normal(2))
        n = int(rng.integers(0, 40))
        for dt, eps in (("complex64", 1.2e-7), ("complex128", 2.3e-16)):
            want = torch.linspace(s, e, n, dtype=getattr(torch, dt)).numpy()
            np.testing.assert_array_equal(   # bit for bit
                sg.linspace(s, e, n, dtype=getattr(sg, dt)).numpy(), want)
            want = torch.logspace(s / 10, e, n, base=2.0, dtype=getattr(torch, dt)).numpy()
            got = sg.logspace(s / 10, e, n, base=2.0, dtype=getattr(sg, dt)).numpy()
            # the C library's complex pow against NumPy's: a few ulps
            np.testing.assert_allclose(got, want, rtol=16 * eps, atol=0)
