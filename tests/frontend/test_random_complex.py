"""Complex random sampling: torch 2.13 samples a complex tensor as the real tensor of its parts
(``view_as_real``: each element's real part, then its imaginary part, in memory order), with
``std / sqrt(2)`` per part for normals, and refuses complex tensors in its real-only kernels.

Without torch: values printed by torch 2.13 (stored below, as IEEE bits), the identities that
follow from the real view (a complex ``rand`` is the real ``rand`` of twice the size, a
complex ``randn`` takes the 16-element path exactly when the real view has 16 elements or
more and is contiguous), memory order of transposed tensors, and torch's errors in torch's
order. With torch: many calls compared bit for bit, with the generator's state after them.
"""

import math

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.random import generator as random_engine

C64, C128 = sg.complex64, sg.complex128


def bits(t) -> list:
    """The IEEE bits of a (complex) tensor's parts, real and imaginary interleaved."""
    a = np.ascontiguousarray(t.detach().numpy())
    if a.dtype.kind == "c":
        a = a.view(a.real.dtype)
    return a.view(f"u{a.itemsize}").ravel().tolist()


# ================================================================== torch's numbers, stored
# Printed by torch 2.13.0 (CPU, AVX-512) after torch.manual_seed(0). Those marked "vector"
# take torch's AVX2 float32 kernel (or depend on its fused multiply-adds): checked only where
# torch would run the same kernel.

def test_stored_torch_values_any_cpu():
    sg.manual_seed(0)
    assert bits(sg.randn(3, dtype=C128)) == [
        4607586161092930627, 13820015512597327883, 13832989267106414397, 4600912356272466716,
        13828454635238959502, 13830454982742125950]
    assert bits(sg.randn(9, dtype=C128))[:4] == [
        13824982355878192173, 13827065667733859433, 4595249650881087791, 4602847099627690216]
    assert bits(sg.rand(3, dtype=C64)) == [1024154528, 1064417823, 1063342968, 983695872,
                                           1058534721, 1054138318]
    assert bits(sg.rand(2, dtype=sg.float64)) == [4599828146039738482, 4603023119441211238]
    sg.manual_seed(0)
    w = sg.nn.init.xavier_normal_(sg.zeros(4, 5, dtype=C128))
    assert bits(w)[:4] == [13828484036215123578, 13817001643862880384, 13823413648236961010,
                           4599673473194900359]


def test_stored_torch_values_vector_kernels():
    if random_engine.capability() == "default":
        pytest.skip("these torch values come from its AVX2/AVX-512 kernels")
    sg.manual_seed(0)
    assert bits(sg.randn(8, dtype=C64))[:4] == [3209415805, 3209730423, 3191173171, 3197965494]
    assert bits(sg.zeros(3, 2, dtype=C64).T.uniform_(-2, 3)) == [
        1069449692, 1073742063, 1068776127, 1076157617, 1036434880, 1061402773, 3214471407,
        3205935675, 3161297728, 1075296986, 1076944974, 3219708610]
    assert bits(sg.zeros(2, 2, dtype=C128).T.normal_(1.5, 2.0)) == [
        13803107831505338635, 4610215709146216734, 4597761901805750262, 13827259627927883381,
        4604472207902756705, 4611748311712987225, 4611739646297158894, 4615198388702453350]
    sg.manual_seed(0)
    assert bits(sg.normal(sg.tensor([1 + 2j, -3j]), 0.5)) == [1069923534, 1072871566,
                                                              3208983446, 3224576843]


# ================================================================== the real view, without torch

@pytest.mark.parametrize("n", [1, 7, 8, 9, 33])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_rand_is_the_real_rand_of_twice_the_size(n, dtype):
    dt = getattr(sg, dtype)
    sg.manual_seed(3)
    z = sg.rand(n, dtype=dt)
    sg.manual_seed(3)
    parts = sg.rand(2 * n, dtype=sg.float32 if dt is C64 else sg.float64)
    assert z.dtype is dt
    assert bits(sg.view_as_real(z)) == bits(parts)


@pytest.mark.parametrize("n", [3, 7, 8, 9, 20])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_randn_is_the_real_randn_of_twice_the_size_over_sqrt2(n, dtype):
    """Same draws and the same kernel path (16-element blocks from 16 real elements, so from
    8 complex ones): equal to rounding (torch scales inside its multiply-add)."""
    dt = getattr(sg, dtype)
    part = sg.float32 if dt is C64 else sg.float64
    sg.manual_seed(5)
    z = sg.view_as_real(sg.randn(n, dtype=dt)).numpy().astype(np.float64)
    after = sg.rand(1).item()
    sg.manual_seed(5)
    x = sg.randn(2 * n, dtype=part).numpy().astype(np.float64) / math.sqrt(2)
    np.testing.assert_allclose(z.ravel(), x, rtol=4e-7 if dt is C64 else 1e-15, atol=0)
    assert sg.rand(1).item() == after      # the same number of draws


