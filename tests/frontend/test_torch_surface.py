"""The torch surface that ported programs touch first: devices, ``Size``, the legacy
constructors, dtypes, torch's keyword spellings and ``out=``, factories, whole-tensor
comparisons, ``.data``, formatting and print options. Each behaviour is checked against
NumPy or a hand-derived value here, and against torch itself when torch is installed."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import symgrad as sg


# ---------------------------------------------------------------- devices

def test_device_objects_parse_print_and_compare():
    d = sg.device("cuda:1")
    assert (d.type, d.index, str(d), repr(d)) == ("cuda", 1, "cuda:1",
                                                  "device(type='cuda', index=1)")
    assert sg.device("cpu") == "cpu" and sg.device("cpu") == sg.device("cpu")
    assert hash(sg.device("cpu")) == hash(sg.device("cpu"))
    assert pickle.loads(pickle.dumps(d)) == d
    with pytest.raises(RuntimeError, match="device type at start of device string: gpu"):
        sg.device("gpu")


def test_cpu_is_the_only_device_and_programs_choose_it():
    chosen = sg.device("cuda" if sg.cuda.is_available() else "cpu")
    if sg.backends.mps.is_available():
        chosen = sg.device("mps")
    assert chosen == sg.device("cpu") and sg.cuda.device_count() == 0
    x = sg.zeros(2, 3, device=chosen)
    assert x.device == chosen and not x.is_cuda
    assert x.to(chosen) is x and x.cpu() is x and x.to("cpu", non_blocking=True) is x
    sg.backends.cudnn.deterministic = True   # accepted, as programs set it
    sg.cuda.manual_seed(0)


@pytest.mark.parametrize("make", [lambda: sg.zeros(2, device="cuda"),
                                  lambda: sg.ones(2).cuda(),
                                  lambda: sg.ones(2).to("cuda"),
                                  lambda: sg.tensor([1.0], device="cuda:0")])
def test_accelerators_raise_torchs_error(make):
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        make()


def test_to_casts_with_devices_dtypes_and_other_tensors():
    x = sg.tensor([1.5, 2.5])
    assert x.to(sg.device("cpu"), sg.float64).dtype is sg.float64
    assert x.to(dtype=sg.float64, device="cpu").dtype is sg.float64
    assert x.to(sg.tensor([1])).dtype is sg.int64
    assert x.to(sg.float32, copy=True) is not x
    assert x.type() == "torch.FloatTensor" and x.type(sg.float64).dtype is sg.float64
    assert x.type("torch.LongTensor").tolist() == [1, 2]


# ---------------------------------------------------------------- Size, constructors

def test_shape_is_a_size_that_acts_as_a_tuple():
    x = sg.zeros(2, 3, 4)
    s = x.shape
    assert isinstance(s, sg.Size) and isinstance(s, tuple) and s == (2, 3, 4)
    assert repr(s) == "torch.Size([2, 3, 4])" and s[1:] == (3, 4)   # a plain tuple (size.py)
    assert s[0] == 2 and s.numel() == 24
    assert isinstance(s + (5,), sg.Size) and x.size() == s and x.size(-1) == 4
    assert len(x) == 2 and [t.shape for t in x] == [(3, 4), (3, 4)]
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(sg.tensor(1.0))
    assert pickle.loads(pickle.dumps(s)) == s


def test_legacy_constructors():
    assert sg.Tensor(2, 3).shape == (2, 3) and sg.Tensor(2, 3).dtype is sg.float32
    t = sg.Tensor([[1, 2]])
    assert t.dtype is sg.float32 and t.tolist() == [[1.0, 2.0]]
    assert sg.Tensor().shape == (0,)
    assert sg.Tensor(sg.Size([2])).shape == (2,)
    assert sg.Tensor(np.arange(3.0)).dtype is sg.float32   # copied and converted, like torch


def test_from_numpy_shares_memory_both_ways():
    a = np.arange(4.0)
    t = sg.from_numpy(a)
    assert t.dtype is sg.float64
    t.add_(1)
    assert a.tolist() == [1.0, 2.0, 3.0, 4.0]
    a[0] = 10
    assert t.tolist()[0] == 10.0
    assert sg.as_tensor(a).numpy() is a
    with pytest.raises(TypeError, match="expected np.ndarray"):
        sg.from_numpy([1, 2])


# ---------------------------------------------------------------- dtypes

def test_dtypes_print_as_torch_and_default_dtype_switches():
    assert repr(sg.float32) == "torch.float32" and str(sg.float64) == "torch.float64"
    assert sg.float is sg.float32 and sg.get_default_dtype() is sg.float32
    sg.set_default_dtype(sg.float64)
    try:
        assert sg.tensor([1.5]).dtype is sg.float64 and sg.zeros(2).dtype is sg.float64
        assert (sg.arange(3) * 0.5).dtype is sg.float64
    finally:
        sg.set_default_dtype(sg.float32)
    assert sg.tensor([1.5]).dtype is sg.float32
    with pytest.raises(TypeError, match="floating"):
        sg.set_default_dtype(sg.int64)


def test_finfo_and_iinfo_match_numpy():
    f = sg.finfo(sg.float32)
    assert (f.eps, f.max, f.tiny, f.bits) == (float(np.finfo(np.float32).eps),
                                              float(np.finfo(np.float32).max),
                                              float(np.finfo(np.float32).tiny), 32)
    assert sg.iinfo(sg.int64).max == 2**63 - 1
    with pytest.raises(TypeError):
        sg.finfo(sg.int64)


# ---------------------------------------------------------------- keywords and out=

def test_torch_and_numpy_keyword_spellings():
    x = sg.arange(6.0).reshape(2, 3)
    ref = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(x.sum(axis=1, keepdims=True).numpy(),
                                  ref.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(sg.sum(input=x, dim=0).numpy(), ref.sum(0))
    np.testing.assert_array_equal(sg.add(x, other=x).numpy(), 2 * ref)
    np.testing.assert_array_equal(x.mul(other=3).numpy(), 3 * ref)
    assert sg.zeros(size=(2, 3)).shape == (2, 3) and sg.ones(size=[4]).shape == (4,)
    np.testing.assert_array_equal(sg.mean(x, axis=0).numpy(), ref.mean(0))


def test_out_writes_in_place_and_refuses_autograd():
    x = sg.arange(6.0).reshape(2, 3)
    out = sg.zeros(2, 3)
    got = sg.mul(x, 2, out=out)
    assert got is out and out.tolist() == (2 * np.arange(6.0).reshape(2, 3)).tolist()
    small = sg.zeros(1)
    sg.sum(x, dim=1, out=small)   # resized, like torch
    assert small.tolist() == [3.0, 12.0]
    w = sg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic"):
        sg.mul(w, 2, out=sg.zeros(2))


# ---------------------------------------------------------------- factories

def test_factories_against_numpy():
    np.testing.assert_array_equal(sg.eye(2, 3).numpy(), np.eye(2, 3, dtype=np.float32))
    assert sg.empty(2, 3).shape == (2, 3) and sg.empty_like(sg.ones(4)).shape == (4,)
    np.testing.assert_allclose(sg.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5), rtol=0)
    np.testing.assert_allclose(sg.logspace(0, 2, 3, dtype=sg.float64).numpy(),
                               [1.0, 10.0, 100.0])
    assert sg.linspace(2, 3, 1).tolist() == [2.0] and sg.linspace(0, 1, 0).shape == (0,)
    x = sg.ones(2, dtype=sg.float64)
    assert x.new_zeros(3).dtype is sg.float64 and x.new_full((2,), 7).tolist() == [7.0, 7.0]
    assert x.new_tensor([1, 2]).dtype is sg.float64


def test_linspace_keeps_both_ends_exact_and_is_symmetric_through_zero():
    for n in (2, 3, 7, 24, 25, 101):
        for dt in (sg.float32, sg.float64):
            v = sg.linspace(-1.3, 1.3, n, dtype=dt).numpy()
            assert v[0] == dt.np.type(-1.3) and v[-1] == dt.np.type(1.3)
            step = (dt.np.type(1.3) - dt.np.type(-1.3)) / dt.np.type(n - 1)
            assert np.all(np.abs(np.diff(v) - step) <= 4 * np.spacing(dt.np.type(1.3)))


def test_meshgrid_indexing():
    a, b = sg.arange(2), sg.arange(3)
    gi = sg.meshgrid(a, b, indexing="ij")
    ni = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
    gx = sg.meshgrid(a, b, indexing="xy")
    nx = np.meshgrid(np.arange(2), np.arange(3), indexing="xy")
    for g, n in zip(gi + gx, ni + nx):
        np.testing.assert_array_equal(g.numpy(), n)
    with pytest.warns(UserWarning, match="indexing argument"):
        sg.meshgrid(a, b)


def test_meshgrid_is_differentiable():
    a = sg.tensor([1.0, 2.0], requires_grad=True)
    b = sg.tensor([3.0, 4.0, 5.0], requires_grad=True)
    x, y = sg.meshgrid(a, b, indexing="ij")
    (x * y).sum().backward()
    assert a.grad.tolist() == [12.0, 12.0] and b.grad.tolist() == [3.0, 3.0, 3.0]


# ---------------------------------------------------------------- whole-tensor methods

def test_comparisons_of_whole_tensors():
    x = sg.tensor([1.0, 2.0, float("nan")])
    assert not sg.equal(x, x) and sg.equal(x[:2], sg.tensor([1.0, 2.0]))
    assert not sg.equal(sg.ones(2), sg.ones(3))
    assert sg.isclose(x, x + 1e-9).tolist() == [True, True, False]
    assert sg.isclose(x, x, equal_nan=True).tolist() == [True, True, True]
    assert sg.allclose(sg.ones(2), sg.ones(2) + 1e-7) and not sg.allclose(sg.ones(2), sg.zeros(2))
    assert sg.all(sg.ones(2)).item() and not sg.any(sg.zeros(2)).item()
    assert sg.numel(sg.ones(2, 3)) == 6 and sg.is_tensor(x) and not sg.is_tensor(1.0)


def test_shape_and_dtype_of_another_tensor():
    x, y = sg.arange(6.0), sg.zeros(2, 3, dtype=sg.float64)
    assert x.view_as(y).shape == (2, 3) and x.reshape_as(y).shape == (2, 3)
    assert x.type_as(y).dtype is sg.float64 and x.nelement() == 6 and x.dim() == 1
    assert x.element_size() == 4 and x.is_floating_point() and not sg.arange(2).is_floating_point()


def test_is_contiguous_of_views():
    x = sg.zeros(3, 4)
    assert x.is_contiguous() and x[1:].is_contiguous()
    assert not x.t().is_contiguous() and not x[:, 1:].is_contiguous()
    assert not x[:, 1].is_contiguous() and not x[::2].is_contiguous()


def test_settable_data_changes_value_not_history():
    w = sg.zeros(3, requires_grad=True)
    w.data = sg.ones(3)
    assert w.is_leaf and w.requires_grad and w.tolist() == [1.0, 1.0, 1.0]
    w.data -= 0.25
    assert w.tolist() == [0.75, 0.75, 0.75]
    (w * w).sum().backward()
    assert w.grad.tolist() == [1.5, 1.5, 1.5]


def test_format_and_print_options():
    loss = sg.tensor(0.123456)
    # a 0-d tensor formats its number (torch's Tensor.__format__), others print as tensors
    assert f"{loss:.4f}" == "0.1235" and f"{loss}" == str(loss.item())
    assert f"{sg.ones(2)}" == repr(sg.ones(2))
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{sg.ones(2):.2f}"
    try:
        sg.set_printoptions(precision=2)
        assert repr(sg.tensor([1.2345, 2.5])) == "tensor([1.23, 2.50])"
        sg.set_printoptions(sci_mode=True)
        assert repr(sg.tensor([1.5])) == "tensor([1.50e+00])"
    finally:
        sg.set_printoptions(profile="default")
    assert repr(sg.tensor([1.2345])) == "tensor([1.2345])"


def test_suffixes_wrap_onto_a_new_line_past_the_line_width():
    x = (sg.arange(12.0).reshape(3, 4) * 1000.125).requires_grad_()
    text = repr(x * 1)
    assert text.endswith("11001.3750]],\n       grad_fn=<MulBackward0>)")
    assert repr(sg.ones(2, requires_grad=True) * 1) == "tensor([1., 1.], grad_fn=<MulBackward0>)"


def test_shape_errors_are_runtime_errors():
    with pytest.raises(RuntimeError):
        sg.ones(2) + sg.ones(3)
    with pytest.raises(ValueError):   # and still ValueErrors, as before
        sg.ones(2) + sg.ones(3)


# ---------------------------------------------------------------- against torch

torch_cases = [
    "X.linspace(-1, 1, 25, dtype=X.float64)", "X.linspace(-1, 1, 7)",
    "X.linspace(-3.3, 17.1, 100)", "X.linspace(0, 1, 1000, dtype=X.float64)",
    "X.logspace(-2, 3, 17, dtype=X.float64)", "X.logspace(0, 1, 1, dtype=X.float64)",
    "X.eye(3, 2)", "X.arange(0, 1, 0.1)", "X.Tensor([[1, 2], [3, 4]])",
]


@pytest.mark.parametrize("expr", torch_cases)
def test_factories_bit_identical_to_torch(expr):
    torch = pytest.importorskip("torch")
    a = eval(expr.replace("X.", "torch.")).numpy()
    b = eval(expr.replace("X.", "sg.")).numpy()
    assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.parametrize("expr", [
    "X.arange(12.).reshape(3, 4).requires_grad_() * 1000.123",
    "X.linspace(-1, 1, 25, dtype=X.float64).reshape(5, 5) * 3.3",
    "X.arange(9.).reshape(1, 9).requires_grad_() * 1234.5678",
    "X.ones(3, dtype=X.float64, requires_grad=True) * 2", "X.zeros(2, 3).shape",
    "X.float64", "X.device('cpu')", "X.finfo(X.float32).eps",
    "X.zeros(2, 3)[:, 1:].is_contiguous()",
])
def test_printed_text_matches_torch(expr):
    torch = pytest.importorskip("torch")
    assert repr(eval(expr.replace("X.", "sg."))) == repr(eval(expr.replace("X.", "torch.")))


def test_is_contiguous_matches_torch():
    torch = pytest.importorskip("torch")
    for expr in ("x", "x.t()", "x[1:]", "x[:, 1:]", "x[:, 1]", "x[::2]", "x[1]", "x[1:3, :]",
                 "x.unsqueeze(0)", "x.expand(2, 3, 4)", "x.permute(1, 0)"):
        assert eval(expr, {"x": sg.zeros(3, 4)}).is_contiguous() == \
            eval(expr, {"x": torch.zeros(3, 4)}).is_contiguous(), expr


def test_inference_mode_and_bare_grad_mode_decorators():
    @sg.no_grad
    def f(x):
        return x * 2

    @sg.inference_mode
    def g(x):
        return x * 2

    @sg.inference_mode()
    def h(x):
        return x * 2

    w = sg.ones(1, requires_grad=True)
    assert not f(w).requires_grad and not g(w).requires_grad and not h(w).requires_grad
    with sg.inference_mode():
        assert sg.is_inference_mode_enabled() and not sg.is_grad_enabled()
    assert not sg.is_inference_mode_enabled() and sg.is_grad_enabled()
    with sg.inference_mode(False):
        assert (w * 2).requires_grad


GRAD_FN_NAMES = [  # torch 2.13's names (checked against torch below when it is installed)
    ("3 - x", "RsubBackward1"), ("4 / x", "MulBackward0"), ("x.max(1).values", "MaxBackward0"),
    ("x.norm()", "LinalgVectorNormBackward0"), ("x.norm(dim=1)", "LinalgVectorNormBackward0"),
    ("x @ v", "MvBackward0"), ("v @ v", "DotBackward0"), ("v @ y", "SqueezeBackward4"),
    ("x @ y", "MmBackward0"), ("b @ b.transpose(1, 2)", "UnsafeViewBackward0"),
    ("b @ y", "UnsafeViewBackward0"), ("L.bmm(b, b.transpose(1, 2))", "BmmBackward0"),
    ("x.t()", "TBackward0"), ("x.squeeze()", "SqueezeBackward0"),
    ("x.squeeze(0)", "SqueezeBackward1"), ("L.stack([x, x])", "StackBackward0")]


def _env(lib):
    return {"L": lib, "x": lib.ones(2, 3, requires_grad=True) * 1.5,
            "y": lib.ones(3, 2, requires_grad=True), "v": lib.ones(3, requires_grad=True),
            "b": lib.ones(4, 2, 3, requires_grad=True)}


@pytest.mark.parametrize("expr,name", GRAD_FN_NAMES)
def test_grad_fn_names(expr, name):
    assert type(eval(expr, _env(sg)).grad_fn).__name__ == name


@pytest.mark.parametrize("expr,name", GRAD_FN_NAMES)
def test_grad_fn_names_match_torch(expr, name):
    torch = pytest.importorskip("torch")
    assert type(eval(expr, _env(torch)).grad_fn).__name__ == name


def test_reflected_division_rounds_like_torch():
    x = np.array([3.0, 7.0, 0.1, 1e-3], np.float32)
    want = np.float32(4) * (np.float32(1) / x)   # torch: x.reciprocal() * 4
    np.testing.assert_array_equal((4 / sg.tensor(x)).numpy(), want)


@pytest.mark.parametrize("a,b,message", [
    ((2, 3), (4,), r"size mismatch, got input \(2\), mat \(2x3\), vec \(4\)"),
    ((4,), (3, 2), r"mat1 and mat2 shapes cannot be multiplied \(1x4 and 3x2\)"),
    ((2, 2, 3), (4, 5), r"mat1 and mat2 shapes cannot be multiplied \(4x3 and 4x5\)"),
    ((4,), (3,), r"inconsistent tensor size, expected tensor \[4\] and src \[3\]")])
def test_matmul_shape_errors_are_torchs(a, b, message):
    with pytest.raises(RuntimeError, match=message):
        sg.ones(*a) @ sg.ones(*b)
