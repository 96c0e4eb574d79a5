"""torch.utils.data: datasets, samplers, collation and DataLoader give torch's batches in
torch's order (shuffles drawn from the same random numbers), and leave the global generator
where torch leaves it."""

import numpy as np
import pytest

import symgrad as sg
from symgrad.utils.data import (DataLoader, Subset, TensorDataset, default_collate,
                                random_split)


def _epochs(T, shuffle, drop_last, seeded):
    T.manual_seed(7)
    X = T.arange(22, dtype=T.float32).reshape(11, 2)
    y = T.arange(11)
    gen = T.Generator().manual_seed(3) if seeded else None
    loader = T.utils.data.DataLoader(T.utils.data.TensorDataset(X, y), batch_size=4,
                                     shuffle=shuffle, drop_last=drop_last, generator=gen)
    out = [[(xb.tolist(), yb.tolist()) for xb, yb in loader] for _ in range(2)]
    return out, len(loader), T.rand(3).tolist()


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("seeded", [False, True])
def test_loader_batches_like_torch(shuffle, drop_last, seeded):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    assert _epochs(sg, shuffle, drop_last, seeded) == _epochs(torch, shuffle, drop_last, seeded)


def test_loader_without_torch_covers_every_sample_once():
    X = sg.arange(10, dtype=sg.float32)
    batches = list(DataLoader(TensorDataset(X), batch_size=3, shuffle=True))
    assert [len(b[0]) for b in batches] == [3, 3, 3, 1]
    seen = np.concatenate([b[0].numpy() for b in batches])
    np.testing.assert_array_equal(np.sort(seen), np.arange(10, dtype=np.float32))


def test_collate_and_split():
    batch = default_collate([(1.5, 2, {"a": np.ones(2)}), (2.5, 3, {"a": np.zeros(2)})])
    assert batch[0].dtype is sg.float64 and batch[1].dtype is sg.int64
    np.testing.assert_array_equal(batch[2]["a"].numpy(), [[1, 1], [0, 0]])
    parts = random_split(range(10), [0.3, 0.7], generator=sg.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [3, 7] and isinstance(parts[0], Subset)
    assert sorted(list(parts[0]) + list(parts[1])) == list(range(10))
    with pytest.raises(AssertionError, match="Size mismatch"):
        TensorDataset(sg.ones(3), sg.ones(4))
    with pytest.raises(ValueError, match="mutually exclusive"):
        DataLoader(range(4), sampler=[0, 1], shuffle=True)


def test_random_split_like_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    for T in (torch, sg):
        T.manual_seed(1)
    a = [list(s) for s in torch.utils.data.random_split(range(9), [4, 5])]
    b = [list(s) for s in random_split(range(9), [4, 5])]
    assert a == b