def test_normal_mean_and_std_apply_to_both_parts():
    sg.manual_seed(1)
    z = sg.empty(2000, dtype=C128).normal_(2.0, 3.0)
    re, im = z.real.numpy(), z.imag.numpy()
    assert abs(re.mean() - 2.0) < 0.15 and abs(im.mean() - 2.0) < 0.15
    assert abs((re.var() + im.var()) - 9.0) < 0.8      # variance std**2, half in each part
    u = sg.empty(2000, dtype=C64).uniform_(-1.0, 3.0)
    assert u.real.min() >= -1 and u.imag.max() < 3 and abs(u.imag.numpy().mean() - 1) < 0.1


def test_transposed_tensors_fill_in_memory_order():
    sg.manual_seed(2)
    x = sg.zeros(4, 3, dtype=C128).T.uniform_(-1.0, 2.0)
    sg.manual_seed(2)
    y = sg.zeros(4, 3, dtype=C128).uniform_(-1.0, 2.0)
    assert bits(x) == bits(y.T)
    sg.manual_seed(2)
    a = sg.randn_like(sg.zeros(6, 5, dtype=C64).T)
    sg.manual_seed(2)
    b = sg.zeros(6, 5, dtype=C64)
    b.normal_(0.0, 1.0)     # (contiguous, 60 parts: torch's 16-block path; a's view is not)
    assert bits(a) != bits(b.T)
    sg.manual_seed(2)
    c = sg.zeros(6, 5, dtype=C64).T.normal_()
    assert bits(a) == bits(c)


def test_explicit_generator():
    g = sg.Generator().manual_seed(7)
    a = sg.randn(9, dtype=C64, generator=g)
    b = sg.zeros(3, dtype=C128).normal_(1.0, 2.0, generator=g)
    sg.manual_seed(7)
    assert bits(a) == bits(sg.randn(9, dtype=C64))
    assert bits(b) == bits(sg.zeros(3, dtype=C128).normal_(1.0, 2.0))


# ================================================================== torch's errors

def _raises(kind, message, call):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message


def test_real_only_samplers_refuse_complex_tensors():
    z = sg.zeros(3, dtype=C128)
    kernel = "{} not implemented for 'ComplexDouble'"
    _raises(NotImplementedError, kernel.format('"bernoulli_scalar_cpu_"'), lambda: z.bernoulli_())
    _raises(NotImplementedError, kernel.format('"bernoulli_tensor_cpu_self_"'),
            lambda: sg.bernoulli(z))
    _raises(NotImplementedError, kernel.format('"bernoulli_scalar_cpu_"'),
            lambda: sg.nn.functional.dropout(z, 0.3))
    _raises(NotImplementedError, kernel.format('"random_kernel_cpu"'), lambda: z.random_())
    _raises(NotImplementedError, kernel.format('"log_normal_cpu"'), lambda: z.log_normal_())
    _raises(NotImplementedError, kernel.format('"geometric_cpu"'), lambda: z.geometric_(0.5))
    _raises(NotImplementedError, "\"randperm\" not implemented for 'ComplexFloat'",
            lambda: sg.randperm(3, dtype=C64))
    bounds = "check_random_bounds handles only integral, floating-point and boolean types"
    _raises(RuntimeError, bounds, lambda: sg.randint(0, 5, (3,), dtype=C128))
    _raises(RuntimeError, bounds, lambda: sg.randint_like(z, 5))
    _raises(RuntimeError, bounds, lambda: z.random_(5))
    _raises(RuntimeError, "Exponential distribution is a continuous probability distribution. "
            "dtype must be a floating point but you specified ComplexDouble",
            lambda: z.exponential_())
    _raises(RuntimeError, "Cauchy distribution is a continuous probability distribution. "
            "dtype must be a floating point but you specified c10::complex<float>",
            lambda: sg.zeros(2, dtype=C64).cauchy_())


def test_errors_come_in_torchs_order():
    z, e = sg.zeros(3, dtype=C128), sg.zeros(0, 2, dtype=C128)
    _raises(RuntimeError, "exponential_ expects lambda > 0.0, but found lambda=-1",
            lambda: z.exponential_(-1))
    _raises(RuntimeError, "random_ expects 'from' to be less than 'to', but got from=5 >= to=2",
            lambda: sg.randint(5, 2, (3,), dtype=C128))
    _raises(RuntimeError, "from is out of bounds for float", lambda: sg.zeros(2, dtype=C64)
            .uniform_(-1e300, 1))
    for fill in (lambda t: t.exponential_(), lambda t: t.log_normal_(), lambda t: t.random_(),
                 lambda t: t.geometric_(0.5), lambda t: t.bernoulli_(0.5),
                 lambda t: t.uniform_(2, 1)):
        assert fill(e) is e             # no elements: no kernel, no error (torch's order)
    assert sg.bernoulli(e).shape == (0, 2)


