"""int8, int16, int32, uint8 and float16 (dtypes.py's storage types): torch's promotion, names
and printing; eager arithmetic wraps as NumPy's and torch's; compiled code computes in int64
and rounds back, giving the eager values bit for bit; float16 is refused by compiled code."""

import numpy as np
import pytest

import symgrad as sg

NARROW = [sg.int8, sg.int16, sg.int32, sg.uint8]


def _ops(a, b):
    c = a * b + 3
    return (c, c.max(), c // 2, c % 7, c > 5, c.sum(), a.float() * 2, sg.where(a > 1, a, b),
            -a, a.abs(), sg.maximum(a, b), c.cumsum(0), a[1:], sg.cat([a, b]))


@pytest.mark.parametrize("dtype", NARROW, ids=lambda d: d.name)
def test_compiled_matches_eager_bit_for_bit(dtype):
    a = sg.tensor([1, 2, 100, 7], dtype=dtype)
    b = sg.tensor([3, 120, 2, 9], dtype=dtype)
    eager = _ops(a, b)
    compiled = sg.compile(_ops)(a, b)
    for e, c in zip(eager, compiled):
        c = np.asarray(c)
        assert e.numpy().dtype == c.dtype
        np.testing.assert_array_equal(e.numpy(), c)


@pytest.mark.parametrize("dtype", NARROW, ids=lambda d: d.name)
def test_eager_arithmetic_wraps_like_numpy(dtype):
    a = np.array([1, 2, 100, 7], dtype=dtype.np)
    b = np.array([3, 120, 2, 9], dtype=dtype.np)
    got = (sg.tensor(a) * sg.tensor(b) + sg.tensor(a)).numpy()
    assert got.dtype == dtype.np
    np.testing.assert_array_equal(got, a * b + a)


def test_promotion_and_names():
    i8, u8 = sg.tensor([1], dtype=sg.int8), sg.tensor([1], dtype=sg.uint8)
    i32 = sg.tensor([1], dtype=sg.int32)
    assert (i8 + u8).dtype is sg.int16 and (u8 + i32).dtype is sg.int32
    assert (i32 + 1).dtype is sg.int32 and (i32 + sg.tensor(1)).dtype is sg.int32
    assert (i32 + sg.tensor([1])).dtype is sg.int64 and (i32 * 1.5).dtype is sg.float32
    assert (i32 > 0).dtype is sg.bool and i32.sum().dtype is sg.int64
    assert sg.int is sg.int32 and sg.half is sg.float16 and sg.short is sg.int16
    assert sg.byte is sg.uint8 and sg.char is sg.int8
    assert sg.ones(2).int().dtype is sg.int32 and sg.ones(2).half().dtype is sg.float16
    assert repr(sg.zeros(2, dtype=sg.int32)) == "tensor([0, 0], dtype=torch.int32)"
    assert sg.iinfo(sg.int8).min == -128 and sg.finfo(sg.float16).max == 65504.0


def test_float16_rounds_once_per_op_and_is_refused_compiled():
    x = sg.tensor([1.5, 2.25, 1000.0], dtype=sg.float16)
    y = x * x
    assert y.dtype is sg.float16 and y.tolist() == [2.25, 5.0625, float("inf")]
    with pytest.raises(TypeError, match="float16 tensors work eagerly but not yet in compiled"):
        sg.compile(lambda t: (t.float() * 2).half())(x.float())
    # a float16 value inside a fused loop (no float16 buffer) is refused too: its C type is
    # the storage uint16_t, so a cast there would truncate to an integer (atan2 was ~1.5708)
    a = sg.tensor([-1.0, 2.0, 0.5])
    for fn in (lambda t: sg.atan2(t.half(), t), lambda t: (t.half().sum() * t).float()):
        with pytest.raises(TypeError, match="float16 tensors work eagerly but not yet in"):
            sg.compile(fn)(a)
    # a float16 argument arrives as float32 (lossless)
    out = sg.compile(lambda t: t * t)(x)
    assert out.dtype == np.float32 and out.tolist() == [2.25, 5.0625, 1e6]


