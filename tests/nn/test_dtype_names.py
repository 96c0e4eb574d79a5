"""Dtype names in error messages as torch 2.13 spells them: the ScalarType name (``Int``,
``ComplexDouble``) in kernel and argument checks, the C++ name (``long int``,
``c10::complex<float>``) where torch prints one, ``torch.ByteTensor``/``CPUBoolType`` in
embedding's index check. Each call's exception and message are stored from torch 2.13 (the
tests mean something without torch) and, with torch installed, compared live too.
"""

import numpy as np  # noqa: F401  (the calls' namespace)
import pytest

import symgrad as sg
import symgrad.nn.functional as F

CASES = [
    ('F.rrelu(T((3,), c128))',
     NotImplementedError, '"leaky_relu_cpu" not implemented for \'ComplexDouble\''),
    ('F.rrelu(T((3,), c64), training=True)',
     NotImplementedError, '"rrelu_with_noise_out_cpu" not implemented for \'ComplexFloat\''),
    ('F.rrelu(T((3,), i32))',
     NotImplementedError, '"leaky_relu_cpu" not implemented for \'Int\''),
    ('F.prelu(T((3,), f32), T((1,), c128))',
     RuntimeError, 'prelu: Type promoting not supported. Got Float and ComplexDouble'),
    ('F.softshrink(T((3,), f16), -1.0)',
     RuntimeError, 'lambda must be in range [0, 65504] for input dtype Half, but found -1'),
    ('F.nll_loss(T((2, 3), f32), T((2,), c64))',
     RuntimeError, 'expected target dtype to be Long or Byte, but got ComplexFloat'),
    ('F.nll_loss(T((2, 3), f32), T((2,), i64), weight=T((3,), f64))',
     RuntimeError, 'expected scalar type Float but found Double'),
    ('F.adaptive_max_pool2d(T((1, 3, 3), u8), 2)',
     NotImplementedError, '"adaptive_max_pool2d" not implemented for \'Byte\''),
    ('F.adaptive_max_pool3d(T((1, 3, 3, 3), c64), 2)',
     NotImplementedError, '"adaptive_max_pool3d_cpu" not implemented for \'ComplexFloat\''),
    ('F.adaptive_avg_pool3d(T((1, 3, 3, 3), i16), 2)',
     NotImplementedError, '"adaptive_avg_pool3d_cpu" not implemented for \'Short\''),
    ('F.max_unpool2d(T((1, 1, 2, 2), f32), T((1, 1, 2, 2), f16), 2)',
     RuntimeError, 'elements in indices should be type int64 but got: Half'),
    ('F.max_unpool2d(T((1, 1, 2, 2), i8), T((1, 1, 2, 2), i64), 2)',
     NotImplementedError, '"max_unpool2d" not implemented for \'Char\''),
    ('F.conv2d(T((1, 1, 3, 3), f32), T((1, 1, 2, 2), i64))',
     RuntimeError, 'expected scalar type Float but found Long'),
    ('F.conv2d(T((1, 1, 3, 3), f32), T((1, 1, 2, 2), f32), T((1,), c128))',
     RuntimeError, 'Input type (float) and bias type (c10::complex<double>) should be the same'),
    ('F.embedding(T((2,), u8), T((3, 2), f32))',
     RuntimeError, "Expected tensor for argument #1 'indices' to have one of the following scalar"
                   ' types: Long, Int; but got torch.ByteTensor instead (while checking arguments'
                   ' for embedding)'),
    ('F.embedding(T((2,), b), T((3, 2), f32))',
     RuntimeError, "Expected tensor for argument #1 'indices' to have one of the following scalar"
                   ' types: Long, Int; but got CPUBoolType instead (while checking arguments for '
                   'embedding)'),
    ('F.embedding(T((2,), c64), T((3, 2), f32))',
     RuntimeError, "Expected tensor for argument #1 'indices' to have one of the following scalar"
                   ' types: Long, Int; but got CPUComplexFloatType instead (while checking argume'
                   'nts for embedding)'),
    ('F.embedding_bag(T((2, 2), c128), T((3, 2), f32))',
     NotImplementedError, '"arange_cpu" not implemented for \'ComplexDouble\''),
    ('F.scaled_dot_product_attention(T((1, 2, 2), c64), T((1, 2, 2), f32), T((1, 2, 2), f32))',
     RuntimeError, 'Expected query, key, and value to have the same dtype, but got query.dtype: c'
                   '10::complex<float> key.dtype: float and value.dtype: float instead.'),
    ('F.scaled_dot_product_attention(T((1, 2, 2), f32), T((1, 2, 2), f32), T((1, 2, 2), f32), att'
     'n_mask=T((2, 2), f64))',
     RuntimeError, 'Expected attn_mask dtype to be bool or float or to match query dtype, but got'
                   ' attn_mask.dtype: double and  query.dtype: float instead.'),
    ('T((3,), f16).uniform_(-1e300, 1e300)',
     RuntimeError, 'from is out of bounds for c10::Half'),
    ('torch.linalg.lstsq(T((3, 2), i32), T((3, 1), f32))',
     RuntimeError, 'torch.linalg.lstsq: Expected input and other to have the same dtype, but got '
                   "input's dtype Int and other's dtype Float"),
    ('torch.linalg.lstsq(T((3, 2), i64), T((3, 1), i64))',
     RuntimeError, "This function doesn't handle types other than float and double"),
    ('torch.var(T((3,), i64))',
     RuntimeError, 'std and var only support floating point and complex dtypes'),
    ('torch.nanmean(T((3,), u8))',
     RuntimeError, 'nanmean(): expected input to have floating point or complex dtype but got Byt'
                   'e'),
    ('torch.cdist(T((2, 2), c64), T((2, 2), c64))',
     RuntimeError, 'cdist only supports floating-point dtypes, X1 got: ComplexFloat'),
    ('torch.histc(T((3,), i32))',
     NotImplementedError, '"histogram_cpu" not implemented for \'Int\''),
    ('torch.histc(T((3,), c128))',
     NotImplementedError, '"aminmax_cpu" not implemented for \'ComplexDouble\''),
    ('T((3,), f32).masked_scatter(T((3,), f16), T((3,), f32))',
     RuntimeError, 'masked_scatter_ only supports boolean masks, but got mask with dtype Half'),
]


def _names(lib):
    ns = {"F": lib.nn.functional if lib is not sg else F, "torch": lib,
          "T": lambda shape, dt: lib.ones(*shape, dtype=dt)}
    for short, name in (("f32", "float32"), ("f64", "float64"), ("f16", "float16"),
                        ("i64", "int64"), ("i32", "int32"), ("i16", "int16"), ("i8", "int8"),
                        ("u8", "uint8"), ("b", "bool"), ("c64", "complex64"),
                        ("c128", "complex128")):
        ns[short] = getattr(lib, name)
    return ns


@pytest.mark.parametrize("call, kind, message", CASES, ids=[c[0] for c in CASES])
def test_message_as_torch_213(call, kind, message):
    with pytest.raises(kind) as info:
        eval(call, _names(sg))
    assert str(info.value) == message


@pytest.mark.parametrize("call", [c[0] for c in CASES])
def test_message_as_live_torch(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        eval(call, _names(torch))
    with pytest.raises(type(theirs.value)) as mine:
        eval(call, _names(sg))
    assert str(mine.value) == str(theirs.value)