def test_normal_of_complex_mean():
    _raises(RuntimeError, "normal expects standard deviation to be non-complex",
            lambda: sg.normal(sg.zeros(3), sg.ones(3, dtype=C128)))
    x = sg.zeros(3, dtype=C128, requires_grad=True)
    sg.manual_seed(0)
    _raises(RuntimeError, "normal does not support automatic differentiation for outputs "
            "with complex dtype.", lambda: sg.normal(x, 1.0))
    after = sg.rand(1).item()
    sg.manual_seed(0)
    with sg.no_grad():
        y = sg.normal(x, 1.0)
    assert y.dtype is C128 and sg.rand(1).item() == after   # torch drew before it refused
    z = sg.normal(sg.tensor([1 + 1j, -1j], dtype=C128), sg.zeros(2))
    assert bits(z) == bits(sg.tensor([1 + 1j, 0 - 1j], dtype=C128))   # torch's add: +0


def test_init_of_complex_parameters():
    p = sg.nn.Parameter(sg.zeros(4, 5, dtype=C64))
    sg.nn.init.kaiming_uniform_(p)
    assert p.dtype is C64 and p.requires_grad and float(p.imag.abs().max()) > 0
    sg.manual_seed(0)
    _raises(NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex "
            "numbers. Please use torch.sgn instead.",
            lambda: sg.nn.init.orthogonal_(sg.zeros(3, 4, dtype=C128)))
    t = sg.zeros(3, 4, dtype=C128)
    _raises(NotImplementedError, "\"lt_cpu\" not implemented for 'ComplexDouble'",
            lambda: sg.nn.init.trunc_normal_(t))
    assert float(t.abs().min()) > 0     # filled before the comparison refused


# ================================================================== against torch, bit for bit

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _calls():
    out = []
    for dn in ("complex64", "complex128"):
        def dt(m, dn=dn):
            return getattr(m, dn)
        out += [lambda m, n=n, dt=dt: m.randn(n, dtype=dt(m)) for n in (1, 7, 8, 9, 17, 40)]
        out += [lambda m, n=n, dt=dt: m.rand(n, dtype=dt(m)) for n in (3, 9)]
        out += [
            lambda m, dt=dt: m.randn_like(m.zeros(5, 4, dtype=dt(m)).T),
            lambda m, dt=dt: m.rand_like(m.zeros(5, 4, dtype=dt(m)).T),
            lambda m, dt=dt: m.randn_like(m.zeros(5, 4), dtype=dt(m)),
            lambda m, dt=dt: m.zeros(6, 5, dtype=dt(m)).T.normal_(0.5, 2.0),
            lambda m, dt=dt: m.zeros(2, 3, dtype=dt(m)).T.normal_(-1.0, 3.0),
            lambda m, dt=dt: m.zeros(4, 6, dtype=dt(m))[:, ::2].normal_(),
            lambda m, dt=dt: m.empty(9, dtype=dt(m)).normal_(2.0, 0.25),
            lambda m, dt=dt: m.zeros(6, 5, dtype=dt(m)).T.uniform_(-2.0, 3.0),
            lambda m, dt=dt: m.zeros(7, dtype=dt(m)).uniform_(-2.0, 3.0),
            lambda m, dt=dt: m.randn(9, dtype=dt(m), generator=m.Generator().manual_seed(5)),
            lambda m, dt=dt: m.normal(1.5, 2.0, (11,), dtype=dt(m)),
            lambda m, dt=dt: m.normal(m.arange(10.0).to(dt(m)) * (1 - 2j), 0.5),
            lambda m, dt=dt: m.normal(m.arange(10.0).to(dt(m)).reshape(2, 5) * (1 + 1j),
                                      m.arange(1.0, 6.0, dtype=m.float64)),
            lambda m, dt=dt: m.normal(m.ones(3, dtype=dt(m)), m.full((4, 1), 0.3)),
            lambda m, dt=dt: m.cat([m.randn(1, dtype=m.float64).to(dt(m)),  # a cached sample
                                    m.randn(2, dtype=dt(m))]),
            lambda m, dt=dt: m.nn.init.xavier_uniform_(m.zeros(4, 5, dtype=dt(m))),
            lambda m, dt=dt: m.nn.init.kaiming_normal_(m.zeros(4, 5, dtype=dt(m))),
            lambda m, dt=dt: m.nn.init.trunc_normal_(m.zeros(3, 4, dtype=dt(m)), 0, 1, 2, 3),
            lambda m, dt=dt: m.nn.Linear(3, 2, dtype=dt(m)).weight.detach(),
        ]
    return out


CALLS = _calls()


def _outcome(m, call):
    m.manual_seed(0)
    try:
        result = bits(call(m))
    except Exception as exc:   # noqa: BLE001  (the class is compared)
        result = type(exc).__name__
    return result, bits(m.rand(3, dtype=m.float64))


@pytest.mark.parametrize("case", range(len(CALLS)))
def test_matches_torch(torch, case):
    mine, theirs = _outcome(sg, CALLS[case]), _outcome(torch, CALLS[case])
    assert mine == theirs
