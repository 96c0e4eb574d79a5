"""float16 as torch's CPU kernels compute it, where the op sweep does not look: gradients of
float16 tensors (a kernel's backward computes in float32 and rounds once; a derivative
formula runs op by op in float16), the operands a node saves as given (``atan2(x16, y32)``
rounds ``x * x`` to float16 in its backward; float32 with float64 likewise), in-place ops of
a promoted type (their formula reads the float16 cotangent and result), float16 scans and
sums accumulating in float32.

Each case is checked bit for bit against torch's results stored below (written by
``python tests/frontend/test_float16_opmath.py --store`` from torch 2.13), against torch live
when it is installed, and the mechanisms against NumPy oracles written out here.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

import symgrad

BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _data(shape, lo, hi, dtype, k):
    """Deterministic values in (lo, hi) (no random stream: the stored results depend on them)."""
    n = int(np.prod(shape))
    u = (np.sin(np.arange(n) * 1.618 + 0.7 * k) + 1.0) / 2.0
    return (lo + (hi - lo) * u).reshape(shape).astype(dtype)


def _f(m):
    return m.nn.functional


# name -> (function of (module, *tensors), [(shape, lo, hi, dtype, requires_grad)])
CASES = {
    "gelu": (lambda m, a: _f(m).gelu(a), [((24,), -3, 3, np.float16, True)]),
    "gelu_tanh": (lambda m, a: _f(m).gelu(a, approximate="tanh"),
                  [((24,), -3, 3, np.float16, True)]),
    "silu": (lambda m, a: _f(m).silu(a), [((24,), -3, 3, np.float16, True)]),
    "softmax": (lambda m, a: m.softmax(a, -1), [((4, 7), -3, 3, np.float16, True)]),
    "addcmul": (lambda m, a, b, c: m.addcmul(a, b, c, value=0.7),
                [((20,), -2, 2, np.float16, True)] * 3),
    "avg_pool2d": (lambda m, a: _f(m).avg_pool2d(a, 3, 1), [((1, 2, 5, 5), -2, 2, np.float16,
                                                             True)]),
    "sdpa": (lambda m, q, k, v: _f(m).scaled_dot_product_attention(q, k, v),
             [((2, 3, 4), -2, 2, np.float16, True), ((2, 5, 4), -2, 2, np.float16, True),
              ((2, 5, 4), -2, 2, np.float16, True)]),
    "atan2_16_32": (lambda m, a, b: m.atan2(a, b), [((20,), -2, 2, np.float16, True),
                                                   ((20,), -2, 2, np.float32, True)]),
    "atan2_32_64": (lambda m, a, b: m.atan2(a, b), [((20,), -2, 2, np.float32, True),
                                                   ((20,), -2, 2, np.float64, True)]),
    "mul_inplace": (lambda m, a, b: a.clone().mul_(b), [((20,), -2, 2, np.float16, True),
                                                       ((20,), -2, 2, np.float32, True)]),
    "div_inplace": (lambda m, a, b: a.clone().div_(b), [((20,), -2, 2, np.float16, True),
                                                       ((20,), 0.3, 2, np.float32, True)]),
    "pow_inplace": (lambda m, a, b: a.clone().pow_(b), [((20,), 0.2, 2, np.float16, True),
                                                       ((20,), -2, 2, np.float32, True)]),
    "cumsum": (lambda m, a: a.cumsum(1), [((3, 40), -2, 2, np.float16, True)]),
    "sum": (lambda m, a: a.sum(), [((3000,), 0, 2, np.float16, False)]),
}


def _run(m, name):
    fn, specs = CASES[name]
    ts = [m.tensor(_data(s, lo, hi, dt, k)) for k, (s, lo, hi, dt, _) in enumerate(specs)]
    for t, spec in zip(ts, specs):
        t.requires_grad_(spec[4])
    out = fn(m, *ts)
    results = [out.detach().numpy()]
    if out.requires_grad:
        dtype = out.detach().numpy().dtype
        w = (1 + (np.arange(out.numel()) % 7) * 0.25).reshape(tuple(out.shape)).astype(dtype)
        (out * m.tensor(w)).sum().backward()
        results += [t.grad.numpy() for t in ts if t.requires_grad]
    return results


def _hex(a: np.ndarray) -> str:
    a = np.ascontiguousarray(a)
    return f"{a.dtype.str[1:]}:" + " ".join(f"{v:x}" for v in a.reshape(-1).view(
        BITS[a.dtype.itemsize]))


def _unhex(text: str) -> np.ndarray:
    kind, words = text.split(":")
    dtype = np.dtype(kind)
    return np.array([int(w, 16) for w in words.split()], BITS[dtype.itemsize]).view(dtype)


# torch's assert_close tolerances (the sweep's): float16's is about one ulp
TOLERANCE = {np.float16: (1e-3, 1e-5), np.float32: (1.3e-6, 1e-5), np.float64: (1e-7, 1e-7)}


def _assert_close(mine: list, theirs: list) -> None:
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        assert a.dtype == b.dtype
        rtol, atol = TOLERANCE[b.dtype.type]
        np.testing.assert_allclose(a.reshape(-1).astype(np.float64),
                                   b.astype(np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_as_torch_stored(name):
    _assert_close(_run(symgrad, name), [_unhex(t) for t in STORED[name]])


@pytest.mark.parametrize("name", sorted(CASES))
def test_as_torch_live(name):
    torch = pytest.importorskip("torch")
    _assert_close(_run(symgrad, name), [r.reshape(-1) for r in _run(torch, name)])


def test_saved_operand_keeps_its_dtype():
    """atan2(x16, y32): y's gradient is g * -x / (x*x + y*y) with x*x rounded to float16
    (torch's formula on its saved float16 operand); the oracle without that rounding differs
    on these values, so the test tells the two apart."""
    x, y = _data((20,), -2, 2, np.float16, 0), _data((20,), -2, 2, np.float32, 1)
    g = (1 + (np.arange(20) % 7) * 0.25).astype(np.float32)
    xs = x.astype(np.float32)
    rounded = g * -xs * (np.float32(1) / ((x * x).astype(np.float32) + y * y))
    exact = g * -xs * (np.float32(1) / (xs * xs + y * y))
    assert not np.array_equal(rounded, exact)
    grad = _run(symgrad, "atan2_16_32")[2]
    np.testing.assert_allclose(grad, rounded, rtol=2e-7, atol=0)


def test_inplace_formula_reads_the_float16_cotangent():
    """x16.mul_(y32): y's gradient is the float16 product g16 * x16, then cast to float32."""
    x, y = _data((20,), -2, 2, np.float16, 0), _data((20,), -2, 2, np.float32, 1)
    g = (1 + (np.arange(20) % 7) * 0.25).astype(np.float16)
    assert np.array_equal(_run(symgrad, "mul_inplace")[2], (g * x).astype(np.float32))
    assert not np.array_equal((g * x).astype(np.float32),
                              g.astype(np.float32) * x.astype(np.float32))
    del y


def test_kernel_backward_rounds_once():
    """gelu's float16 gradient is torch's gelu_backward kernel: computed in float64 here and
    rounded once to float16, it agrees to an ulp everywhere and exactly almost everywhere."""
    from math import erf, exp, pi, sqrt
    x = _data((24,), -3, 3, np.float16, 0).astype(np.float64)
    w = 1 + (np.arange(24) % 7) * 0.25
    d = np.array([0.5 * (1 + erf(v / sqrt(2))) + v * exp(-v * v / 2) / sqrt(2 * pi) for v in x])
    oracle = (w * d).astype(np.float16)
    got = _run(symgrad, "gelu")[1]
    ulps = np.abs(got.view(np.int16).astype(int) - oracle.view(np.int16).astype(int))
    assert ulps.max() <= 1 and (ulps == 0).mean() > 0.9


def _wrapped(text: str) -> str:
    """``text`` as a Python string literal in lines of at most 100 characters."""
    words, parts, line = text.split(" "), [], ""
    for w in words:
        if len(line) + len(w) > 80:
            parts.append(line)
            line = ""
        line += w + " "
    parts.append(line.rstrip())
    return "        (" + "\n         ".join(repr(x) for x in parts) + "),"


def _store() -> None:
    import torch
    lines = ["STORED = {"]
    for name in sorted(CASES):
        lines.append(f"    {name!r}: [")
        lines += [_wrapped(_hex(r)) for r in _run(torch, name)]
        lines.append("    ],")
    lines.append("}")
    text = open(__file__).read()
    head = text[:text.index(MARK)]
    with open(__file__, "w") as f:
        f.write(head + MARK + " by --store from torch " + torch.__version__.split("+")[0]
                + "\n" + "\n".join(lines) + "\n\n\nif __name__ == \"__main__\" and \"--store\" in "
                "sys.argv:\n    _store()\n")


MARK = "# ----" + " stored"
# ---- stored by --store from torch 2.13.0
STORED = {
    'addcmul': [
        ('f2:3f1c 4081 3f36 bfb3 4119 3f58 3f07 c03e 424d 3e13 3e38 c022 4314 3d51 3cc1 '
         'bf02 4361 3d1b 396b bccc'),
        ('f2:3c00 3d00 3e00 3f00 4000 4080 4100 3c00 3d00 3e00 3f00 4000 4080 4100 3c00 '
         '3d00 3e00 3f00 4000 4080'),
        ('f2:3d85 32e8 c030 ac93 419a b292 c2f4 331f 3eda b839 c0ae 3ba7 41d0 bdff bcf1 '
         '3b2a 3f02 bdc9 c05c 402f'),
        ('f2:3b37 3d22 bdfe be88 4059 3f78 c1d4 b9c4 3e2b 3b40 c084 bbb6 4203 3b20 bd7a '
         'b489 402c 315b c19a 2d42'),
    ],
    'atan2_16_32': [
        ('f4:0 3f6ffa50 c040a82c c00a7340 3e72f9d8 3f82f417 c03452e8 c0046a05 3ecaf16c '
         '3f9077d6 c02bbb9d bff9659a 3f032a8a 3fa2736a c02531c4 bfe3f4a9 3f1aa534 3fbc8608 '
         'c01fd4be bfc3b7aa'),
        ('f2:3a36 34c6 bc22 b68e 3cde 381d bd66 b31a 38d5 3518 ba1c b651 3b2b 36f1 b5de '
         'b15f 3817 2fd9 b91e 2cd0'),
        ('f4:80000000 bed01a2b 3e0bbffc 3f1bc19b be96aeda bf57e09f 3ee818a2 3ed0dfa3 '
         'be81637c bf2c297b 3ec0df8f 3f7ebb1d bf01000a bfb2812b 3e6bb298 3f497666 beb4b812 '
         'bf9fb00b 3ef5eb72 3fe65bec'),
    ],
    'atan2_32_64': [
        ('f8:0 3fedfec06c088839 c00814f0aeebb5a2 c0014e2c256dd908 3fce5d432544251a '
         '3ff05eb718fa0b93 c0068a90222f38c7 c0008d288b1cba51 3fd95f371de69a30 '
         '3ff20eef7763015d c00577409bceb056 bfff2ca5e2396db0 3fe06568632a8cf9 '
         '3ff44eab131484d8 c004a630e8e07cc7 bffc7ebbe268027e 3fe35442b840af0f '
         '3ff790d1c6f411db c003fa7bb6362983 bff876f7c4a42bd5'),
        ('f4:3f46b0cb 3e98d6ac bf843fb9 bed19cde 3f9bc612 3f03add2 bfacc3af be632fef '
         '3f1a8fe3 3ea2fee0 bf437ad1 beca1c9c 3f6551bc 3ede08be bebbc9ca be2be245 3f02ef9c '
         '3dfaf0d7 bf23aefa 3d99f72f'),
        ('f8:8000000000000000 bfda038a67cdbdb4 3fc17951da1ff09b 3fe3775eecae6b54 '
         'bfd2d4ba89dff035 bfeafccc951c6a1a 3fdd00fde19e9c47 3fda1b82f74a6011 '
         'bfd02cc4f81e9d78 bfe584d26fcc1a4e 3fd81cf0f4e999bc 3fefd90342c7abdc '
         'bfe01fa50d560387 bff64e07b1dd148b 3fcd76684013056a 3fe92ed8956b5309 '
         'bfd696c8ffe83bf5 bff3f3fb45826d6b 3fdebdab6337ca97 3ffccb0df12f47b2'),
    ],
    'avg_pool2d': [
        ('f2:a7a7 ae7c 2910 adf4 2b5b 2d9b 2cb4 2cc4 ad27 a1e9 2ed9 15cb 2ecc a4ca aeb0 '
         'a8e2 ae48 2a15'),
        ('f2:2f1c 3400 36aa 34e4 3155 34e4 3955 3c55 3a39 36aa 38ab 3c39 3e72 3c1c 3872 '
         '378e 3a72 3cc7 39c6 3639 3472 3639 3839 3400 3072 3155 35c7 38aa 36aa 331c 36aa '
         '3b1d 3ce4 3a72 3555 3872 3cc8 3ee4 3cab 3839 3639 3aab 3c8e 3a00 34e4 3072 34e4 '
         '3800 35c7 3239'),
    ],
    'cumsum': [
        ('f2:0 3ffe 3f3d b170 3294 404d 3e5d b4d0 36fc 4084 3d66 b630 397e 40a4 3c60 b6d0 '
         '3b90 40ac 3aaa b6a4 3cd2 409a 389e b5b0 3dd3 4070 355c b3f8 3ec2 402e 2f4c ae70 '
         '3f95 3fb0 acf4 2d72 4023 3ee0 b367 34d7 3f9a 3cc0 b92a 33b4 3ff6 3b83 b9b1 37ee '
         '4010 3971 b9d3 3a0d 400d 36ba b993 3c0e 3fe0 3168 b8ef 3d08 3f77 ac30 b7df 3deb '
         '3ee2 b462 b538 3eb2 3e26 b72f afff 3f53 3d4b b8af 2e99 3fc9 3c56 b96d 359a 4008 '
         'bcbe c17a bda0 2540 bdc9 c178 bc95 9f00 bed0 c15d bb26 ad60 bfcc c12a b944 b298 '
         'c059 c0e1 b72b b5ea c0bd c085 b452 b88c c10f c018 b028 ba5a c14c bf3c a860 bc29 '
         'c170 be37 2400 bd30 c17c bd2c 2400 be3a'),
        ('f2:544c 543c 5428 5410 53e8 53a8 5360 5310 52f0 52c8 5298 5260 5220 51d8 5188 '
         '5168 5140 5110 50d8 5098 5050 5000 4fc0 4f70 4f10 4ea0 4e20 4d90 4cf0 4cb0 4c60 '
         '4c00 4b20 4a20 4900 4780 4680 4540 4380 4000 545c 5438 5410 5400 53d8 53a8 5370 '
         '5330 52e8 5298 5278 5250 5220 51e8 51a8 5160 5110 50f0 50c8 5098 5060 5020 4fb0 '
         '4f10 4ed0 4e80 4e20 4db0 4d30 4ca0 4c00 4b80 4ae0 4a20 4940 4840 4640 4380 4180 '
         '3e00 546c 5450 5430 540c 53c8 53a8 5380 5350 5318 52d8 5290 5240 5220 51f8 51c8 '
         '5190 5150 5108 50b8 5098 5070 5040 5008 4f90 4f00 4e60 4e20 4dd0 4d70 4d00 4c80 '
         '4be0 4aa0 4a20 4980 48c0 47c0 45c0 4300 3c00'),
    ],
    'div_inplace': [
        ('f2:0 3c82 b58c c2c8 32a4 3cb4 bd0e c14f 3637 3cce c0f5 c00d 3861 3cc9 c3b4 be01 '
         '3980 3c9a c501 bc42'),
        ('f2:38b6 39a3 4185 41ff 3c6c 3d71 45a6 3d9d 3944 3bea 44c6 40aa 3c97 3f52 4247 '
         '3cf0 3a04 3dcb 46aa 3fae'),
        ('f4:80000000 bf4b4463 3f74f382 4122b132 be6ac32c bfccad14 40e45d8a 406e547d '
         'be82e402 bf981be4 413d53e0 40973329 bf20c40e c00c23e2 41416a28 3fed431f bf045fc5 '
         'bfd54cdd 42055695 4002cdb8'),
    ],
    'gelu': [
        ('f2:0 41fc af08 9c85 366d 41d2 b164 9e99 3baa 4173 af88 a21f 3e19 40df abb9 a69c '
         '4008 4017 a6fb ab55 40d3 3e3e a276 af40'),
        ('f2:3800 3d0f 36ba a5c6 3f3d 4091 ad83 a496 3d86 3e23 b330 abc2 410d 4135 ae87 '
         'ac83 3e7a 3f89 af87 b31f 4137 3c7b a913 b22f'),
    ],
    'gelu_tanh': [
        ('f2:0 41fc af08 9c16 366d 41d3 b165 9e21 3ba9 4173 af8c a1e2 3e18 40df abba a686 '
         '4008 4017 a6e7 ab55 40d3 3e3d a239 af43'),
        ('f2:3800 3d0f 36bb a59f 3f3d 4091 ad75 a489 3d86 3e23 b330 abcc 410d 4135 ae94 '
         'ac91 3e7b 3f8a af9f b32d 4138 3c7b a91a b230'),
    ],
    'mul_inplace': [
        ('f2:0 41dd 344e 4147 38aa 409d 3b72 3fc9 3d32 3e4a 3eb4 3cc9 4018 3aa7 40cd 37e1 '
         '4173 3213 4202 ac2a'),
        ('f2:3d27 3f56 c048 c0aa 4236 4156 c429 bc1e 4067 3d2d c273 bd82 444b 3d16 bfd3 '
         'b67b 41f6 33a6 c400 2f82'),
        ('f4:0 401fe000 be90c000 c05dc000 3f404000 408c0000 bfb2e000 bff22000 3f6c0000 '
         '402f0000 bfcba000 c05e4000 401a8000 4082c000 bf9d2000 bff32000 4003a000 401ba000 '
         'c0404000 c033c000'),
    ],
    'pow_inplace': [
        ('f2:3c85 4187 3bd3 4807 3dca 407b 3d42 4430 3f87 3f06 3fe8 4066 40ce 3d73 4280 '
         '3d50 41da 3c4f 458f 3bbf'),
        ('f2:3d4c 4112 c01f d59e 4315 420f c672 cc55 41ca 3cbb c89d c8c1 4684 3b8c c9cf '
         'bd2c 4514 30c6 d28d 32c0'),
        ('f4:3ddbb9d3 4019247d 3cba544e c1b088bc 3f30448c 405b7bba bf0a12c0 c0ba7c30 '
         '3f5813db 3fdbe6c2 bfa3b327 c0a0fdb0 401ee5f9 40046d96 bffab305 bfba3ea7 4017cd42 '
         '3f83a290 c118971f bfac9108'),
    ],
    'sdpa': [
        ('f2:3fd5 add1 bfcc 3466 3fd0 b04b bfc3 3514 3fc9 b21b bfb6 35f7 3cb1 be7f bc14 '
         '3ee1 3ca0 be88 bc02 3ee9 3c85 be97 bbcb 3ef5'),
        ('f2:27a0 a9fd a67e 2a4e aa1c 2cc8 2934 ad09 289d aba1 a7c9 2c01 2a03 2fff ab82 '
         'afa4 a3e9 a955 24f4 2919 27f5 2cd7 a8e3 ac9c'),
        ('f2:a0fa a983 230c 2957 9e97 a3a8 2004 2347 16ff 213e 9977 a11b 1eff 25fb a0a0 '
         'a5c2 1fcb 2640 a113 a602 325c 33a6 b315 b2fc 144a a1b5 59 21b6 ac50 ad4b 2cd0 '
         '2cd7 acb9 ad4a 2d39 2ccc ab7e ac01 2c20 2b3a'),
        ('f2:3f47 4049 40ee 400f 3cb4 3d88 3e5c 3d3e 3985 3a7d 3b76 3a2e 35fd 370a 380b '
         '36bd 321d 332f 3420 32ec 420e 4130 401f 40da 3ebc 3d9d 3c95 3d63 3b0b 39c2 38c8 '
         '39a0 3712 35b6 34c9 35a1 32f6 319c 30b3 3187'),
    ],
    'silu': [
        ('f2:0 41b5 afc7 b0a3 35bd 4188 b40d b106 3aa7 4122 b471 b1bc 3d5e 4085 b408 b2c6 '
         '3f4b 3f6a b2da b3fc 4077 3d81 b1cd b46f'),
        ('f2:3800 3d71 3853 b0fc 3e23 40e9 3502 adf3 3cca 3e93 a7e5 b247 40c2 4180 ad2a '
         'afee 3e8f 3fa9 b253 b1fa 4180 3c3e afe0 a89e'),
    ],
    'softmax': [
        ('f2:2607 378a 248b 14f2 294b 36f5 2137 16c6 2d77 36f2 1f64 1846 3086 3541 1ddb '
         '1b8f 3483 34a3 1bc1 1dae 368d 32d3 1a61 2138 38ff 3024 1904 2466'),
        ('f2:a463 b334 9c24 1c2 21c4 3344 2007 9633 ab45 b1c5 94e3 9cb 2a0e 3225 9dc3 998c '
         'b05e ac57 3f5 160b 32c2 b051 94e2 9589 2cb1 2a16 1632 23a1'),
    ],
    'sum': [
        ('f2:69dd'),
    ],
}


if __name__ == "__main__" and "--store" in sys.argv:
    _store()