def test_counting_into_an_int32_matrix():
    n = sg.zeros((3, 3), dtype=sg.int32)
    for i, j in [(0, 1), (0, 1), (2, 2)]:
        n[i, j] += 1
    assert n.dtype is sg.int32 and n.tolist() == [[0, 2, 0], [0, 0, 0], [0, 0, 1]]
    assert (n + 1).float().sum(1).tolist() == [5.0, 3.0, 4.0]


def test_against_torch():
    torch = pytest.importorskip("torch")
    names = ["int8", "int16", "int32", "int64", "uint8", "float16", "float32", "bool"]
    for a in names:
        for b in names:
            ta = torch.ones(2, dtype=getattr(torch, a))
            tb = torch.ones(2, dtype=getattr(torch, b))
            sa = sg.ones(2, dtype=getattr(sg, a if a != "bool" else "bool"))
            sb = sg.ones(2, dtype=getattr(sg, b))
            assert str((sa + sb).dtype) == str((ta + tb).dtype), (a, b)
            assert str((sa * 3).dtype) == str((ta * 3).dtype)
    v = np.array([-100, -1, 0, 1, 100, 127], dtype=np.int8)
    for op in (lambda t: t * 3, lambda t: t // 3, lambda t: t % 3, lambda t: t.abs()):
        np.testing.assert_array_equal(op(sg.tensor(v)).numpy(), op(torch.tensor(v)).numpy())
    h = np.array([0.1, 1000.0, 3.14159, 65000.0], dtype=np.float16)
    assert sg.tensor(h).dtype is sg.float16 and sg.tensor(h.astype(np.float32)).dtype is sg.float32
    for op in (lambda t: t * t, lambda t: t.exp(), lambda t: t / 3):
        np.testing.assert_array_equal(op(sg.tensor(h)).numpy(), op(torch.tensor(h)).numpy())


# (name, is_signed, is_floating_point, itemsize): torch 2.13's answers, written down by hand.
TORCH_FACTS = [("bool", False, False, 1), ("uint8", False, False, 1), ("int8", True, False, 1),
               ("int16", True, False, 2), ("int32", True, False, 4), ("int64", True, False, 8),
               ("float16", True, True, 2), ("float32", True, True, 4),
               ("float64", True, True, 8)]


@pytest.mark.parametrize("name, signed, floating, itemsize", TORCH_FACTS)
def test_dtype_facts_are_torchs(name, signed, floating, itemsize):
    d = getattr(sg, name)
    assert (d.is_signed, d.is_floating_point, d.itemsize) == (signed, floating, itemsize)
    assert not d.is_complex and d.real_dtype is d


@pytest.mark.parametrize("name", [f[0] for f in TORCH_FACTS])
def test_dtype_facts_match_torch(name):
    torch = pytest.importorskip("torch")
    d, t = getattr(sg, name), getattr(torch, name)
    assert (d.is_signed, d.is_floating_point, d.itemsize, d.is_complex) == \
        (t.is_signed, t.is_floating_point, t.itemsize, t.is_complex)


def test_dtype_is_the_one_source_of_numeric_policy():
    """Kinds, what ops compute in, what sums accumulate in (float32 in float64, as the C
    kernels and torch's CPU sums do; integers in int64)."""
    assert [d.kind for d in (sg.bool, sg.uint8, sg.int32, sg.float16, sg.float64)] == \
        ["bool", "uint", "int", "float", "float"]
    assert sg.float32.accumulates_in is sg.float64 and sg.float64.accumulates_in is sg.float64
    assert sg.int8.accumulates_in is sg.int64 and sg.bool.accumulates_in is sg.int64
    assert sg.int16.computes_in is sg.int64 and sg.float16.computes_in is sg.float32
    assert sg.uint8.is_integer and sg.int64.is_integer and not sg.bool.is_integer
    assert [d.category for d in (sg.bool, sg.uint8, sg.int64, sg.float32)] == [0, 1, 1, 2]
    # a float32 sum accumulates in double and rounds once: the float64 sum, rounded
    x = np.random.default_rng(5).standard_normal(100_003).astype(np.float32) * 1e3
    want = np.float32(x.astype(np.float64).sum())
    assert sg.compile(lambda v: v.sum())(x) == want
    assert np.cumsum(x)[-1] != want      # (a float32 running sum rounds at every step)
