"""symgrad.nn.init.sparse_ and dirac_ as torch 2.13's.

Without torch: sparse_'s values stored from torch 2.13 (a seed, a generator), its zero count
per column and which generator each draw comes from (normals from ``generator=``, the
permutations from the default one); dirac_ against a NumPy identity kernel built by hand;
the errors. With torch: the same bits and generator states for shapes, dtypes (complex
too), sparsities, transposed views, groups and torch's exceptions.
"""

import math

import numpy as np
import pytest

import symgrad as sg
from symgrad.nn import init

# torch 2.13: manual_seed(3); sparse_(empty(5, 4), 0.3)
SEED3 = [[-0.0007664429140277207, 0.0, 0.0, 0.0007152773323468864],
         [0.0, 0.005221869796514511, -0.001668091514147818, 0.0005303340149112046],
         [0.004046071320772171, 0.006112996023148298, 0.007603903766721487, 0.0],
         [0.0, 0.0, 0.024363970384001732, -0.0014680817257612944],
         [0.004851140081882477, 0.0020523436833173037, 0.0, 0.0]]
# torch 2.13: manual_seed(0); sparse_(empty(4, 3, float64), 0.5, std=2.0, generator=Generator
# seeded 7)
GEN7 = [[0.0, 0.0, 1.8936432180079128], [0.0, 3.3815802515884665, -1.7896557583452772],
        [-0.7112500540124272, 0.0, 0.0], [-3.3643969721073375, 0.6353566307959361, 0.0]]


def _state(m):
    return np.asarray(m.get_rng_state().numpy(), np.uint8)


def test_sparse_stored_torch_values():
    sg.manual_seed(3)
    w = sg.empty(5, 4)
    assert init.sparse_(w, 0.3) is w
    assert w.numpy().tolist() == SEED3
    assert ((w.numpy() == 0).sum(axis=0) == math.ceil(0.3 * 5)).all()


def test_sparse_generators():
    sg.manual_seed(0)
    w = init.sparse_(sg.empty(4, 3, dtype=sg.float64), 0.5, std=2.0,
                     generator=sg.Generator().manual_seed(7))
    assert w.numpy().tolist() == GEN7
    after = _state(sg)
    sg.manual_seed(0)
    for _ in range(3):   # the default generator drew one permutation per column, nothing else
        sg.randperm(4)
    assert np.array_equal(after, _state(sg))


def test_sparse_leaf_and_errors():
    w = sg.zeros(6, 2, requires_grad=True)
    init.sparse_(w, 0.2)
    assert w.requires_grad and w.is_leaf and w.grad_fn is None
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.sparse_(sg.empty(3), 0.1)
    with pytest.raises(NotImplementedError, match="\"normal_kernel_cpu\" not implemented for "
                                                  "'Long'"):
        init.sparse_(sg.empty(3, 3, dtype=sg.int64), 0.1)


@pytest.mark.parametrize("shape, groups", [((4, 3, 3), 1), ((6, 4, 3, 2), 2),
                                           ((4, 2, 3, 3, 3), 2), ((2, 5, 2), 1)])
def test_dirac_identity_kernel(shape, groups):
    want = np.zeros(shape, np.float32)
    per_group = shape[0] // groups
    centre = tuple(s // 2 for s in shape[2:])
    for g in range(groups):
        for d in range(min(per_group, shape[1])):
            want[(g * per_group + d, d) + centre] = 1
    w = sg.rand(*shape, requires_grad=True)
    assert init.dirac_(w, groups) is w and w.is_leaf
    assert np.array_equal(w.detach().numpy(), want)


def test_dirac_errors():
    with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions"):
        init.dirac_(sg.empty(3, 3))
    with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
        init.dirac_(sg.empty(3, 3, 3), 2)
    with pytest.raises(ZeroDivisionError):
        init.dirac_(sg.empty(3, 3, 3), 0)


# ================================================================== against torch

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _bits(t) -> np.ndarray:
    a = np.ascontiguousarray(t.detach().numpy())
    return a.view(np.uint8)


@pytest.mark.parametrize("shape", [(5, 4), (1, 7), (9, 3), (0, 3), (4, 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("sparsity", [0.0, 0.3, 0.5, 1.0, 1.7, -0.4])
def test_sparse_same_bits_as_torch(torch, shape, dtype, sparsity):
    for seed in (0, 5):
        torch.manual_seed(seed)
        sg.manual_seed(seed)
        theirs = torch.nn.init.sparse_(torch.empty(*shape, dtype=getattr(torch, dtype)),
                                       sparsity)
        mine = init.sparse_(sg.empty(*shape, dtype=getattr(sg, dtype)), sparsity)
        assert np.array_equal(_bits(mine), _bits(theirs))
        assert np.array_equal(_state(sg), _state(torch))


def test_sparse_views_and_generators_as_torch(torch):
    torch.manual_seed(1)
    sg.manual_seed(1)
    tg, g = torch.Generator().manual_seed(9), sg.Generator().manual_seed(9)
    theirs = torch.empty(6, 4).t()
    mine = sg.empty(6, 4).t()
    torch.nn.init.sparse_(theirs, 0.25, std=3.0, generator=tg)
    init.sparse_(mine, 0.25, std=3.0, generator=g)
    assert np.array_equal(_bits(mine), _bits(theirs))
    assert np.array_equal(_state(sg), _state(torch))
    assert np.array_equal(np.asarray(g.get_state().numpy(), np.uint8), tg.get_state().numpy())


CALLS = [lambda I, m: I.sparse_(m.empty(3), 0.1),
         lambda I, m: I.sparse_(m.empty(3, 3, dtype=m.int64), 0.1),
         lambda I, m: I.sparse_(m.empty(3, 3), float("nan")),
         lambda I, m: I.dirac_(m.empty(3, 3)),
         lambda I, m: I.dirac_(m.empty(3, 3, 3, 3, 3, 3)),
         lambda I, m: I.dirac_(m.empty(3, 3, 3), 2),
         lambda I, m: I.dirac_(m.empty(3, 3, 3), 0)]


@pytest.mark.parametrize("call", range(len(CALLS)))
def test_errors_as_torch(torch, call):
    with pytest.raises(Exception) as theirs:
        CALLS[call](torch.nn.init, torch)
    with pytest.raises(type(theirs.value), match=None) as mine:
        CALLS[call](init, sg)
    assert str(mine.value) == str(theirs.value)


@pytest.mark.parametrize("shape, groups", [((4, 3, 3), 1), ((6, 4, 3, 2), 2), ((3, 6, 4), 3),
                                           ((4, 2, 3, 3, 3), 2), ((2, 5, 2), 1),
                                           ((6, 2, 1, 4), -3), ((0, 2, 3), 1)])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex128"])
def test_dirac_as_torch(torch, shape, groups, dtype):
    theirs = torch.nn.init.dirac_(torch.ones(*shape, dtype=getattr(torch, dtype)), groups)
    mine = init.dirac_(sg.ones(*shape, dtype=getattr(sg, dtype)), groups)
    assert np.array_equal(_bits(mine), _bits(theirs))
